// Usage preferences honoured in the crawl (`purposes`, `robotsTokens`): what robots.txt lines and
// /.well-known/tdmrep.json reserve is skipped without a request (judged by the server's own log),
// tdmrep.json is fetched once per origin, only when a purpose needs it, and at the host's pace;
// pages reserved by their own headers or meta tags reach no handler and no output.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UsagePurpose } from '@politely/core';
import {
  type CrawlerOptions,
  createCrawler,
  type PageContext,
  type SkipEvent,
  type UsageEvent,
} from '@politely/crawler';
import { afterEach, describe, expect, it } from 'vitest';
import { type Handler, smallestGapMs, startServer, type TestServer } from '../../../../test/support/site-server.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'UsageBot/1.0 (+https://example.com/bot)';
const TDMREP = '/.well-known/tdmrep.json';
const servers: TestServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function serve(routes: Record<string, Handler | string>): Promise<TestServer> {
  const server = await startServer(routes);
  servers.push(server);
  return server;
}

const links = (...paths: string[]): string =>
  `<html><body>${paths.map((p) => `<a href="${p}">${p}</a>`).join('')}</body></html>`;
const json =
  (body: unknown): Handler =>
  (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
const withHeaders =
  (headers: Record<string, string>, body = '<html><body>page</body></html>'): Handler =>
  (_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.end(body);
  };

interface CrawlResult {
  handled: PageContext[];
  skips: SkipEvent[];
  usage: UsageEvent[];
  stats: Awaited<ReturnType<ReturnType<typeof createCrawler>['run']>>;
}

async function crawl(server: TestServer, options: Partial<CrawlerOptions> = {}): Promise<CrawlResult> {
  const handled: PageContext[] = [];
  const skips: SkipEvent[] = [];
  const usage: UsageEvent[] = [];
  const crawler = createCrawler({
    userAgent: UA,
    seeds: [`${server.base}/`],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    maxPages: 50,
    handler: (page) => {
      handled.push(page);
    },
    ...options,
  });
  crawler.on('skip', (event) => skips.push(event));
  crawler.on('usage', (event) => usage.push(event));
  const stats = await crawler.run();
  return { handled, skips, usage, stats };
}

const usageSkips = (skips: readonly SkipEvent[]): SkipEvent[] =>
  skips.filter((skip) => skip.reason === 'usage-reserved');
const pathOf = (url: string): string => new URL(url).pathname;

describe('options', () => {
  it('validates purposes and robotsTokens', () => {
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, purposes: ['ai-training' as UsagePurpose] }),
      'purposes',
      '"ai-training"',
      'ai-train',
    );
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, purposes: 'ai-train' as unknown as UsagePurpose[] }),
      'purposes must be an array',
    );
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, robotsTokens: ['UsageBot/2.0'] }),
      'robotsTokens',
      'UsageBot/2.0',
    );
    expectInvalidOption(() => createCrawler({ userAgent: UA, robotsTokens: [''] }), 'robotsTokens');
    expectInvalidOption(() => createCrawler({ userAgent: UA, tdmrepCacheMs: -1 }), 'tdmrepCacheMs');
    expect(() =>
      createCrawler({
        userAgent: UA,
        purposes: ['ai-train', 'search', 'ai-train'],
        robotsTokens: ['UsageBot-Training'],
      }),
    ).not.toThrow();
  });
});

