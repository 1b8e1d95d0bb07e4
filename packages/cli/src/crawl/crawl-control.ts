// Control of a running crawl from another process (`politely control pause|resume|stop`): the
// command writes a value into the store's metadata, and every worker of the crawl reads it twice
// a second, on a timer of its own, never on the claim path.

import type { Crawler } from '@politely/crawler';
import type { FrontierStore } from '@politely/frontier';

/** The store's metadata key of the last control command. */
export const CONTROL_KEY = 'politely-control';
export const CONTROL_COMMANDS = ['pause', 'resume', 'stop'] as const;
export type ControlCommand = (typeof CONTROL_COMMANDS)[number];

/** What `politely control` writes: the command, and when (ms since the epoch), which tells one from the next. */
export interface ControlValue {
  readonly command: ControlCommand;
  readonly at: number;
}

/** How often a worker reads the control value. */
export const CONTROL_POLL_MS = 500;

function isControlValue(value: unknown): value is ControlValue {
  const v = value as Partial<ControlValue> | undefined;
  return (
    typeof v === 'object' &&
    v !== null &&
    (CONTROL_COMMANDS as readonly string[]).includes(v.command as string) &&
    typeof v.at === 'number'
  );
}

/**
 * Applies the control commands written to `store` while the crawl runs: `pause`, `resume`,
 * `stop` (as SIGTERM stops). A `pause` found when the worker starts is applied (a worker joining a
 * paused crawl waits); a `stop` found then is an earlier run's and is not. `said` is told each
 * command applied. Returns the function that stops watching.
 */
export function watchControl(
  store: Pick<FrontierStore, 'loadMetadata'>,
  crawler: Pick<Crawler, 'pause' | 'resume' | 'stop' | 'paused'>,
  said: (command: ControlCommand) => void,
): () => void {
  if (store.loadMetadata === undefined) return () => {};
  let last: number | undefined;
  let first = true;
  let busy = false;
  const apply = (value: ControlValue, atStart: boolean): void => {
    if (value.command === 'pause' && !crawler.paused) crawler.pause();
    else if (value.command === 'resume' && crawler.paused) crawler.resume();
    else if (value.command === 'stop' && !atStart) crawler.stop();
    else return;
    said(value.command);
  };
  const poll = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      // A store that does not answer now is read again next time; the crawl itself says why.
      const value = await store.loadMetadata!(CONTROL_KEY).catch(() => undefined);
      if (isControlValue(value) && value.at !== last) {
        last = value.at;
        apply(value, first);
      }
      first = false;
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void poll(), CONTROL_POLL_MS);
  timer.unref();
  void poll();
  return () => clearInterval(timer);
}
