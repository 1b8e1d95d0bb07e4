// Seeds added to a crawl from outside its crawler (`addSeeds`, over a second store object opened
// `shared: true`), on a real crawl file and a fleet of sites on loopback: a running crawler
// widens its scope and follows the new site's links; a bad seed is named and the others added;
// the scope seeds are kept in the file for the next run, and writers racing lose none.

import { addSeeds, createCrawler } from '@politely/crawler';
import { SCOPE_SEEDS_KEY } from '@politely/crawler/internal';
import { createMemoryFrontierStore } from '@politely/frontier';
import { type LocalWeb, startFleet } from '@politely/local-web';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteFrontierStore } from '../src/index.js';
import { createTempDir } from './helpers.js';

const UA = 'SeedsTest/1.0 (+https://example.invalid/bot)';
const temp = createTempDir('add-seeds');
let web: LocalWeb;

beforeAll(async () => {
  web = await startFleet({
    hosts: 2,
    pagesPerHost: 16,
    crawlDelaySeconds: 0.2,
    crossHostLinks: false,
    firstAddress: 240,
  });
});
beforeEach(() => web.resetLogs());
afterAll(async () => {
  await web.close();
  temp.remove();
});

const site = (i: number) => web.hosts[i]!;
const pagesOf = (origin: string): string[] =>
  web
    .requestLog(origin)
    .map((entry) => entry.path)
    .filter((path) => path !== '/robots.txt')
    .sort();

describe('addSeeds', () => {
  it('widens a running crawler’s scope: the new site’s seed and links are fetched, after its robots.txt', async () => {
    const path = temp.file();
    const store = createSqliteFrontierStore({ path });
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`${site(0).origin}/`],
      store,
      allowNet: ['127.0.0.0/8'],
    });
    let adding: Promise<unknown> | undefined;
    crawler.on('response', () => {
      adding ??= (async () => {
        const other = createSqliteFrontierStore({ path, shared: true });
        try {
          return await addSeeds({ store: other, seeds: [`${site(1).origin}/`] });
        } finally {
          await other.close();
        }
      })();
    });
    const stats = await crawler.run();
    await store.close();
    expect(await adding).toEqual({ added: 1, seeds: [`${site(1).origin}/`], scope: [site(0).origin, site(1).origin] });
    expect(stats.aborted).toBe(false);
    expect(pagesOf(site(0).origin)).toEqual([...site(0).expectedAllowedPaths].sort());
    expect(pagesOf(site(1).origin)).toEqual([...site(1).expectedAllowedPaths].sort());
    expect(web.requestLog(site(1).origin)[0]?.path).toBe('/robots.txt');
  }, 30_000);

  it('names an invalid seed and adds the others; the next run on the file keeps their sites in scope', async () => {
    const path = temp.file();
    const store = createSqliteFrontierStore({ path });
    const error = await addSeeds({ store, seeds: ['htp:/nope', `${site(1).origin}/`], settleMs: 0 }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'ERR_INVALID_URL' });
    expect((error as Error).message).toContain('addSeeds: 1 seed not added, not an absolute http(s) URL: "htp:/nope"');
    expect((error as Error).message).toContain('the other was added');
    expect(await store.loadMetadata(SCOPE_SEEDS_KEY)).toEqual([site(1).origin]);
    // A run given only the first site: the added one is queued, and its links are in scope.
    const crawler = createCrawler({ userAgent: UA, seeds: [`${site(0).origin}/`], store, allowNet: ['127.0.0.0/8'] });
    await crawler.run();
    expect(await store.loadMetadata(SCOPE_SEEDS_KEY)).toEqual([site(1).origin, site(0).origin]);
    await store.close();
    expect(pagesOf(site(1).origin)).toEqual([...site(1).expectedAllowedPaths].sort());
  }, 30_000);

  it('a crawler with no seeds of its own, joining the crawl, takes its scope from the file at once', async () => {
    const store = createSqliteFrontierStore({ path: temp.file() });
    await addSeeds({ store, seeds: [`${site(1).origin}/`], settleMs: 0 });
    const crawler = createCrawler({ userAgent: UA, store, allowNet: ['127.0.0.0/8'] });
    await crawler.run();
    await store.close();
    expect(pagesOf(site(1).origin)).toEqual([...site(1).expectedAllowedPaths].sort());
  }, 30_000);

  it('refuses a store without metadata and a politeness key by address', async () => {
    await expect(addSeeds({ store: createMemoryFrontierStore(), seeds: ['https://a.example/'] })).rejects.toMatchObject(
      {
        code: 'ERR_INVALID_OPTION',
        message: expect.stringContaining('addSeeds: the store keeps no metadata'),
      },
    );
    const store = createSqliteFrontierStore({ path: temp.file() });
    await expect(
      addSeeds({ store, seeds: ['https://a.example/'], politenessKey: 'ip' as 'host' }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION', message: expect.stringContaining("'host' or 'domain'") });
    await store.close();
  });

  it('crawler.enqueue records its seeds’ sites in the file', async () => {
    const store = createSqliteFrontierStore({ path: temp.file() });
    const crawler = createCrawler({ userAgent: UA, store, allowNet: ['127.0.0.0/8'], maxPages: 0 });
    await crawler.enqueue([`${site(1).origin}/`, `${site(1).origin}/pages/1`]);
    expect(await store.loadMetadata(SCOPE_SEEDS_KEY)).toEqual([site(1).origin]);
    await store.close();
  });

  it('loses no origin when two processes record theirs at once', async () => {
    const path = temp.file();
    const stores = Array.from({ length: 4 }, () => createSqliteFrontierStore({ path, shared: true }));
    await Promise.all(
      stores.map((store, i) => addSeeds({ store, seeds: [`https://site-${i}.example/`], settleMs: 0 })),
    );
    expect([...((await stores[0]!.loadMetadata<string[]>(SCOPE_SEEDS_KEY)) ?? [])].sort()).toEqual(
      [0, 1, 2, 3].map((i) => `https://site-${i}.example`),
    );
    for (const store of stores) await store.close();
  });
});
