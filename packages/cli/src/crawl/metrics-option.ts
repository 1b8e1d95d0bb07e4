// `--metrics` and `--metrics-linger` for a crawl: the server started before the crawl, its address
// said, and after the crawl the wait that lets a scraper read the final counts.

import { maskSecrets } from '@politely/core';
import { CliError } from '../cli-error.js';
import type { ListenAddress } from '../input/listen-address.js';
import { escapeControls, quoteInput } from '../input/quote-input.js';
import type { MetricsServer } from './metrics-server.js';
import type { OpenedStore } from './store-option.js';

/** A metadata key no one writes: reading it is the store's cheapest round trip. */
const READY_PROBE_KEY = 'politely-readyz';

/** How often the same reason of a failed `/readyz` is logged again while it lasts. */
const NOT_READY_REPEAT_MS = 60_000;

/**
 * Starts the server for `--metrics`; a usage error naming the address when it cannot listen
 * there. Why `/readyz` failed goes to `log` (masked), once per reason and minute: a scraper polls.
 */
export async function serveMetrics(
  address: ListenAddress,
  opened: OpenedStore,
  log: (line: string) => void = () => {},
): Promise<MetricsServer> {
  const store = opened.store;
  const ready = async (): Promise<unknown> => {
    if (store === undefined) return undefined; // the crawler's memory store: always there
    return store.loadMetadata === undefined ? store.counts() : store.loadMetadata(READY_PROBE_KEY);
  };
  // Loaded only with --metrics: OpenTelemetry's SDK stays off every other crawl's start-up.
  const { startMetricsServer } = await import('./metrics-server.js');
  try {
    return await startMetricsServer({ host: address.host, port: address.port, ready, onNotReady: notReadyLog(log) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliError(
      `crawl: --metrics ${quoteInput(`${address.host}:${address.port}`)}: cannot listen there (${code})`,
    );
  }
}

/** Logs why `/readyz` failed, masked; the same reason again only after NOT_READY_REPEAT_MS. */
function notReadyLog(log: (line: string) => void): (reason: string) => void {
  let last: { readonly reason: string; readonly at: number } | undefined;
  return (reason) => {
    const now = Date.now();
    if (last !== undefined && last.reason === reason && now - last.at < NOT_READY_REPEAT_MS) return;
    last = { reason, at: now };
    log(`/readyz: store unavailable: ${escapeControls(maskSecrets(reason))}`);
  };
}

/** Waits `ms`, or less if SIGINT or SIGTERM comes: the crawl is over, the user wants out. */
export function lingerFor(ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
