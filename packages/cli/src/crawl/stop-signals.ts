// The stop signals of a crawl run from the command line: the first SIGINT (Ctrl-C) or SIGTERM
// stops the crawler gently, a second aborts what is in flight, a third quits.

import type { Crawler } from '@politely/crawler';
import { EXIT_INTERRUPTED, EXIT_TERMINATED } from '../exit-codes.js';
import type { Io } from '../io.js';
import { write } from '../io.js';
import { duration } from '../report/html.js';
import type { CliLog } from './cli-log.js';

/** The signals that stop a crawl: SIGINT (Ctrl-C) and SIGTERM (`kill`, `docker stop`, a scheduler). */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * A stop signal once: the crawler stops gently. Twice: what is in flight is aborted at once (its
 * URLs still go back to the store). Three times: quit now. Returns the first signal, and the
 * function that stops listening.
 */
export function onStopSignals(
  io: Io,
  log: CliLog,
  crawler: Crawler,
  graceMs: number | undefined,
  terminal: boolean,
): { first(): StopSignal | undefined; off(): void } {
  let first: StopSignal | undefined;
  let received = 0;
  const listener = (signal: StopSignal): void => {
    first ??= signal;
    received++;
    if (received === 1) {
      crawler.stop();
      const grace = graceMs === undefined ? 'the grace period' : duration(graceMs);
      // A line of its own after the progress bars or a half-written log line.
      if (log.logger === undefined) void write(io.stderr, '\n');
      void log.notice(
        'warn',
        'stopping',
        `stopping (${signal}): no new requests; those in flight get ${grace} to end, then outputs are written (${signal} again to stop at once)`,
        { signal, graceMs: graceMs ?? null },
      );
    } else if (received === 2) {
      crawler.stop();
      void log.notice(
        'warn',
        'stopping',
        'stopping at once: requests in flight are aborted, their URLs kept in the store',
        { signal, graceMs: 0 },
      );
    } else {
      // Still not done (a handler or the store that does not answer): the user wants out now.
      // Give the cursor back if the bars hid it.
      if (terminal) io.stdout.write('\u001b[?25h');
      process.exit(first === 'SIGTERM' ? EXIT_TERMINATED : EXIT_INTERRUPTED);
    }
  };
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
  return {
    first: () => first,
    off: () => {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    },
  };
}
