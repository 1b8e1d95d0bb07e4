// `politely crawl --config crawl.json` (or .yaml / .yml): the command's flags as keys of a file,
// turned into the command line they stand for, so that a file and flags are checked by one
// parser with the same messages. Flags override the file: a flag given on the command line
// replaces the file's value (every value, for a repeatable flag), and seed URLs given on the
// command line replace the file's `seeds`.
//
//   { "ua": "MyBot/1.0 (+https://example.com/bot)", "seeds": ["https://example.com/"],
//     "max-pages": 500, "out": ["pages.jsonl"], "sitemaps": true, "delay": "2s" }
//
// A key is a flag's long name without its dashes; `true` gives a flag that takes no value and
// `false` leaves it off; a repeatable flag takes a list (or one value). A value from the file is
// never read as a flag: each becomes `--key=value` (the value inline, whatever it starts with),
// and each seed must be an absolute http(s) URL.

import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { nearestName } from '@politely/core/internal';
import { parse as parseYaml } from 'yaml';
import { CliError } from '../cli-error.js';
import { EXIT_IO } from '../exit-codes.js';
import { parseHttpUrl } from '../input/http-url.js';
import { escapeControls, quoteInput } from '../input/quote-input.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** The key of a config file that lists seed URLs (the command line's positionals). */
export const SEEDS_KEY = 'seeds';
/** Flags that make no sense in a file: they are about this command line. */
const COMMAND_LINE_ONLY = new Set(['config', 'print-config', 'help']);

/** A command line with its `--config` file's settings put in. */
export interface ExpandedCommandLine {
  /** The file's flags, then the command line's (without `--config`). */
  readonly args: string[];
  /** The file, when one was given: errors about its flags name it. */
  readonly file: string | undefined;
  /** The flags (long names) that came from the file and not from the command line. */
  readonly fromFile: ReadonlySet<string>;
}

/**
 * Reads `--config FILE` out of `args` and returns the command line it stands for. `command`
 * names the command in messages; `options` are its flags. Without `--config`, `args` unchanged.
 */
export function expandConfigFile(
  command: string,
  args: readonly string[],
  options: OptionsConfig,
): ExpandedCommandLine {
  const { file, rest } = takeConfigFlag(command, args);
  if (file === undefined) return { args: [...args], file: undefined, fromFile: new Set() };
  const settings = readConfigFile(command, file);
  const onCommandLine = flagsIn(rest);
  const givesSeeds = hasPositionals(rest, options);
  const fileArgs: string[] = [];
  const fromFile = new Set<string>();
  for (const [key, value] of Object.entries(settings)) {
    const where = `${command}: ${displayName(file)}: ${quoteInput(key)}`;
    if (key === SEEDS_KEY) {
      const seeds = seedsOf(where, value);
      if (!givesSeeds) fileArgs.push(...seeds);
      continue;
    }
    const config = Object.hasOwn(options, key) && !COMMAND_LINE_ONLY.has(key) ? options[key] : undefined;
    if (config === undefined) throw unknownKey(where, key, options);
    if (onCommandLine.has(key)) continue;
    const flags = flagsFor(where, key, value, config);
    if (flags.length > 0) fromFile.add(key);
    fileArgs.push(...flags);
  }
  // The file's seeds and flags come first: `--` never appears in the file's part.
  return { args: [...fileArgs, ...rest], file, fromFile };
}

/**
 * An error of the parser about a flag that came from the file, named as coming from it:
 * `crawl: --max-pages: …` becomes `crawl: crawl.json: --max-pages: …`.
 */
