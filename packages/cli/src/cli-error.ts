// An expected failure of a command (bad usage, unreadable input): a one-line message and an
// exit code, printed by `main` as `politely: <message>`. Anything else thrown is a bug.

import { EXIT_USAGE, type ExitCode } from './exit-codes.js';

export class CliError extends Error {
  readonly exitCode: ExitCode;
  /** Usage text to print after the message, for errors in the command line itself. */
  readonly usage: string | undefined;

  constructor(message: string, options: { exitCode?: ExitCode; usage?: string } = {}) {
    super(message);
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT_USAGE;
    this.usage = options.usage;
  }
}