describe('robots.txt Content-Usage and Content-Signal lines', () => {
  const robots = [
    'User-agent: *', // 1
    'Allow: /', // 2
    'Content-Usage: /train-no/ train-ai=n', // 3
    'Content-Signal: /signal-no/ ai-train=no, search=yes', // 4
    '',
  ].join('\n');
  const routes = (): Record<string, string> => ({
    '/robots.txt': robots,
    '/': links('/open', '/train-no/a', '/signal-no/b'),
    '/open': links(),
    '/train-no/a': links(),
    '/signal-no/b': links(),
  });

  it('with purposes: [ai-train], skips the URLs they reserve without a request; the rest is fetched', async () => {
    const server = await serve(routes());
    const { handled, skips, usage, stats } = await crawl(server, { purposes: ['ai-train'] });
    expect(server.paths()).not.toContain('/train-no/a');
    expect(server.paths()).not.toContain('/signal-no/b');
    expect(server.paths()).toContain('/open');
    expect(handled.map((page) => pathOf(page.url)).sort()).toEqual(['/', '/open']);
    const reserved = usageSkips(skips);
    expect(reserved.map((skip) => pathOf(skip.url)).sort()).toEqual(['/signal-no/b', '/train-no/a']);
    expect(reserved.find((skip) => skip.url.endsWith('/train-no/a'))!.detail).toBe(
      'ai-train reserved by robots.txt line 3: Content-Usage: /train-no/ train-ai=n',
    );
    expect(reserved.find((skip) => skip.url.endsWith('/signal-no/b'))!.detail).toBe(
      'ai-train reserved by robots.txt line 4: Content-Signal: /signal-no/ ai-train=no, search=yes',
    );
    expect(stats.skipped['usage-reserved']).toBe(2);
    // ai-train is within tdm: TDMRep can decide it, so tdmrep.json was asked for once (a 404: no preference).
    expect(server.paths().filter((path) => path === TDMREP)).toHaveLength(1);
    expect(usage.filter((event) => event.stage === 'before-fetch').map((event) => event.reserved)).toEqual([
      ['ai-train'],
      ['ai-train'],
    ]);
  });

  it('with no purposes, fetches everything, asks for no tdmrep.json, and page.usage still reports', async () => {
    const server = await serve(routes());
    const { handled, skips } = await crawl(server);
    expect(server.paths().sort()).toEqual(['/', '/open', '/robots.txt', '/signal-no/b', '/train-no/a']);
    expect(usageSkips(skips)).toEqual([]);
    const trainNo = handled.find((page) => page.url.endsWith('/train-no/a'))!;
    expect(trainNo.usage.purposes['ai-train'].status).toBe('reserved');
    expect(trainNo.usage.purposes['ai-train'].sources[0]).toMatchObject({
      kind: 'robots-content-usage',
      line: 3,
      path: '/train-no/',
    });
    const signalNo = handled.find((page) => page.url.endsWith('/signal-no/b'))!;
    expect(signalNo.usage.purposes['ai-train'].status).toBe('reserved');
    expect(signalNo.usage.purposes.search.status).toBe('allowed');
    const open = handled.find((page) => page.url.endsWith('/open'))!;
    expect(open.usage.purposes['ai-train'].status).toBe('unknown');
  });
});

