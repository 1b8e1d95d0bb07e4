// A site that answers one page with 429/503 and Retry-After, for tests of Retry-After at any
// per-host concurrency and across workers, judged by the server's own log (server clock).
//
// Each site: `/` links to /p1…/pN. /p1 answers 503 or 429 with Retry-After once (in seconds, or
// as an HTTP-date), then 200; every other page answers 200 slowly, so that requests to the host
// are still in flight when the 503/429 goes out and settle after it (the case where a later
// settle used to move the host's clock back before the Retry-After).
//
// The server holds the 503/429 until every request the crawler may have in flight at once
// (perHostConcurrency) has arrived: from then on the crawler has no free slot until something
// settles, so every request that arrives after the 503/429 was sent was started by the crawler
// after a settle, and must obey the Retry-After. That makes the host-wide check exact: no
// tolerance window is needed for "requests that were already on their way".
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  readonly path: string;
  /** Date.now() at the server when the request arrived. */
  readonly at: number;
}

export interface Refusal {
  readonly path: string;
  /** Date.now() at the server just before the 503/429 was sent. */
  readonly sentAt: number;
  /** Requests in the log when it was sent (every later one arrived after it). */
  readonly arrivedBefore: number;
  /** No request to the host may arrive before this (server clock, ms since the epoch). */
  readonly notBefore: number;
}

export interface Site {
  readonly base: string;
  readonly arrivals: Arrival[];
  readonly refusals: Refusal[];
  close(): Promise<void>;
}

export interface SiteOptions {
  readonly status: 429 | 503;
  readonly form: 'seconds' | 'date';
  /** Requests the crawler may have in flight at the host at once. */
  readonly inFlight: number;
  readonly pages: number;
  /** How long every page but the refused one takes to answer. */
  readonly slowMs: number;
  /** delay-seconds sent (form `seconds`). @default 1 */
  readonly seconds?: number;
}

const links = (paths: readonly string[]): string => paths.map((p) => `<a href="${p}">${p}</a>`).join('');

export async function startRetryAfterSite(options: SiteOptions): Promise<Site> {
  const arrivals: Arrival[] = [];
  const refusals: Refusal[] = [];
  const pages = Array.from({ length: options.pages }, (_, i) => `/p${i + 1}`);
  let refused = false;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const pageArrivals = (): number => arrivals.filter((a) => a.path.startsWith('/p')).length;

  const refuse = (res: ServerResponse, waitedMs: number): void => {
    // Every request the crawler can have in flight at once has arrived (bounded wait).
    if (pageArrivals() < options.inFlight && waitedMs < 3000) {
      later(10, () => refuse(res, waitedMs + 10));
      return;
    }
    const sentAt = Date.now();
    let value: string;
    let notBefore: number;
    if (options.form === 'seconds') {
      const seconds = options.seconds ?? 1;
      value = String(seconds);
      notBefore = sentAt + seconds * 1000;
    } else {
      // An HTTP-date has whole seconds: a date at least 2 s ahead, judged against the date itself.
      notBefore = Math.ceil((sentAt + 2000) / 1000) * 1000;
      value = new Date(notBefore).toUTCString();
    }
    refusals.push({ path: '/p1', sentAt, arrivedBefore: arrivals.length, notBefore });
    res.writeHead(options.status, { 'retry-after': value, 'content-type': 'text/plain' });
    res.end('later');
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    arrivals.push({ path, at: Date.now() });
    if (path === '/robots.txt') {
      res.setHeader('content-type', 'text/plain');
      res.end('User-agent: *\nAllow: /\n');
    } else if (path === '/') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(links(pages));
    } else if (path === '/p1' && !refused) {
      refused = true;
      refuse(res, 0);
    } else if (pages.includes(path)) {
      later(path === '/p1' ? 0 : options.slowMs, () => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(`page ${path}`);
      });
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, refusals, close };
}

/** Requests that arrived too early: repeats of a refused URL, and any request to the host. */
export function violations(site: Site): { perUrl: string[]; hostWide: string[] } {
  const perUrl: string[] = [];
  const hostWide: string[] = [];
  for (const refusal of site.refusals) {
    for (const arrival of site.arrivals.slice(refusal.arrivedBefore)) {
      if (arrival.at >= refusal.notBefore) continue;
      const line = `${arrival.path} at +${arrival.at - refusal.sentAt} ms, not before +${refusal.notBefore - refusal.sentAt} ms`;
      if (arrival.path === refusal.path) perUrl.push(line);
      hostWide.push(line);
    }
  }
  return { perUrl, hostWide };
}
