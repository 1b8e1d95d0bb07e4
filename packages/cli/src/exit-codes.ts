// The exit codes of the `politely` command, one meaning each.

/** Everything went as asked (lint may still have reported warnings). */
export const EXIT_OK = 0;
/** The command ran to the end, but found failures: batch lines that could not be decided, lint errors. */
export const EXIT_FAILURE = 1;
/** The command line or its input was wrong: unknown command or option, missing argument, invalid URL, unreadable file. */
export const EXIT_USAGE = 2;
/** A service the crawl depends on failed mid-crawl (the store lost its state): sysexits EX_UNAVAILABLE. */
export const EXIT_UNAVAILABLE = 69;
/** A bug in politely: an unexpected exception (sysexits EX_SOFTWARE). */
export const EXIT_INTERNAL = 70;
/** An output could not be written (disk full, I/O error); what was not written stays in the store: sysexits EX_IOERR. */
export const EXIT_IO = 74;
/** Stopped by Ctrl-C (SIGINT) after a clean shutdown: 128 + 2, as shells report it. */
export const EXIT_INTERRUPTED = 130;
/** Stopped by SIGTERM (`kill`, `docker stop`, a scheduler) after a clean shutdown: 128 + 15, as shells report it. */
export const EXIT_TERMINATED = 143;

/** The exit codes of the `politely` command (`EXIT_*`). */
export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_FAILURE
  | typeof EXIT_USAGE
  | typeof EXIT_UNAVAILABLE
  | typeof EXIT_INTERNAL
  | typeof EXIT_IO
  | typeof EXIT_INTERRUPTED
  | typeof EXIT_TERMINATED;
