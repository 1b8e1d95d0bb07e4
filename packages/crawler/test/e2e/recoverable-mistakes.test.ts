// Mistakes a crawler author can recover from, end to end against a loopback shop: a handler that
// throws is retried (its records written once), one that always throws ends as failed, reaches
// onFailed and succeeds under retryFailed once fixed; a crawl whose every seed was refused
// rejects naming the fix, and succeeds on the same store once fixed; a finished store says
// "nothing to do"; `fresh` starts over. Judged by the server's own request log and the outputs.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolitelyError } from '@politely/core';
import type { FailedRequest } from '@politely/crawler';
import {
  type CrawlerOptions,
  createCrawler,
  type RecordEvent,
  SeedsRefusedError,
  type WarningEvent,
} from '@politely/crawler';
import { createMemoryFrontierStore, type FrontierStore } from '@politely/frontier';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';

const UA = 'MistakeBot/1.0 (+http://example.invalid/bot)';
const PRODUCTS = ['anvil', 'bucket', 'chisel'];
const html = (body: string): string => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startServer(
    {
      '/robots.txt': 'User-agent: *\nDisallow: /private\n',
      '/': html(PRODUCTS.map((p) => `<a class="product" href="/p/${p}">${p}</a>`).join('')),
    },
    '127.0.0.1',
    (path) => (path.startsWith('/p/') ? html(`<h1>${path.slice(3)}</h1>`) : undefined),
  );
  dir = mkdtempSync(join(tmpdir(), 'politely-mistakes-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.log.length = 0;
});

