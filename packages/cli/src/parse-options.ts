// Command-line options with node:util parseArgs; its errors become usage errors.

import { CliError } from './cli-error.js';

/** Runs a `parseArgs` call, turning a malformed command line into a usage error. */
export function parseOptions<T>(parse: () => T, usage: string): T {
  try {
    return parse();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      throw new CliError(oneLine((error as Error).message), { usage });
    }
    throw error;
  }
}

/** Messages end up on one line of stderr. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
