// The `logger` option: the crawl's events as log entries, one object of fields each, with an
// `event` name. A logger observes, like any listener: the crawler never writes to the console,
// and a logger that throws changes nothing.

import type { RobotsGate } from '@politely/core';
import type { CrawlerEventName, CrawlerListener } from './events.js';

/** The fields of one log entry: `event` names what happened, the rest says about what. */
export type LogFields = Readonly<Record<string, unknown>>;

/** One level's method: pino's shape, `(fields, message?)`. */
export type LogMethod = (fields: LogFields, message?: string) => void;

/**
 * Where the crawler's log entries go: any object with these four methods, such as a
 * [pino](https://getpino.io) logger (`pino()` or a child of one) passed as it is.
 */
export interface CrawlLogger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  /** When present (pino has it) and false for `debug`, the per-request entries are not built at all. */
  isLevelEnabled?(level: string): boolean;
}

/** What `attachLogger` listens to: the crawler's events and its robots gate's fetches. */
export interface LoggedCrawler {
  on<E extends CrawlerEventName>(event: E, listener: CrawlerListener<E>): () => void;
  readonly gate: Pick<RobotsGate, 'on'>;
}

/**
 * Logs the crawl's events: requests (`debug`), responses and robots.txt fetches (`info`), skips
 * (`info`; duplicates `debug`), errors (`warn` when retried, else `error`), warnings (`warn`) and
 * the end (`info`). Returns the function that stops logging.
 */
export function attachLogger(crawler: LoggedCrawler, logger: CrawlLogger): () => void {
  const debug = logger.isLevelEnabled?.('debug') ?? true;
  const log = (level: keyof Omit<CrawlLogger, 'isLevelEnabled'>, fields: LogFields, message?: string): void => {
    try {
      logger[level](fields, message);
    } catch {
      // A logger observes: its failures are its own.
    }
  };
  // A response says its URL, not its kind: the request before it does.
  const kinds = new Map<string, string>();
  const stops = [
    crawler.on('request', (event) => {
      if (event.kind === 'robots') return;
      kinds.set(event.url, event.kind);
      if (debug) log('debug', { event: 'request', url: event.url, host: event.hostKey, kind: event.kind });
    }),
    crawler.on('response', (event) => {
      const kind = kinds.get(event.url) ?? 'page';
      kinds.delete(event.url);
      log('info', {
        event: 'response',
        kind,
        url: event.url,
        host: hostOf(event.url),
        status: event.status,
        durationMs: Math.round(event.durationMs),
        bytes: event.bytes,
      });
    }),
    crawler.gate.on('fetch', (event) => {
      log('info', {
        event: 'robots',
        url: event.url,
        host: hostOf(event.url),
        status: event.status,
        outcome: event.outcome,
        durationMs: Math.round(event.durationMs),
        ...(event.error === undefined ? {} : { error: event.error.message }),
      });
    }),
    crawler.on('skip', (event) => {
      kinds.delete(event.url);
      if (event.reason === 'duplicate' && !debug) return;
      log(event.reason === 'duplicate' ? 'debug' : 'info', {
        event: 'skip',
        url: event.url,
        host: hostOf(event.url),
        reason: event.reason,
        ...(event.detail === undefined ? {} : { detail: event.detail }),
        ...(event.referrer === undefined ? {} : { referrer: event.referrer }),
        ...(event.plugin === undefined ? {} : { plugin: event.plugin }),
      });
    }),
    crawler.on('error', (event) => {
      kinds.delete(event.url);
      const code = (event.error as { code?: unknown }).code;
      log(
        event.willRetry ? 'warn' : 'error',
        {
          event: 'error',
          url: event.url,
          host: hostOf(event.url),
          stage: event.stage,
          attempt: event.attempt,
          willRetry: event.willRetry,
          error: event.error.message,
          ...(typeof code === 'string' ? { code } : {}),
        },
        event.error.message,
      );
    }),
    crawler.on('warning', (event) => {
      log('warn', { event: 'warning', kind: event.kind, ...(event.counts ?? {}) }, event.message);
    }),
    crawler.on('done', (stats) => {
      log('info', {
        event: 'done',
        pages: stats.pages,
        requests: stats.requests,
        errors: stats.errors,
        skipped: stats.skipped,
        durationMs: stats.durationMs,
      });
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