const storeOf = (): FrontierStore => createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
const options = (extra: Partial<CrawlerOptions>): CrawlerOptions => ({
  userAgent: UA,
  seeds: [{ url: `${server.base}/`, label: 'HOME' }],
  allowNet: ['127.0.0.0/8'],
  minDelayMs: 0,
  backoffBaseMs: 1,
  backoffMaxMs: 5,
  ...extra,
});
const fetchesOf = (path: string): number => server.log.filter((r) => r.path === path).length;
const linesOf = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('handler errors are retried like failed fetches', () => {
  it('a handler that throws once still yields its record, written once, after the page is fetched again', async () => {
    const output = join(dir, 'once.jsonl');
    const thrown = new Set<string>();
    const records: RecordEvent[] = [];
    const errors: { url: string; willRetry: boolean; stage: string }[] = [];
    const crawler = createCrawler(
      options({
        outputs: [{ path: output }],
        handlers: {
          HOME: (page) => page.enqueueLinks({ selector: 'a.product', label: 'PRODUCT' }),
          PRODUCT: async (page) => {
            const name = page.url.split('/').pop()!;
            await page.push({ name, attempt: thrown.has(name) ? 2 : 1 });
            // A transient failure of the author's own code (a database write, say), once per product.
            if (!thrown.has(name)) {
              thrown.add(name);
              throw new Error(`database busy for ${name}`);
            }
          },
        },
      }),
    );
    crawler.on('record', (record) => records.push(record));
    crawler.on('error', ({ url, willRetry, stage }) => errors.push({ url, willRetry, stage }));
    const stats = await crawler.run();

    expect(linesOf(output).sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(
      PRODUCTS.map((name) => ({ name, attempt: 2 })),
    );
    expect(records.map((r) => r.record)).toHaveLength(PRODUCTS.length);
    expect(errors).toHaveLength(PRODUCTS.length);
    expect(errors.every((e) => e.willRetry && e.stage === 'handler')).toBe(true);
    for (const product of PRODUCTS) expect(fetchesOf(`/p/${product}`)).toBe(2);
    expect(stats.retries).toBe(PRODUCTS.length);
    expect(stats.errors).toBe(0);
    expect((await crawler.store.counts()).failed).toBe(0);
  });

  it('a handler that always throws ends as failed, reaches onFailed, and succeeds under retryFailed once fixed', async () => {
    const store = storeOf();
    const output = join(dir, 'failed.jsonl');
    const failed: FailedRequest[] = [];
    const broken = createCrawler(
      options({
        store,
        maxRetries: 2,
        outputs: [{ path: output }],
        handlers: {
          HOME: (page) => page.enqueueLinks({ selector: 'a.product', label: 'PRODUCT', userData: { shelf: 3 } }),
          PRODUCT: async (page) => {
            await page.push({ name: page.url, partial: true });
            if (page.url.endsWith('/bucket')) throw new TypeError('cannot read properties of undefined (price)');
            await page.push({ name: page.url, partial: false });
          },
        },
        onFailed: async (failure) => {
          failed.push(failure);
          await failure.push({ failedUrl: failure.url, error: failure.error.message });
        },
      }),
    );
    const first = await broken.run();
    expect(fetchesOf('/p/bucket')).toBe(3);
    expect(first.errors).toBe(1);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      url: `${server.base}/p/bucket`,
      stage: 'handler',
      attempts: 3,
      request: { label: 'PRODUCT', userData: { shelf: 3 } },
    });
    expect(failed[0]!.error.message).toContain('price');
    // The failed attempts' records were dropped; onFailed's record was written.
    const written = linesOf(output);
    expect(written.filter((r) => r.name === `${server.base}/p/bucket`)).toEqual([]);
    expect(written.filter((r) => r.failedUrl === `${server.base}/p/bucket`)).toHaveLength(1);
    expect(await store.counts()).toMatchObject({ queued: 0, failed: 1 });
    const failures = await store.failures();
    expect(failures.map((f) => [f.entry.url, f.failure.kind, f.failure.reason, f.failure.attempts])).toEqual([
      [`${server.base}/p/bucket`, 'failed', 'handler', 3],
    ]);

    // Re-run on the same store without retryFailed: nothing to do, and it says so.
    server.log.length = 0;
    const warnings: WarningEvent[] = [];
    const idle = createCrawler(options({ store, handlers: { HOME: () => {}, PRODUCT: () => {} } }));
    idle.on('warning', (warning) => warnings.push(warning));
    const idleStats = await idle.run();
    expect(idleStats.pages).toBe(0);
    expect(server.log).toEqual([]);
    expect(warnings.map((w) => w.message)).toEqual([
      `nothing to do: ${PRODUCTS.length + 1} done, 1 failed (retryFailed to try again)`,
    ]);

    // Fixed, with retryFailed: only the failed product is fetched, and its record is written.
    const fixedRecords: object[] = [];
    const fixed = createCrawler(
      options({
        store,
        retryFailed: true,
        handlers: {
          HOME: () => {},
          PRODUCT: (page) => page.push({ name: page.url, shelf: page.request.userData.shelf }),
        },
      }),
    );
    fixed.on('record', (event) => fixedRecords.push(event.record));
    await fixed.run();
    expect(server.log.map((r) => r.path).filter((p) => p !== '/robots.txt')).toEqual(['/p/bucket']);
    expect(fixedRecords).toEqual([{ name: `${server.base}/p/bucket`, shelf: 3 }]);
    expect(await store.counts()).toMatchObject({ queued: 0, failed: 0 });
    expect(await store.failures()).toEqual([]);
  });
});