describe('/.well-known/tdmrep.json', () => {
  const tdmrep = [
    { location: '/tdm-no/*', 'tdm-reservation': 1, 'tdm-policy': 'https://example.com/policy.json' },
    { location: '/*', 'tdm-reservation': 0 },
  ];
  const routes = (paths: number): Record<string, Handler | string> => {
    const open = Array.from({ length: paths }, (_, i) => `/open/${i}`);
    const reserved = Array.from({ length: paths }, (_, i) => `/tdm-no/${i}`);
    const out: Record<string, Handler | string> = {
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      [TDMREP]: json(tdmrep),
      '/': links(...open, ...reserved),
    };
    for (const path of [...open, ...reserved]) out[path] = links();
    return out;
  };

  for (const perHostConcurrency of [1, 2]) {
    it(`skips what it reserves without a request; fetched once, paced like any request (perHostConcurrency ${perHostConcurrency})`, async () => {
      const server = await serve(routes(3));
      const delay = 120;
      const { handled, skips } = await crawl(server, {
        purposes: ['tdm'],
        minDelayMs: delay,
        perHostConcurrency,
        concurrency: 4,
      });
      expect(server.paths().filter((path) => path.startsWith('/tdm-no/'))).toEqual([]);
      expect(server.paths().filter((path) => path === TDMREP)).toHaveLength(1);
      expect(handled.map((page) => pathOf(page.url)).sort()).toEqual(['/', '/open/0', '/open/1', '/open/2']);
      const reserved = usageSkips(skips);
      expect(reserved).toHaveLength(3);
      expect(reserved[0]!.detail).toBe(`tdm reserved by ${TDMREP} entry 0: ${JSON.stringify(tdmrep[0])}`);
      // The server saw robots.txt, tdmrep.json and the pages, never two closer than the host's delay.
      expect(server.log).toHaveLength(6);
      expect(smallestGapMs(server.log)).toBeGreaterThanOrEqual(delay - 1);
    });
  }

  it('is not fetched with no purposes, nor for purposes TDMRep cannot decide', async () => {
    for (const purposes of [[], ['search']] as UsagePurpose[][]) {
      const server = await serve(routes(1));
      const { handled, skips } = await crawl(server, { purposes });
      expect(server.paths()).not.toContain(TDMREP);
      expect(server.paths()).toContain('/tdm-no/0');
      expect(usageSkips(skips)).toEqual([]);
      // Without the file, page.usage knows nothing of it.
      expect(handled.find((page) => page.url.endsWith('/tdm-no/0'))!.usage.purposes.tdm.status).toBe('unknown');
    }
  });

  it('is not fetched when robots.txt disallows it; a broken file states nothing', async () => {
    const disallowed = await serve({ ...routes(1), '/robots.txt': 'User-agent: *\nDisallow: /.well-known/\n' });
    const first = await crawl(disallowed, { purposes: ['ai-train'] });
    expect(disallowed.paths()).not.toContain(TDMREP);
    expect(disallowed.paths()).toContain('/tdm-no/0');
    expect(usageSkips(first.skips)).toEqual([]);

    const broken = await serve({ ...routes(1), [TDMREP]: '[{"location": "/tdm-no/*", "tdm-reservation": 1' });
    const second = await crawl(broken, { purposes: ['ai-train'] });
    expect(broken.paths().filter((path) => path === TDMREP)).toHaveLength(1);
    expect(broken.paths()).toContain('/tdm-no/0');
    expect(usageSkips(second.skips)).toEqual([]);
  });

  it('with the file fetched, a page it allows reports the rule in page.usage', async () => {
    const server = await serve(routes(1));
    const { handled } = await crawl(server, { purposes: ['ai-train'] });
    const open = handled.find((page) => page.url.endsWith('/open/0'))!;
    expect(open.usage.purposes.tdm).toMatchObject({ status: 'allowed', sources: [{ kind: 'tdmrep-json', entry: 1 }] });
  });
});

