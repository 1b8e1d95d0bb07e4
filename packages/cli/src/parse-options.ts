// Command lines, read with node:util parseArgs after a check of our own, so that every mistake
// reads the same in every command: an unknown option or a missing value is a one-line message
// followed by the usage text; a bad value (see input/parse-number.ts) is one line, no usage.

import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CliError } from './cli-error.js';
import { escapeControls, quoteInput } from './input/quote-input.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** A command's command line, as `parseOptions` checks it. */
export interface CommandLine {
  /** The command as messages name it: `crawl`, `robots explain`. */
  readonly command: string;
  /** Printed after the message of a malformed command line. */
  readonly usage: string;
  readonly options: OptionsConfig;
  readonly allowPositionals?: boolean;
  /**
   * String options that take numbers. Their value may start with '-' (`--delay -5`): it is
   * taken as the value and refused by the number rule, as `--delay=-5` is, rather than read as a
   * missing value.
   */
  readonly numeric?: readonly string[];
}

/**
 * Checks `args` against `line`, then runs `parse` (a strict `parseArgs` call with the same
 * options) on them. Unknown options, missing values, values given to flags and unexpected
 * arguments become `CliError`s naming the command; the value of a numeric option that starts
 * with '-' is handed to `parse` as `--name=value`.
 */
export function parseOptions<T>(args: readonly string[], line: CommandLine, parse: (args: string[]) => T): T {
  const checked = checkCommandLine(args, line);
  try {
    return parse(checked);
  } catch (error) {
    // The check above should leave nothing for parseArgs to refuse; if it does, same shape.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      throw new CliError(`${line.command}: ${escapeControls(oneLine((error as Error).message))}`, {
        usage: line.usage,
      });
    }
    throw error;
  }
}

/** `args`, checked, with `--name -5` of a numeric option rewritten as `--name=-5`. */
export function checkCommandLine(args: readonly string[], line: CommandLine): string[] {
  const { tokens } = parseArgs({
    args: [...args],
    options: line.options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const joined = new Map<number, string>();
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (line.allowPositionals !== true) throw usageError(line, `unexpected argument ${quoteInput(token.value)}`);
      continue;
    }
    if (token.kind !== 'option') continue;
    const config = Object.hasOwn(line.options, token.name) ? line.options[token.name] : undefined;
    if (config === undefined) throw usageError(line, `unknown option ${quoteInput(token.rawName)}`);
    if (config.type === 'boolean') {
      if (token.value !== undefined)
        throw new CliError(`${line.command}: ${token.rawName}: takes no value, got ${quoteInput(token.value)}`);
      continue;
    }
    if (token.value === undefined) throw usageError(line, `${token.rawName} needs a value`);
    // `-` alone is the value that names stdin (`--file -`), never an option.
    if (token.inlineValue === true || !token.value.startsWith('-') || token.value === '-') continue;
    // `--delay -5`: parseArgs calls it ambiguous. For a number it is a (negative) value, unless
    // it is one of the command's options (`--delay --json`: the value was forgotten).
    if (line.numeric?.includes(token.name) === true && !isOption(token.value, line.options)) {
      joined.set(token.index, `--${token.name}=${token.value}`);
      continue;
    }
    throw usageError(
      line,
      `${token.rawName} needs a value (write ${token.rawName}=VALUE for one that starts with '-')`,
    );
  }
  const result: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const join = joined.get(i);
    if (join === undefined) {
      result.push(args[i] as string);
    } else {
      result.push(join);
      i++; // the value, now part of `--name=value`
    }
  }
  return result;
}

/** `--json`, `--ua=x`, `-h`, `--`: an argument that names one of `options` (or ends them). */
function isOption(arg: string, options: OptionsConfig): boolean {
  if (arg === '--') return true;
  if (arg.startsWith('--')) return Object.hasOwn(options, arg.slice(2).split('=')[0] as string);
  return Object.values(options).some((option) => option.short !== undefined && arg[1] === option.short);
}

function usageError(line: CommandLine, message: string): CliError {
  return new CliError(`${line.command}: ${message}`, { usage: line.usage });
}

/** Messages end up on one line of stderr. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
