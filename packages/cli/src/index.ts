// @politely/cli: the `politely` command, callable in-process (tests, embedding) with your own streams.

export { main } from './main.js';
export type { Io } from './io.js';
export { EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERNAL } from './exit-codes.js';
export type { ExitCode } from './exit-codes.js';
