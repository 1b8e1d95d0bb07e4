// The display when the output is not a terminal (or `--log` asks for it): one line per request
// (with its status), skip and error, and a status line every few seconds. In text, written here;
// with `--log json` the crawler's logger writes the requests, skips and errors (cli-log.ts), and
// this adds the status lines.

import type { Crawler, LogFields } from '@politely/crawler';
import { escapeControls } from '../input/quote-input.js';
import { write } from '../io.js';
import type { CliLog } from './cli-log.js';
import { elapsedText, type LiveStatus, LiveStatusReader, skipsText } from './live-status.js';
import type { CrawlDisplay } from './progress-display.js';

export function createLogDisplay(crawler: Crawler, log: CliLog, statusIntervalMs: number): CrawlDisplay {
  const reader = new LiveStatusReader(crawler, Date.now());
  const kinds = new Map<string, string>();
  const stops: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const { logger } = log;

  const emit = (event: LogFields, plain: string): void => {
    // URLs, details and messages come from the web: nothing in them may act on a terminal.
    if (logger === undefined) void write(log.stream, `${escapeControls(plain)}\n`);
    else logger.info(event);
  };
  const status = (live: LiveStatus): void =>
    emit(
      {
        event: 'status',
        pages: live.pages,
        requests: live.requests,
        queued: live.queued,
        inFlight: live.inFlight,
        hosts: live.activeHosts,
        pagesPerSecond: round(live.rate),
        elapsedMs: live.elapsedMs,
        errors: live.errors,
        skipped: live.skipped,
      },
      `status  ${live.pages} pages, ${live.requests} requests, ${live.queued} queued, ${live.activeHosts} hosts, ${live.rate.toFixed(1)} pages/s, ${live.errors} errors, skipped: ${skipsText(live.skipped, ', ')}, ${elapsedText(live.elapsedMs)}`,
    );

  return {
    start() {
      if (logger === undefined) stops.push(...textLines());
      timer = setInterval(() => void reader.read().then(status), statusIntervalMs);
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      for (const stop of stops) stop();
      status(await reader.read());
    },
  };

  /** A line per request, robots.txt fetch, skip and error, in text. */
  function textLines(): (() => void)[] {
    const line = (text: string): void => void write(log.stream, `${escapeControls(text)}\n`);
    return [
      crawler.on('request', (event) => {
        if (event.kind !== 'robots') kinds.set(event.url, event.kind);
      }),
      crawler.on('response', (event) => {
        const kind = kinds.get(event.url) ?? 'page';
        kinds.delete(event.url);
        line(`${event.status} ${kind.padEnd(7)} ${event.url} (${Math.round(event.durationMs)} ms, ${event.bytes} B)`);
      }),
      crawler.gate.on('fetch', (event) => {
        const status = event.status === null ? 'ERR' : String(event.status);
        line(`${status} robots  ${event.url} (${event.outcome}, ${Math.round(event.durationMs)} ms)`);
      }),
      crawler.on('skip', (event) => {
        kinds.delete(event.url);
        if (event.reason === 'duplicate') return;
        line(`skip ${event.reason} ${event.url}${event.detail === undefined ? '' : ` (${event.detail})`}`);
      }),
      crawler.on('error', (event) => {
        kinds.delete(event.url);
        line(`error ${event.url}: ${event.error.message}${event.willRetry ? ' (will retry)' : ''}`);
      }),
    ];
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
