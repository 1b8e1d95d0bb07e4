// The live display on a terminal: cli-progress bars redrawn a few times a second (pages against
// the page budget, or against all URLs known so far), with the frontier, hosts, rate, skips by
// reason and elapsed time.

import type { Crawler } from '@politely/crawler';
import cliProgress from 'cli-progress';
import { elapsedText, type LiveStatus, LiveStatusReader, skipsText } from './live-status.js';

export interface CrawlDisplay {
  start(): void;
  /** Draws the last state and stops redrawing; resolves when the display is off the terminal's way. */
  stop(): Promise<void>;
}

const REFRESH_MS = 250;

export function createProgressDisplay(
  crawler: Crawler,
  stream: NodeJS.WritableStream,
  maxPages: number | undefined,
): CrawlDisplay {
  const reader = new LiveStatusReader(crawler, Date.now());
  const multibar = new cliProgress.MultiBar(
    {
      stream,
      format: ' {bar} {value}/{total} pages | {queued} queued | {hosts} hosts | {rate} pages/s | {elapsed}',
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      fps: 8,
      autopadding: true,
      forceRedraw: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let pagesBar: cliProgress.SingleBar | undefined;
  let skipsBar: cliProgress.SingleBar | undefined;
  let timer: NodeJS.Timeout | undefined;
  let reading = false;

  const payload = (status: LiveStatus): Record<string, string> => ({
    queued: String(status.queued),
    hosts: String(status.activeHosts),
    rate: status.rate.toFixed(1),
    elapsed: elapsedText(status.elapsedMs),
  });
  const totalOf = (status: LiveStatus): number =>
    Math.max(1, maxPages ?? status.pages + status.queued + status.inFlight);
  const draw = (status: LiveStatus): void => {
    pagesBar?.setTotal(totalOf(status));
    pagesBar?.update(status.pages, payload(status));
    skipsBar?.update(0, {
      skips: skipsText(status.skipped),
      requests: String(status.requests),
      errors: String(status.errors),
    });
  };
  const refresh = async (): Promise<void> => {
    if (reading) return;
    reading = true;
    try {
      draw(await reader.read());
    } finally {
      reading = false;
    }
  };

  return {
    start() {
      pagesBar = multibar.create(maxPages ?? 1, 0, { queued: '0', hosts: '0', rate: '0.0', elapsed: '0.0s' });
      skipsBar = multibar.create(
        1,
        0,
        { skips: 'none', requests: '0', errors: '0' },
        { format: ' requests {requests} | errors {errors} | skipped: {skips}' },
      );
      timer = setInterval(() => void refresh(), REFRESH_MS);
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      draw(await reader.read());
      multibar.stop();
    },
  };
}