describe('a crawl that fetched nothing says why', () => {
  it('without allowNet every loopback seed is refused: run() rejects naming allowNet; fixed, the same store completes', async () => {
    const store = storeOf();
    const refused = createCrawler({ ...options({ store, handler: () => {} }), allowNet: [] });
    const error = await refused.run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SeedsRefusedError);
    expect(error).toMatchObject({ code: 'ERR_SEEDS_REFUSED', name: 'SeedsRefusedError' });
    const seedsRefused = (error as SeedsRefusedError).seeds;
    expect(seedsRefused.map((s) => [s.url, s.reason])).toEqual([[`${server.base}/`, 'blocked-address']]);
    expect((error as Error).message).toContain('allowNet');
    expect(server.log).toEqual([]);
    expect(await store.failures()).toMatchObject([{ failure: { kind: 'refused', reason: 'blocked-address' } }]);
    // Only this error is one: another PolitelyError is not taken for it.
    expect(new PolitelyError('ERR_OUTPUT', 'disk full')).not.toBeInstanceOf(SeedsRefusedError);

    // Fixed (allowNet given), same store, no retryFailed: the seed given again is tried again.
    const handled: string[] = [];
    const warnings: WarningEvent[] = [];
    const fixed = createCrawler(options({ store, handler: (page) => void handled.push(page.url) }));
    fixed.on('warning', (warning) => warnings.push(warning));
    const stats = await fixed.run();
    expect(stats.pages).toBe(PRODUCTS.length + 1);
    expect(handled).toContain(`${server.base}/`);
    expect(warnings.map((w) => w.kind)).toEqual(['requeued-failed']);
    expect(await store.counts()).toMatchObject({ queued: 0, failed: 0, done: PRODUCTS.length + 1 });
  });

  it('a seed without a scheme and a seed robots.txt disallows: rejects naming each, with what to write instead', async () => {
    const crawler = createCrawler(
      options({ seeds: ['shop.example/catalogue', `${server.base}/private/list`], handler: () => {} }),
    );
    const error = (await crawler.run().catch((e: unknown) => e)) as SeedsRefusedError;
    expect(error).toBeInstanceOf(SeedsRefusedError);
    expect(error.seeds.map((s) => s.reason).sort()).toEqual(['invalid-url', 'robots']);
    expect(error.message).toContain('https://shop.example/catalogue');
    expect(error.message).toContain('robots.txt disallows');
    expect(fetchesOf('/private/list')).toBe(0);
  });

  it('a resumed crawl that is simply finished is not an error; one good seed among refused ones is not either', async () => {
    const store = storeOf();
    await createCrawler(options({ store, handler: () => {} })).run();
    await expect(createCrawler(options({ store, handler: () => {} })).run()).resolves.toMatchObject({ pages: 0 });
    const mixed = createCrawler(options({ seeds: ['nope', `${server.base}/p/anvil`], handler: () => {} }));
    await expect(mixed.run()).resolves.toMatchObject({ pages: 1 });
  });
});

describe('fresh starts over on the same store', () => {
  it('forgets every URL (everything is fetched again), and its outputs start afresh (a file needs overwrite)', async () => {
    const store = storeOf();
    const output = join(dir, 'fresh.jsonl');
    const crawl = (extra: Partial<CrawlerOptions>) =>
      createCrawler(
        options({
          store,
          outputs: [{ path: output, ...(extra.fresh ? { overwrite: true } : {}) }],
          handler: (page) => page.push({ url: page.url }),
          ...extra,
        }),
      ).run();
    await crawl({});
    expect(linesOf(output)).toHaveLength(PRODUCTS.length + 1);
    server.log.length = 0;
    await crawl({});
    expect(server.log).toEqual([]);

    // Without overwrite, a fresh crawl refuses to write over the earlier run's file.
    const refused = createCrawler(options({ store, fresh: true, outputs: [{ path: output }], handler: () => {} }));
    await expect(refused.run()).rejects.toMatchObject({ code: 'ERR_OUTPUT' });
    expect(existsSync(output)).toBe(true);
    // The refusal came before the store was emptied: nothing of the earlier crawl is lost.
    expect(await store.counts()).toMatchObject({ done: PRODUCTS.length + 1 });

    server.log.length = 0;
    const stats = await crawl({ fresh: true });
    expect(stats.pages).toBe(PRODUCTS.length + 1);
    expect(fetchesOf('/')).toBe(1);
    for (const product of PRODUCTS) expect(fetchesOf(`/p/${product}`)).toBe(1);
    expect(linesOf(output)).toHaveLength(PRODUCTS.length + 1);
    expect(await store.counts()).toMatchObject({ queued: 0, done: PRODUCTS.length + 1, failed: 0 });
  });
});
