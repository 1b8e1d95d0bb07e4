// `politely robots lint`: diagnostics for robots.txt files, for people or as JSON.

import { parseArgs } from 'node:util';
import { lintRobotsTxt, type RobotsDiagnostic } from '@politely/core';
import { CliError } from '../cli-error.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type ExitCode } from '../exit-codes.js';
import { escapeControls, toSafeJson } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { readRobotsFile } from '../read-robots-file.js';
import { ROBOTS_USAGE } from '../usage.js';

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A diagnostic with the file it is about, as `--json` prints it. */
export interface FileDiagnostic extends RobotsDiagnostic {
  readonly file: string;
}

export async function runRobotsLint(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values, positionals } = parseOptions(
    args,
    { command: 'robots lint', usage: ROBOTS_USAGE, options: OPTIONS, allowPositionals: true },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, ROBOTS_USAGE);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new CliError('robots lint: give at least one FILE (see politely robots --help)');
  let unreadable = false;
  const all: FileDiagnostic[] = [];
  for (const file of positionals) {
    let bytes: Uint8Array;
    try {
      bytes = await readRobotsFile(file);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      await write(io.stderr, `politely: ${escapeControls(error.message)}\n`);
      unreadable = true;
      continue;
    }
    const diagnostics = lintRobotsTxt(bytes).map((d) => ({ file, ...d }));
    all.push(...diagnostics);
    if (values.json !== true) await write(io.stdout, formatReport(file, diagnostics));
  }
  if (values.json === true) await write(io.stdout, `${toSafeJson(all, 2)}\n`);
  if (unreadable) return EXIT_USAGE;
  return all.some((d) => d.severity === 'error') ? EXIT_FAILURE : EXIT_OK;
}

/**
 * `FILE:LINE: severity: message [code]` lines, then a summary line. The file name and the
 * messages (which may quote the file) have their control characters escaped: this is for a terminal.
 */
export function formatReport(file: string, diagnostics: readonly RobotsDiagnostic[]): string {
  const name = escapeControls(file);
  const lines = diagnostics.map((d) => `${name}:${d.line}: ${d.severity}: ${escapeControls(d.message)} [${d.code}]`);
  lines.push(`${name}: ${summarize(diagnostics)}`);
  return `${lines.join('\n')}\n`;
}

/** `1 error, 2 warnings, 0 infos`, or `no problems found`. */
export function summarize(diagnostics: readonly RobotsDiagnostic[]): string {
  if (diagnostics.length === 0) return 'no problems found';
  const count = (severity: RobotsDiagnostic['severity']): number =>
    diagnostics.filter((d) => d.severity === severity).length;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [plural(count('error'), 'error'), plural(count('warning'), 'warning'), plural(count('info'), 'info')].join(
    ', ',
  );
}