export function attributeToFile(error: unknown, command: string, expanded: ExpandedCommandLine): unknown {
  if (!(error instanceof CliError) || expanded.file === undefined) return error;
  const flag = /--([a-z][a-z-]*)/.exec(error.message)?.[1];
  if (flag === undefined || !expanded.fromFile.has(flag)) return error;
  const prefix = `${command}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return new CliError(`${prefix}${displayName(expanded.file)}: ${message}`, {
    exitCode: error.exitCode,
    ...(error.usage === undefined ? {} : { usage: error.usage }),
  });
}

function takeConfigFlag(command: string, args: readonly string[]): { file: string | undefined; rest: string[] } {
  let file: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    let value: string | undefined;
    if (arg === '--config') {
      value = args[++i];
      if (value === undefined || value.startsWith('--'))
        throw new CliError(`${command}: --config needs a value (a .json, .yaml or .yml file)`);
    } else if (arg.startsWith('--config=')) value = arg.slice('--config='.length);
    else {
      rest.push(arg);
      continue;
    }
    if (file !== undefined) throw new CliError(`${command}: --config given twice: give one file`);
    file = value;
  }
  return { file, rest };
}

/** The file's settings: a JSON or YAML mapping. */
function readConfigFile(command: string, file: string): Record<string, unknown> {
  const kind = extname(file).toLowerCase();
  if (!['.json', '.yaml', '.yml'].includes(kind))
    throw new CliError(`${command}: --config: a .json, .yaml or .yml file, got ${quoteInput(file)}`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliError(`${command}: --config: cannot read ${quoteInput(file)} (${escapeControls(reason)})`, {
      exitCode: EXIT_IO,
    });
  }
  let parsed: unknown;
  try {
    parsed = kind === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const reason = escapeControls(((error as Error).message.split('\n')[0] ?? '').trim());
    throw new CliError(
      `${command}: --config ${displayName(file)}: not valid ${kind === '.json' ? 'JSON' : 'YAML'}: ${reason}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CliError(
      `${command}: --config ${displayName(file)}: must hold a mapping of flag names to values, e.g. {"max-pages": 500}`,
    );
  return parsed as Record<string, unknown>;
}

/** The command-line tokens one key stands for. */
function flagsFor(where: string, key: string, value: unknown, config: OptionsConfig[string]): string[] {
  if (config.type === 'boolean') {
    if (typeof value !== 'boolean') throw new CliError(`${where}: true or false, got ${describe(value)}`);
    return value ? [`--${key}`] : [];
  }
  const values = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && config.multiple !== true)
    throw new CliError(`${where}: one value (--${key} is not repeatable), got a list`);
  return values.map((item) => `--${key}=${scalar(where, item)}`);
}

function scalar(where: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new CliError(`${where}: a string or a number, got ${describe(value)}`);
}

/**
 * The file's seed URLs, each an absolute http(s) URL. They become positionals of the command
 * line, so anything else is refused here: an entry such as `--allow-net=10.0.0.0/8` or `--`
 * would otherwise be read as a flag, or end the flags, instead of being a seed.
 */
function seedsOf(where: string, value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.map((seed, index) => {
    const entry = Array.isArray(value) ? `${where}[${index}]` : where;
    if (typeof seed !== 'string') throw new CliError(`${entry}: seed URLs as strings, got ${describe(seed)}`);
    if (seed.startsWith('-'))
      throw new CliError(`${entry}: a seed is an http(s) URL, never a flag: got ${quoteInput(seed)}`);
    if (parseHttpUrl(seed) === null)
      throw new CliError(`${entry}: a seed must be an absolute http(s) URL, got ${quoteInput(seed)}`);
    return seed;
  });
}

function unknownKey(where: string, key: string, options: OptionsConfig): CliError {
  const known = [...Object.keys(options).filter((name) => !COMMAND_LINE_ONLY.has(name)), SEEDS_KEY];
  const near = nearestName(key.replace(/^-+/, ''), known);
  const hint = near === undefined ? '' : ` (did you mean ${quoteInput(near)}?)`;
  return new CliError(`${where}: not a flag of this command${hint}`);
}

/** Long flag names on the command line. */
function flagsIn(args: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const arg of args) {
    if (arg === '--') break;
    const match = /^--([^=]+)/.exec(arg);
    if (match !== null) names.add(match[1] as string);
  }
  return names;
}

/** Whether the command line gives seed URLs (positionals): anything not a flag or a flag's value. */
function hasPositionals(args: readonly string[], options: OptionsConfig): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') return i + 1 < args.length;
    if (!arg.startsWith('-') || arg === '-') return true;
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name === undefined || name.includes('=')) continue;
    if (Object.hasOwn(options, name) && options[name]?.type === 'string') i++;
  }
  return false;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${escapeControls(JSON.stringify(value) ?? String(value))}`;
}

/** The file as messages name it: its name, control characters made visible. */
function displayName(file: string): string {
  return escapeControls(file);
}