describe('pages reserved by their own headers and meta tags', () => {
  const reservedPaths = ['/h-content-usage', '/h-tdm', '/m-tdm', '/m-noai'];
  const routes = (): Record<string, Handler | string> => ({
    '/robots.txt': 'User-agent: *\nAllow: /\n',
    '/': links('/plain', ...reservedPaths),
    '/plain': links(),
    '/h-content-usage': withHeaders({ 'content-usage': 'train-ai=n' }),
    '/h-tdm': withHeaders({ 'tdm-reservation': '1' }),
    '/m-tdm': '<html><head><meta name="tdm-reservation" content="1"></head><body>x</body></html>',
    // Its links are still followed: a reservation is about the content, not discovery.
    '/m-noai': '<html><head><meta name="robots" content="noai"></head><body><a href="/behind">behind</a></body></html>',
    '/behind': links(),
  });

  it('are given to no handler and no output, and reported usage-reserved with the source', async () => {
    const server = await serve(routes());
    const dir = await mkdtemp(join(tmpdir(), 'politely-usage-'));
    dirs.push(dir);
    const out = join(dir, 'pages.jsonl');
    const handled: PageContext[] = [];
    const { skips, usage, stats } = await crawl(server, {
      purposes: ['ai-train'],
      outputs: [{ path: out, format: 'jsonl' }],
      handler: async (page) => {
        handled.push(page);
        await page.push({ url: page.url });
      },
    });
    // Fetched (only the page itself could say), but dropped.
    for (const path of reservedPaths) expect(server.paths()).toContain(path);
    expect(server.paths()).toContain('/behind');
    expect(handled.map((page) => pathOf(page.url)).sort()).toEqual(['/', '/behind', '/plain']);
    const written = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => pathOf((JSON.parse(line) as { url: string }).url));
    expect(written.sort()).toEqual(['/', '/behind', '/plain']);
    const details = Object.fromEntries(usageSkips(skips).map((skip) => [pathOf(skip.url), skip.detail]));
    expect(details).toEqual({
      '/h-content-usage': 'ai-train reserved by header Content-Usage: train-ai=n',
      '/h-tdm': 'ai-train reserved by header tdm-reservation: 1',
      '/m-tdm': 'ai-train reserved by meta <meta name="tdm-reservation" content="1">',
      '/m-noai': 'ai-train reserved by meta <meta name="robots" content="noai">',
    });
    expect(stats.skipped['usage-reserved']).toBe(4);
    const after = usage.filter((event) => event.stage === 'after-fetch');
    expect(
      after
        .filter((event) => event.reserved.length > 0)
        .map((event) => pathOf(event.url))
        .sort(),
    ).toEqual([...reservedPaths].sort());
  });

  it('with no purposes, every page reaches the handler and page.usage says what each reserves', async () => {
    const server = await serve(routes());
    const { handled, skips } = await crawl(server);
    expect(usageSkips(skips)).toEqual([]);
    const byPath = new Map(handled.map((page) => [pathOf(page.url), page]));
    expect(byPath.get('/h-content-usage')!.usage.purposes['ai-train'].sources[0]).toMatchObject({
      kind: 'header-content-usage',
    });
    expect(byPath.get('/h-tdm')!.usage.purposes.tdm.status).toBe('reserved');
    expect(byPath.get('/m-tdm')!.usage.purposes['ai-train'].sources[0]).toMatchObject({ kind: 'tdm-meta' });
    expect(byPath.get('/m-noai')!.usage.purposes['ai-input'].status).toBe('reserved');
    expect(byPath.get('/plain')!.usage.purposes['ai-train'].status).toBe('unknown');
  });
});

describe('robotsTokens', () => {
  const robots = [
    'User-agent: UsageBot',
    'Allow: /',
    '',
    'User-agent: UsageBot-Training',
    'Disallow: /secret',
    '',
  ].join('\n');
  const routes = (): Record<string, string> => ({
    '/robots.txt': robots,
    '/': links('/secret', '/public'),
    '/secret': links(),
    '/public': links(),
  });

  it("a disallow in the second token's group blocks the URL, and the skip says which token decided", async () => {
    const server = await serve(routes());
    const { skips } = await crawl(server, { robotsTokens: ['UsageBot-Training'] });
    expect(server.paths()).not.toContain('/secret');
    expect(server.paths()).toContain('/public');
    const skip = skips.find((event) => event.reason === 'robots')!;
    expect(skip.url).toBe(`${server.base}/secret`);
    expect(skip.detail).toBe('line 5: Disallow: /secret (for UsageBot-Training)');
  });

  it("with the user agent's token alone, the other group does not apply", async () => {
    const server = await serve(routes());
    await crawl(server);
    expect(server.paths()).toContain('/secret');
  });

  it("the second token's Content-Usage lines count too", async () => {
    const server = await serve({
      ...routes(),
      '/robots.txt': [
        'User-agent: UsageBot',
        'Allow: /',
        '',
        'User-agent: UsageBot-Training',
        'Allow: /',
        'Content-Usage: /public train-ai=n',
        '',
      ].join('\n'),
    });
    const { skips } = await crawl(server, { robotsTokens: ['UsageBot-Training'], purposes: ['ai-train'] });
    expect(server.paths()).not.toContain('/public');
    expect(usageSkips(skips).find((skip) => skip.url.endsWith('/public'))!.detail).toBe(
      'ai-train reserved by robots.txt line 6 (UsageBot-Training): Content-Usage: /public train-ai=n',
    );
  });
});
