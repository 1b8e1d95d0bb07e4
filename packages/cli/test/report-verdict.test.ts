// The report's verdict is judged from requests that reached a server. A crawl whose pages link to
// names that do not resolve (an injected resolver that fails: no DNS is asked) and to loopback
// ports where nothing listens stays polite (✓): those attempts are failures, not gaps. Two
// crawls sharing one collector and one server do break the delay, and the verdict names the
// host with the two requests that made the gap.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CrawlReportData, createCrawlReportCollector, renderCrawlReport } from '@politely/cli';
import type { ResolvedAddress } from '@politely/core';
import { createCrawler } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UA = 'VerdictBot/1.0';
const DELAY_MS = 300;
/** Host names the resolver refuses, as getaddrinfo would (no network lookup at all). */
const DEAD_NAMES = ['gone.invalid', 'nowhere.invalid'];

interface Logged {
  readonly at: number;
  readonly path: string;
}

interface Site {
  readonly origin: string;
  /** Each request the site saw, when it arrived: politeness as the server measures it. */
  readonly log: Logged[];
  close(): Promise<void>;
}

/** A loopback site on `address`, serving `page(path)` and a robots.txt that allows everything. */
async function startSite(address: string, page: (path: string) => string | undefined): Promise<Site> {
  const log: Logged[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    log.push({ at: Date.now(), path: req.url ?? '' });
    if (req.url === '/robots.txt')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const body = page(req.url ?? '');
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    origin: `http://${address}:${(server.address() as AddressInfo).port}`,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The shortest time between two requests a server saw. */
function minGap(log: readonly Logged[]): number {
  return Math.min(...log.slice(1).map((entry, i) => entry.at - (log[i]?.at ?? 0)));
}

/** Ports on `host` where nothing listens: bound once, then closed. */
async function closedPorts(host: string, count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i++) {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, host, resolve));
    ports.push((probe.address() as AddressInfo).port);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  }
  return ports;
}

/** Fails every name but loopback literals (which never reach a resolver): ENOTFOUND, no lookup. */
const failingResolver = async (hostname: string): Promise<readonly ResolvedAddress[]> => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
};

