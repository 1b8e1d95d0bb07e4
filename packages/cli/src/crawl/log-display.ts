// The display when the output is not a terminal (or `--log` asks for it): one line per request
// (with its status), skip and error, and a status line every few seconds; plain text, or JSON
// lines with `--log json`.

import type { Crawler } from '@politely/crawler';
import { escapeControls, toSafeJson } from '../input/quote-input.js';
import { write } from '../io.js';
import type { LogFormat } from './crawl-options.js';
import { elapsedText, type LiveStatus, LiveStatusReader, skipsText } from './live-status.js';
import type { CrawlDisplay } from './progress-display.js';

type LogEvent = Readonly<Record<string, string | number | boolean | null | Readonly<Record<string, number>>>>;

export function createLogDisplay(
  crawler: Crawler,
  stream: NodeJS.WritableStream,
  format: LogFormat,
  statusIntervalMs: number,
): CrawlDisplay {
  const reader = new LiveStatusReader(crawler, Date.now());
  const kinds = new Map<string, string>();
  const stops: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;

  const emit = (event: LogEvent, plain: string): void => {
    // URLs, details and messages come from the web: nothing in them may act on a terminal.
    void write(
      stream,
      format === 'json'
        ? `${toSafeJson({ time: new Date().toISOString(), ...event })}\n`
        : `${escapeControls(plain)}\n`,
    );
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
      stops.push(
        crawler.on('request', (event) => {
          if (event.kind !== 'robots') kinds.set(event.url, event.kind);
        }),
        crawler.on('response', (event) => {
          const kind = kinds.get(event.url) ?? 'page';
          kinds.delete(event.url);
          emit(
            {
              event: 'response',
              kind,
              url: event.url,
              status: event.status,
              ms: Math.round(event.durationMs),
              bytes: event.bytes,
            },
            `${event.status} ${kind.padEnd(7)} ${event.url} (${Math.round(event.durationMs)} ms, ${event.bytes} B)`,
          );
        }),
        crawler.gate.on('fetch', (event) => {
          const status = event.status === null ? 'ERR' : String(event.status);
          emit(
            {
              event: 'robots',
              url: event.url,
              status: event.status,
              outcome: event.outcome,
              ms: Math.round(event.durationMs),
            },
            `${status} robots  ${event.url} (${event.outcome}, ${Math.round(event.durationMs)} ms)`,
          );
        }),
        crawler.on('skip', (event) => {
          kinds.delete(event.url);
          if (event.reason === 'duplicate') return;
          emit(
            { event: 'skip', reason: event.reason, url: event.url, detail: event.detail ?? null },
            `skip ${event.reason} ${event.url}${event.detail === undefined ? '' : ` (${event.detail})`}`,
          );
        }),
        crawler.on('error', (event) => {
          kinds.delete(event.url);
          emit(
            {
              event: 'error',
              url: event.url,
              stage: event.stage,
              message: event.error.message,
              attempt: event.attempt,
              willRetry: event.willRetry,
            },
            `error ${event.url}: ${event.error.message}${event.willRetry ? ' (will retry)' : ''}`,
          );
        }),
      );
      timer = setInterval(() => void reader.read().then(status), statusIntervalMs);
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      for (const stop of stops) stop();
      status(await reader.read());
    },
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
