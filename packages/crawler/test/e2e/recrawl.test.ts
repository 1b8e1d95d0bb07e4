// Recrawls (`recrawl`): a second crawl of one store revalidates what the first fetched, sends the
// validators it was given, takes a 304 for an answer and tells the handler; freshness, no-store,
// the revisit bounds, robots.txt and usage preferences are honoured. Judged by a real server's log.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CrawlerOptions,
  type CrawlStats,
  createCrawler,
  type PageContext,
  type RevisitEvent,
  type SkipEvent,
} from '@politely/crawler';
import { createMemoryFrontierStore, type FrontierStore } from '@politely/frontier';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Handler,
  type LoggedRequest,
  smallestGapMs,
  startServer,
  type TestServer,
} from '../../../../test/support/site-server.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'RecrawlBot/1.0 (+https://example.com/bot)';
const servers: TestServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A site whose pages carry a strong ETag and Last-Modified and answer conditional requests; `edit` changes a page. */
interface Site {
  readonly server: TestServer;
  readonly url: (path: string) => string;
  edit(path: string, html: string): void;
}

async function site(
  pages: Record<string, string>,
  options: { headers?: Record<string, Record<string, string>>; robots?: () => string } = {},
): Promise<Site> {
  const bodies = new Map(Object.entries(pages));
  const versions = new Map<string, number>();
  const page =
    (path: string): Handler =>
    (req, res) => {
      const body = bodies.get(path)!;
      const version = versions.get(path) ?? 1;
      const etag = `"${path.length}-${version}"`;
      const headers = {
        etag,
        'last-modified': new Date(Date.UTC(2026, 0, version)).toUTCString(),
        ...options.headers?.[path],
      };
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
  const routes: Record<string, Handler | string> = Object.fromEntries(
    [...bodies.keys()].map((path) => [path, page(path)]),
  );
  routes['/robots.txt'] = (_req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.end(options.robots?.() ?? 'User-agent: *\nAllow: /\n');
  };
  const server = await startServer(routes);
  servers.push(server);
  return {
    server,
    url: (path) => server.base + path,
    edit(path, html) {
      bodies.set(path, html);
      versions.set(path, (versions.get(path) ?? 1) + 1);
    },
  };
}

const links = (title: string, ...paths: string[]): string =>
  `<html><head><title>${title}</title></head><body>${paths.map((p) => `<a href="${p}">${p}</a>`).join('')}</body></html>`;

interface CrawlResult {
  readonly handled: PageContext[];
  readonly revisits: RevisitEvent[];
  readonly skips: SkipEvent[];
  readonly stats: CrawlStats;
  readonly requests: LoggedRequest[];
}

async function crawl(target: Site, store: FrontierStore, options: Partial<CrawlerOptions> = {}): Promise<CrawlResult> {
  // A recrawl reopens what was due before it began (dueAt < its start): two crawls in one
  // millisecond would find a page fetched by the first one not yet due.
  await new Promise((resolve) => setTimeout(resolve, 2));
  const handled: PageContext[] = [];
  const revisits: RevisitEvent[] = [];
  const skips: SkipEvent[] = [];
  const from = target.server.log.length;
  const crawler = createCrawler({
    userAgent: UA,
    seeds: [target.url('/')],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    maxRetries: 0,
    store,
    handler: (page) => void handled.push(page),
    ...options,
  });
  crawler.on('revisit', (event) => revisits.push(event));
  crawler.on('skip', (event) => skips.push(event));
  const stats = await crawler.run();
  return {
    handled,
    revisits,
    skips,
    stats,
    requests: target.server.log.slice(from).filter((entry) => entry.path !== '/robots.txt'),
  };
}

const paths = (requests: readonly LoggedRequest[]): string[] => requests.map((entry) => entry.path).sort();

describe('recrawl', () => {
  it('revalidates every page: validators sent, 304s handed to the handler as not modified, a changed page in full', async () => {
    const web = await site({ '/': links('home', '/a', '/b'), '/a': links('a', '/b'), '/b': links('b') });
    const store = createMemoryFrontierStore();
    const first = await crawl(web, store);
    expect(paths(first.requests)).toEqual(['/', '/a', '/b']);
    expect(first.handled.map((page) => page.change)).toEqual(['new', 'new', 'new']);
    expect(first.stats.revisits.revisited).toBe(0);
    const bBytes = first.handled.find((page) => page.url.endsWith('/b'))!.body.length;

    web.edit('/a', links('a, edited', '/b', '/c'));
    const second = await crawl(web, store, { recrawl: true });
    // /c is new: the changed /a links to it (a 404 here), and it is crawled as usual.
    expect(paths(second.requests)).toEqual(['/', '/a', '/b', '/c']);
    const revisitRequests = second.requests.filter((request) => request.path !== '/c');
    for (const request of revisitRequests)
      expect(request.headers['if-none-match'], request.path).toBe(`"${request.path.length}-1"`);
    for (const request of revisitRequests)
      expect(request.headers['if-modified-since'], request.path).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    expect(second.requests.find((request) => request.path === '/c')!.headers['if-none-match']).toBeUndefined();

    const byPath = new Map(second.handled.map((page) => [new URL(page.url).pathname, page]));
    expect(byPath.get('/b')).toMatchObject({
      status: 304,
      notModified: true,
      change: 'not-modified',
      text: '',
      links: [],
    });
    expect(byPath.get('/b')!.previousFetch).toMatchObject({ status: 200, etag: '"2-1"', bytes: bBytes });
    expect(byPath.get('/a')).toMatchObject({ status: 200, notModified: false, change: 'changed' });
    expect(byPath.get('/a')!.$('title').text()).toBe('a, edited');
    expect(second.revisits.map((event) => [new URL(event.url).pathname, event.change]).sort()).toEqual([
      ['/', 'not-modified'],
      ['/a', 'changed'],
      ['/b', 'not-modified'],
    ]);
    expect(second.revisits.find((event) => event.url.endsWith('/b'))).toMatchObject({
      status: 304,
      bytes: 0,
      savedBytes: bBytes,
      previous: { status: 200 },
    });
    expect(second.stats.revisits).toMatchObject({ revisited: 3, notModified: 2, unchanged: 0, changed: 1 });
    expect(Object.values(second.stats.revisits.byHost)).toEqual([
      expect.objectContaining({ revisited: 3, notModified: 2, changed: 1 }),
    ]);
    expect(second.stats.revisits.bytesSaved).toBe(
      first.handled.filter((page) => !page.url.endsWith('/a')).reduce((sum, page) => sum + page.body.length, 0),
    );

    // A revisitMaxMs lowered to 0 keeps nothing back, whatever the intervals and due times say.
    const third = await crawl(web, store, { recrawl: true, revisitMaxMs: 0 });
    expect(paths(third.requests)).toEqual(['/', '/a', '/b', '/c']);
  });

  it('follows the new links of a changed page; not the links of an unchanged 200 unless followUnchangedLinks', async () => {
    const web = await site(
      { '/': links('home', '/a'), '/a': links('a') },
      { headers: { '/': { 'cache-control': 'no-store' } } },
    );
    const store = createMemoryFrontierStore();
    await crawl(web, store);
    web.edit('/a', links('a', '/new'));
    // /new is a 404 here; it is requested because the changed /a links to it.
    const second = await crawl(web, store, { recrawl: true, revisitMaxMs: 0 });
    expect(paths(second.requests)).toEqual(['/', '/a', '/new']);
    // The seed is no-store: no validators kept or sent, downloaded in full, and found unchanged.
    const seedRequest = second.requests.find((request) => request.path === '/')!;
    expect(seedRequest.headers['if-none-match']).toBeUndefined();
    expect(seedRequest.headers['if-modified-since']).toBeUndefined();
    const seed = second.handled.find((page) => page.url === web.url('/'))!;
    expect(seed).toMatchObject({ status: 200, change: 'unchanged', notModified: true });
    expect(second.skips.filter((skip) => skip.reason === 'duplicate').map((skip) => skip.url)).not.toContain(
      web.url('/a'),
    );

    const followed = await crawl(web, store, { recrawl: true, revisitMaxMs: 0, followUnchangedLinks: true });
    expect(followed.handled.find((page) => page.url === web.url('/'))!.change).toBe('unchanged');
    // The unchanged seed's link to /a is offered again (a duplicate now).
    expect(followed.skips.some((skip) => skip.reason === 'duplicate' && skip.url === web.url('/a'))).toBe(true);
  });

  it('leaves fresh pages (max-age) alone and revalidates no-cache ones; never keeps one past revisitMaxMs', async () => {
    const web = await site(
      { '/': links('home', '/fresh', '/no-cache'), '/fresh': links('fresh'), '/no-cache': links('no-cache') },
      {
        headers: {
          '/fresh': { 'cache-control': 'max-age=3600' },
          '/no-cache': { 'cache-control': 'no-cache, max-age=3600' },
        },
      },
    );
    const store = createMemoryFrontierStore();
    await crawl(web, store);
    const second = await crawl(web, store, { recrawl: true });
    expect(paths(second.requests)).toEqual(['/', '/no-cache']);
    const capped = await crawl(web, store, { recrawl: true, revisitMaxMs: 0 });
    expect(paths(capped.requests)).toEqual(['/', '/fresh', '/no-cache']);
  });

  it('revisits nothing sooner than revisitMinMs after a fetch, and nothing at all without recrawl', async () => {
    const web = await site({ '/': links('home', '/a'), '/a': links('a') });
    const store = createMemoryFrontierStore();
    await crawl(web, store);
    expect((await crawl(web, store)).requests).toEqual([]);
    expect((await crawl(web, store, { recrawl: true, revisitMinMs: 60_000 })).requests).toEqual([]);
    // Kept back by the minimum, a URL is due again from then: a crawl a moment later takes it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(paths((await crawl(web, store, { recrawl: true })).requests)).toEqual(['/', '/a']);
  });

  it('passes every revisit through robots.txt as it is now: a newly disallowed page is skipped, kept, and the crawl ends', async () => {
    let robots = 'User-agent: *\nAllow: /\n';
    const web = await site(
      { '/': links('home', '/a', '/b'), '/a': links('a'), '/b': links('b') },
      { robots: () => robots },
    );
    const store = createMemoryFrontierStore();
    await crawl(web, store);
    robots = 'User-agent: *\nDisallow: /a\n';
    // A new crawler has a new gate: robots.txt is fetched again (a store's robots cache would keep it for its TTL).
    const second = await crawl(web, store, { recrawl: true });
    expect(paths(second.requests)).toEqual(['/', '/b']);
    expect(second.skips.filter((skip) => skip.reason === 'robots').map((skip) => skip.url)).toEqual([web.url('/a')]);
    expect(web.server.log.filter((entry) => entry.path === '/robots.txt')).toHaveLength(2);
    // The skipped URL keeps its memory: allowed again, it is revalidated, not fetched as new.
    robots = 'User-agent: *\nAllow: /\n';
    const third = await crawl(web, store, { recrawl: true, revisitMaxMs: 0 });
    expect(third.requests.find((request) => request.path === '/a')?.headers['if-none-match']).toBe('"2-1"');
  });

  it('keeps the requests of a recrawl apart by the host delay', async () => {
    const web = await site(
      Object.fromEntries([
        ['/', links('home', ...Array.from({ length: 6 }, (_, i) => `/p${i}`))],
        ...Array.from({ length: 6 }, (_, i) => [`/p${i}`, links(`p${i}`)]),
      ]),
    );
    const store = createMemoryFrontierStore();
    await crawl(web, store, { minDelayMs: 40 });
    const from = web.server.log.length;
    const second = await crawl(web, store, { recrawl: true, minDelayMs: 40, perHostConcurrency: 2, concurrency: 4 });
    expect(second.requests).toHaveLength(7);
    expect(smallestGapMs(web.server.log.slice(from))).toBeGreaterThanOrEqual(38);
  });

  it('keeps a page its usage preferences withheld from handlers withheld on a 304', async () => {
    const web = await site({
      '/': links('home', '/reserved'),
      '/reserved': '<html><head><meta name="tdm-reservation" content="1"></head><body>mine</body></html>',
    });
    const store = createMemoryFrontierStore();
    const first = await crawl(web, store, { purposes: ['tdm'] });
    expect(first.handled.map((page) => page.url)).toEqual([web.url('/')]);
    const second = await crawl(web, store, { recrawl: true, purposes: ['tdm'] });
    expect(second.requests.find((request) => request.path === '/reserved')?.headers['if-none-match']).toBe('"9-1"');
    expect(second.handled.map((page) => page.url)).toEqual([web.url('/')]);
    expect(second.skips.find((skip) => skip.url === web.url('/reserved'))).toMatchObject({ reason: 'usage-reserved' });
  });

  it('writes a revisited page’s records again (a new fetch), and a resumed recrawl not twice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'politely-recrawl-'));
    dirs.push(dir);
    const out = join(dir, 'pages.jsonl');
    const web = await site({ '/': links('home', '/a'), '/a': links('a') });
    const store = createMemoryFrontierStore();
    const handler = async (page: PageContext) => page.push({ url: page.url, change: page.change });
    await crawl(web, store, { outputs: [{ path: out }], handler });
    await crawl(web, store, { outputs: [{ path: out }], handler, recrawl: true });
    const lines = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; change: string });
    expect(lines.map((line) => line.change)).toEqual(['new', 'new', 'not-modified', 'not-modified']);
  });

  it('refuses revisit bounds that cannot hold', () => {
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, revisitMinMs: 10, revisitMaxMs: 5 }),
      'revisitMaxMs (5) must be at least revisitMinMs (10)',
    );
    expectInvalidOption(() => createCrawler({ userAgent: UA, revisitMinMs: -1 }), 'revisitMinMs');
  });
});