describe('the crawl report’s verdict', () => {
  describe('links to names that do not resolve, to refused connections and to refused addresses', () => {
    const sites: Site[] = [];
    let data: CrawlReportData;
    let html: string;
    const resolved: string[] = [];

    beforeAll(async () => {
      const ports = await closedPorts('127.0.0.2', 3);
      const links = [
        // Several origins of each dead name (ports, schemes): one politeness key.
        ...DEAD_NAMES.flatMap((name) => [
          `http://${name}/a`,
          `http://${name}:8080/b`,
          `https://${name}/c`,
          `http://${name}:8081/d`,
        ]),
        // Nothing listens there: connection refused.
        ...ports.flatMap((port) => [`http://127.0.0.2:${port}/a`, `http://127.0.0.2:${port}/b`]),
        // An address outside allowNet: the SSRF guard refuses it before any connection.
        ...ports.flatMap((port) => [`http://127.0.0.9:${port}/a`, `http://127.0.0.9:${port}/b`]),
      ];
      const page = (path: string): string | undefined =>
        path === '/'
          ? [...links, '/one', '/two'].map((href) => `<a href="${href}">x</a>`).join(' ')
          : path === '/one' || path === '/two'
            ? 'a page'
            : undefined;
      sites.push(await startSite('127.0.0.1', page), await startSite('127.0.0.3', page));
      const seeds = sites.map((site) => `${site.origin}/`);
      const collector = createCrawlReportCollector({ userAgent: UA, seeds, minDelayMs: DELAY_MS });
      // Two workers, one site each, one report: their attempts at the failing hosts interleave,
      // closer together than the delay, while each live site hears from one worker only.
      const crawlers = sites.map((site) =>
        createCrawler({
          userAgent: UA,
          seeds: [`${site.origin}/`],
          scope: 'any',
          allowNet: ['127.0.0.1', '127.0.0.2', '127.0.0.3'],
          minDelayMs: DELAY_MS,
          maxRetries: 0,
          maxRobotsRetries: 1,
          backoffBaseMs: 50,
          concurrency: 8,
          connectTimeoutMs: 2000,
          resolver: async (hostname) => {
            resolved.push(hostname);
            return failingResolver(hostname);
          },
          robotsCache: collector.robotsCache(),
        }),
      );
      for (const crawler of crawlers) collector.attach(crawler);
      const [stats] = await Promise.all(crawlers.map((crawler) => crawler.run()));
      data = collector.finish(stats!);
      html = renderCrawlReport(data);
    }, 60_000);

    afterAll(() => Promise.all(sites.map((site) => site.close())));

    it('asks the injected resolver for the dead names (never DNS) and really crawls the sites', () => {
      expect(new Set(resolved)).toEqual(new Set(DEAD_NAMES));
      for (const site of sites)
        expect(site.log.map((entry) => entry.path).sort()).toEqual(['/', '/one', '/robots.txt', '/two']);
    });

    it('judges only requests that reached a server: ✓, though failed attempts were close together', () => {
      const failing = data.hosts.filter((host) => [...DEAD_NAMES, '127.0.0.2', '127.0.0.9'].includes(host.hostKey));
      expect(failing.map((host) => host.hostKey).sort()).toEqual(['127.0.0.2', '127.0.0.9', ...DEAD_NAMES]);
      for (const host of failing) {
        // Several attempts, none sent: no gap to judge.
        expect(host.requestCount).toBeGreaterThan(1);
        expect(host.requests.every((request) => request.sentAt === undefined && request.status === null)).toBe(true);
        expect(host.gaps).toMatchObject({ count: 0, tooShort: 0, minMs: null });
        expect(host.unsent).toBe(host.requestCount);
      }
      // The attempts at a failing host started closer together than the delay (two workers).
      const starts = failing.flatMap((host) => {
        const at = host.requests.map((request) => request.at).sort((a, b) => a - b);
        return at.slice(1).map((t, i) => t - (at[i] ?? 0));
      });
      expect(Math.min(...starts)).toBeLessThan(DELAY_MS);

      for (const site of sites) {
        const host = data.hosts.find((entry) => entry.hostKey === new URL(site.origin).hostname);
        expect(host?.requests.every((request) => request.sentAt !== undefined)).toBe(true);
        expect(host?.gaps).toMatchObject({ count: 3, tooShort: 0 });
      }
      expect(html).toContain('<div class="banner ok">');
      expect(html).not.toContain('Gaps shorter than the delay at');
    });

    it('reports the failed hosts as failures, by why: host name not found, connection refused, blocked', () => {
      expect(html).toMatch(/host name not found<\/span><\/td><td>2<\/td><td>gone\.invalid, nowhere\.invalid/);
      expect(html).toMatch(/connection refused<\/span><\/td><td>1<\/td><td>127\.0\.0\.2/);
      expect(html).toMatch(/address blocked \(allowNet\)<\/span><\/td><td>1<\/td><td>127\.0\.0\.9/);
      expect(html).toContain('no request reached the server: no gap to measure');
      // Each live site's own log: every request it saw was at least the delay after the one before.
      for (const site of sites) expect(minGap(site.log)).toBeGreaterThanOrEqual(DELAY_MS - 5);
    });
  });

  describe('two crawls at one server closer than its delay', () => {
    let site: Site;
    let data: CrawlReportData;
    let html: string;

    beforeAll(async () => {
      site = await startSite('127.0.0.1', (path) =>
        path === '/' ? '<a href="/next">next</a>' : path === '/next' ? 'next' : undefined,
      );
      const seeds = [`${site.origin}/`];
      const collector = createCrawlReportCollector({ userAgent: UA, seeds, minDelayMs: DELAY_MS });
      // Two crawlers, each polite on its own, one collector: together they break the delay.
      const crawlers = [0, 1].map(() =>
        createCrawler({
          userAgent: UA,
          seeds,
          allowNet: ['127.0.0.0/8'],
          minDelayMs: DELAY_MS,
          robotsCache: collector.robotsCache(),
        }),
      );
      for (const crawler of crawlers) collector.attach(crawler);
      const [first] = await Promise.all(crawlers.map((crawler) => crawler.run()));
      data = collector.finish(first!);
      html = renderCrawlReport(data);
    }, 30_000);

    afterAll(() => site.close());

    it('the server saw two requests closer than the delay', () => {
      expect(minGap(site.log)).toBeLessThan(DELAY_MS);
    });

    it('names the host in the verdict and shows the two requests that made the gap', () => {
      const host = data.hosts.find((entry) => entry.hostKey === '127.0.0.1');
      expect(host?.gaps.tooShort).toBeGreaterThan(0);
      const tightest = host?.gaps.tightest;
      expect(tightest).toBeDefined();
      const { before, after } = tightest!;
      expect(after.at - before.at).toBe(host?.gaps.minMs);
      expect(after.at - before.at).toBeLessThan(DELAY_MS);
      expect(html).toContain('<div class="banner bad">');
      expect(html).toMatch(/Gaps shorter than the delay at 1 host\(s\): <a href="#host-1">127\.0\.0\.1<\/a>/);
      const section = html.slice(html.indexOf('<section class="host" id="host-1">'));
      const shown = section.slice(0, section.indexOf('</section>'));
      expect(shown).toContain(`<span class="url">${before.url}</span>`);
      expect(shown).toContain(`<span class="url">${after.url}</span>`);
    });
  });
});
