// Datasets end to end: records pushed by handlers and from outside reach JSON lines and CSV
// files on disk, the `record` event, failures that stop the crawl, resume rules, bad options.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolitelyError } from '@politely/core';
import { type CrawlerOptions, createCrawler, type OutputOptions, type RecordEvent } from '@politely/crawler';
import { createMemoryFrontierStore, type FrontierStore } from '@politely/frontier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';
import { parseCsvRecord } from '../../src/dataset/record-text.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

// 12 pages: /p/N links to /p/N+1 and /p/N+2.
const PAGES = 12;
const page = (n: number): string =>
  `<html><head><title>Page ${n}</title></head><body>${[1, 2]
    .map((i) => n + i)
    .filter((m) => m < PAGES)
    .map((m) => `<a href="/p/${m}">${m}</a>`)
    .join('')}</body></html>`;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startServer({ '/robots.txt': 'User-agent: *\nAllow: /\n' }, '127.0.0.1', (path) => {
    const match = /^\/p\/(\d+)$/.exec(path);
    return match === null ? undefined : page(Number(match[1]));
  });
  dir = mkdtempSync(join(tmpdir(), 'politely-dataset-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const UA = 'DatasetBot/1.0 (+http://example.invalid/bot)';
const allPages = (): string[] => Array.from({ length: PAGES }, (_, n) => `${server.base}/p/${n}`);
const fresh = (): FrontierStore => createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 4 } });
const base = (extra: Partial<CrawlerOptions>): CrawlerOptions => ({
  userAgent: UA,
  seeds: [`${server.base}/p/0`],
  allowNet: ['127.0.0.0/8'],
  minDelayMs: 0,
  perHostConcurrency: 4,
  ...extra,
});
const jsonLines = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
/** CSV rows (RFC 4180: line breaks inside quotes kept). */
function csvRows(path: string): string[][] {
  const text = readFileSync(path, 'utf8');
  const rows: string[][] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === '\n' && !quoted) {
      rows.push(parseCsvRecord(text.slice(start, i).replace(/\r$/, '')));
      start = i + 1;
    }
  }
  return rows;
}
const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('page.push and outputs', () => {
  it('a handler that pushes and then waits holds up no other page: a page’s few records are kept with it until its handler ends', async () => {
    const out = join(dir, 'waiting.jsonl');
    let othersCommitted!: () => void;
    const othersDone = new Promise<void>((resolve) => (othersCommitted = resolve));
    const crawler = createCrawler(
      base({
        maxPages: 4,
        outputs: [{ path: out }],
        handler: async (page) => {
          await page.push({ url: page.finalUrl });
          // /p/0 waits, after its push, until two other pages' records are written.
          if (page.finalUrl.endsWith('/p/0')) {
            await page.enqueue([`${server.base}/p/5`, `${server.base}/p/6`]);
            const waited = await Promise.race([
              othersDone.then(() => 'others committed'),
              new Promise((resolve) => setTimeout(resolve, 10_000, 'timed out')),
            ]);
            expect(waited).toBe('others committed');
          }
        },
      }),
    );
    let committed = 0;
    crawler.on('record', ({ url }) => {
      if (url !== undefined && !url.endsWith('/p/0') && ++committed === 2) othersCommitted();
    });
    const stats = await crawler.run();
    expect(stats.errors).toBe(0);
    expect(
      jsonLines(out)
        .map((r) => String(r.url).replace(server.base, ''))
        .slice(0, 2),
    ).not.toContain('/p/0');
    expect(jsonLines(out).map((r) => String(r.url).replace(server.base, ''))).toContain('/p/0');
  });

  it('writes every record to JSON lines and CSV (columns from the first record, RFC 4180 quoting), and emits a record event for each', async () => {
    const jsonl = join(dir, 'records.jsonl');
    const csv = join(dir, 'records.csv');
    const events: RecordEvent[] = [];
    const crawler = createCrawler(
      base({
        outputs: [{ path: jsonl }, { path: csv }],
        handler: async (page) => {
          const n = Number(page.finalUrl.split('/').pop());
          await page.push({
            page: n,
            title: page.$('title').text(),
            note: `a "quoted", comma\nand a line break`,
            tags: ['x', n],
          });
          await page.push([
            { page: n, part: 2 },
            { page: n, part: 3, extra: true },
          ]);
        },
      }),
    );
    crawler.on('record', (event) => events.push(event));
    const stats = await crawler.run();
    expect(stats.pages).toBe(PAGES);

    const lines = jsonLines(jsonl);
    expect(lines).toHaveLength(PAGES * 3);
    for (let n = 0; n < PAGES; n++) {
      const own = lines.filter((line) => line.page === n);
      expect(own).toEqual([
        { page: n, title: `Page ${n}`, note: 'a "quoted", comma\nand a line break', tags: ['x', n] },
        { page: n, part: 2 },
        { page: n, part: 3, extra: true },
      ]);
    }
    const rows = csvRows(csv);
    expect(rows[0]).toEqual(['page', 'title', 'note', 'tags']);
    expect(rows).toHaveLength(1 + PAGES * 3);
    const first = rows.find((row) => row[0] === '3' && row[1] === 'Page 3');
    expect(first).toEqual(['3', 'Page 3', 'a "quoted", comma\nand a line break', '["x",3]']);
    expect(rows.filter((row) => row[0] === '3' && row[1] === '')).toEqual([
      ['3', '', '', ''],
      ['3', '', '', ''],
    ]);

    expect(events).toHaveLength(PAGES * 3);
    expect(new Set(events.map((event) => event.url))).toEqual(new Set(allPages()));
    expect(
      events.find((event) => (event.record as { part?: number }).part === 3 && event.url === `${server.base}/p/5`)
        ?.record,
    ).toEqual({ page: 5, part: 3, extra: true });
    expect(crawler.outputs()).toEqual([
      { path: jsonl, format: 'jsonl', records: PAGES * 3, earlier: 0, cutBytes: 0 },
      { path: csv, format: 'csv', records: PAGES * 3, earlier: 0, cutBytes: 0 },
    ]);
  });

  it('with no outputs, pushed records still reach the record event; a record that is not a plain object is an error event', async () => {
    const events: RecordEvent[] = [];
    const errors: string[] = [];
    const crawler = createCrawler(
      base({
        maxPages: 4,
        maxRetries: 0,
        handler: async (page) => {
          await page.push({ url: page.finalUrl });
          if (page.finalUrl.endsWith('/p/0')) await page.push('not a record' as unknown as object);
        },
      }),
    );
    crawler.on('record', (event) => events.push(event));
    crawler.on('error', (event) => errors.push(`${event.stage}: ${(event.error as PolitelyError).code}`));
    await crawler.run();
    // /p/0's handler failed: the record it pushed before the bad one is dropped with its attempt.
    expect(events).toHaveLength(3);
    for (const event of events) expect(event.record).toEqual({ url: event.url });
    expect(events.map((event) => event.url)).not.toContain(`${server.base}/p/0`);
    expect(errors).toEqual(['handler: ERR_INVALID_INPUT']);
  });

  it('crawler.push works outside a handler (before and during run), inside one as the page’s, and rejects once run() has ended', async () => {
    const out = join(dir, 'outside.jsonl');
    let crawlerRef: ReturnType<typeof createCrawler> | undefined;
    const duringRun: Promise<void>[] = [];
    const crawler = createCrawler(
      base({
        maxPages: 5,
        outputs: [{ path: out, overwrite: true }],
        // crawler.push from the handler's own async context: the page's push, no deadlock on the tail.
        handler: async (page) => {
          await page.push({ from: 'page', url: page.finalUrl });
          await crawlerRef!.push({ from: 'inside', url: page.finalUrl });
        },
      }),
    );
    crawlerRef = crawler;
    const events: RecordEvent[] = [];
    crawler.on('record', (event) => events.push(event));
    crawler.on('response', (event) => duringRun.push(crawler.push({ from: 'listener', url: event.url })));
    await crawler.push({ from: 'before' });
    const stats = await crawler.run();
    await Promise.all(duringRun);
    expect(stats.pages).toBe(5);
    const lines = jsonLines(out);
    expect(lines[0]).toEqual({ from: 'before' });
    expect(lines.filter((line) => line.from === 'page')).toHaveLength(5);
    expect(lines.filter((line) => line.from === 'inside')).toHaveLength(5);
    expect(lines.filter((line) => line.from === 'listener')).toHaveLength(5);
    // Records pushed inside a handler carry its page's URL; those from outside none.
    expect(
      events
        .filter((event) => (event.record as { from: string }).from === 'inside')
        .every((event) => event.url === (event.record as { url: string }).url),
    ).toBe(true);
    expect(
      events
        .filter((event) => ['before', 'listener'].includes((event.record as { from: string }).from))
        .every((event) => event.url === undefined),
    ).toBe(true);
    const late = (await failureOf(crawler.push({ from: 'after' }))) as PolitelyError;
    expect(late.code).toBe('ERR_INVALID_INPUT');
    expect(late.message).toMatch(/the crawl has ended/);
  });

  it('a page handed back by a fatal error leaves none of its records in the outputs', async () => {
    const out = join(dir, 'handed-back.jsonl');
    const store = fresh();
    const crawler = createCrawler(
      base({
        store,
        perHostConcurrency: 1,
        outputs: [{ path: out }],
        handler: async (page) => {
          await page.push({ url: page.finalUrl, part: 1 });
          if (page.finalUrl.endsWith('/p/3')) throw new PolitelyError('ERR_OUTPUT', 'the handler’s own output failed');
          await page.push({ url: page.finalUrl, part: 2 });
        },
      }),
    );
    const failure = (await failureOf(crawler.run())) as PolitelyError;
    expect(failure.code).toBe('ERR_OUTPUT');
    const lines = jsonLines(out);
    expect(lines.some((line) => line.url === `${server.base}/p/3`)).toBe(false);
    // Every page written is whole (both parts); the failed page is not done.
    const done = new Set(lines.map((line) => line.url as string));
    for (const url of done) expect(lines.filter((line) => line.url === url)).toHaveLength(2);
    expect((await store.counts()).done).toBe(done.size);
  });
});

describe('a write that fails', () => {
  it('a file that takes no bytes (/dev/full): the page’s records fail when written, ERR_OUTPUT stops the crawl, no URL is done', async () => {
    const store = fresh();
    const seen: unknown[] = [];
    const crawler = createCrawler(
      base({
        store,
        outputs: [{ path: '/dev/full' }],
        handler: async (page) => {
          await page.push({ url: page.finalUrl }).catch((error: unknown) => {
            seen.push(error);
            throw error;
          });
        },
      }),
    );
    const started = Date.now();
    const failure = (await failureOf(crawler.run())) as PolitelyError;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(failure).toBeInstanceOf(PolitelyError);
    expect(failure.code).toBe('ERR_OUTPUT');
    expect(failure.message).toContain('could not write /dev/full: ENOSPC');
    // A small push is kept with its page and written when the handler ends: it was accepted.
    expect(seen).toEqual([]);
    const counts = await store.counts();
    expect(counts.done).toBe(0);
    expect(counts.inFlight).toBe(0);
    expect(counts.queued).toBeGreaterThan(0);
  });

  it('an output whose folder is removed mid-crawl: ERR_OUTPUT naming it, the page not marked done, what was committed kept', async () => {
    const folder = join(dir, 'doomed');
    mkdirSync(folder);
    const out = join(folder, 'out.jsonl');
    const store = fresh();
    const pushedOk: string[] = [];
    const crawler = createCrawler(
      base({
        store,
        perHostConcurrency: 1,
        outputs: [{ path: out }],
        handler: async (page) => {
          // The folder goes while the fourth page's handler runs: its records, written when the
          // handler ends, fail, and the page does not count as done.
          if (pushedOk.length === 3) rmSync(folder, { recursive: true, force: true });
          await page.push({ url: page.finalUrl }).then(
            () => pushedOk.push(page.finalUrl),
            () => {},
          );
        },
      }),
    );
    const failure = (await failureOf(crawler.run())) as PolitelyError;
    expect(failure.code).toBe('ERR_OUTPUT');
    expect(failure.message).toContain(`could not write ${out}: the file was deleted (or its folder removed)`);
    expect(pushedOk).toHaveLength(4);
    expect((await store.counts()).done).toBe(3);
    // The page whose push failed went back to the queue.
    expect((await store.counts()).queued).toBeGreaterThan(0);
  });

  it('a page whose records outgrow its buffer has its push rejected with ERR_OUTPUT when the write fails', async () => {
    const store = fresh();
    const seen: unknown[] = [];
    const crawler = createCrawler(
      base({
        store,
        outputs: [{ path: '/dev/full' }],
        handler: async (page) => {
          const big = Array.from({ length: 300 }, (_, i) => ({ url: page.finalUrl, i, text: 'x'.repeat(1024) }));
          await page.push(big).catch((error: unknown) => void seen.push(error));
        },
      }),
    );
    const failure = (await failureOf(crawler.run())) as PolitelyError;
    expect(failure.code).toBe('ERR_OUTPUT');
    expect((seen[0] as PolitelyError).code).toBe('ERR_OUTPUT');
    expect((await store.counts()).done).toBe(0);
  });

  it('crawler.push outside a handler rejects with ERR_OUTPUT and stops the crawl', async () => {
    const crawler = createCrawler(base({ outputs: [{ path: '/dev/full' }], handler: () => {} }));
    const pushed = failureOf(crawler.push({ a: 1 }));
    const failure = (await failureOf(crawler.run())) as PolitelyError;
    expect(((await pushed) as PolitelyError).code).toBe('ERR_OUTPUT');
    expect(failure.code).toBe('ERR_OUTPUT');
    expect(crawler.stats().pages).toBe(0);
  });
});

describe('existing files, resume', () => {
  it('a fresh crawl refuses a file that holds records unless overwrite; a resumed crawl appends and writes no page twice', async () => {
    const out = join(dir, 'resume.jsonl');
    writeFileSync(out, '{"old":true}\n');
    const refused = (await failureOf(
      createCrawler(base({ outputs: [{ path: out }], handler: () => {} })).run(),
    )) as PolitelyError;
    expect(refused.code).toBe('ERR_OUTPUT');
    expect(refused.message).toMatch(/already holds records .*overwrite: true/);
    expect(readFileSync(out, 'utf8')).toBe('{"old":true}\n');

    const store = fresh();
    const handler: CrawlerOptions['handler'] = async (page) => page.push({ url: page.finalUrl });
    const first = createCrawler(base({ store, maxPages: 5, outputs: [{ path: out, overwrite: true }], handler }));
    await first.run();
    expect(jsonLines(out)).toHaveLength(5);
    expect(readFileSync(`${out}.ledger`, 'utf8').split('\n')[0]).toBe(
      '{"politely":"dataset-ledger","version":1,"format":"jsonl"}',
    );
    // Half a record, as a kill mid-write leaves it.
    writeFileSync(out, `${readFileSync(out, 'utf8')}{"url":"http://half`);
    const second = createCrawler(base({ store, outputs: [{ path: out }], handler }));
    await second.run();
    const urls = jsonLines(out).map((line) => line.url);
    expect(urls).toHaveLength(PAGES);
    expect(new Set(urls)).toEqual(new Set(allPages()));
    expect(second.outputs()[0]).toMatchObject({
      records: PAGES - 5,
      earlier: 5,
      cutBytes: '{"url":"http://half'.length,
    });
  });

  it('pages in the ledger are not written again when fetched again (committed, but not done when the process died)', async () => {
    const out = join(dir, 'ledger.csv');
    const store = fresh();
    const handler: CrawlerOptions['handler'] = async (page) => page.push({ url: page.finalUrl, n: 1 });
    await createCrawler(base({ store, maxPages: 4, outputs: [{ path: out }], handler })).run();
    // A store that holds the crawl (its seed queued) but not the four pages as done: as if they
    // were committed and the process died before the store heard. The ledger knows them.
    const again = fresh();
    await again.add([{ url: `${server.base}/p/0`, hostKey: '127.0.0.1', depth: 0, priority: 0 }]);
    const resumed = createCrawler(base({ store: again, outputs: [{ path: out }], handler }));
    await resumed.run();
    const rows = csvRows(out);
    expect(rows[0]).toEqual(['url', 'n']);
    const urls = rows.slice(1).map((row) => row[0]);
    expect(urls).toHaveLength(PAGES);
    expect(new Set(urls)).toEqual(new Set(allPages()));
  });
});

describe('CSV columns given as fields', () => {
  it('the header is written at once (an empty table if nothing is pushed); resuming with other fields is refused', async () => {
    const out = join(dir, 'fields.csv');
    const store = fresh();
    await createCrawler(
      base({ store, maxPages: 0, outputs: [{ path: out, fields: ['name', 'price'] }], handler: () => {} }),
    ).run();
    expect(readFileSync(out, 'utf8')).toBe('name,price\r\n');
    await store.add([{ url: `${server.base}/p/0`, hostKey: '127.0.0.1', depth: 0, priority: 0 }]);
    const other = (await failureOf(
      createCrawler(base({ store, outputs: [{ path: out, fields: ['name', 'cost'] }], handler: () => {} })).run(),
    )) as PolitelyError;
    expect(other.code).toBe('ERR_OUTPUT');
    expect(other.message).toContain('its header row (name,price) is not the fields given (name,cost)');
    const same = createCrawler(
      base({
        store,
        maxPages: 2,
        outputs: [{ path: out, fields: ['name', 'price'] }],
        handler: (page) => page.push({ price: 2, name: page.finalUrl, other: 'x' }),
      }),
    );
    await same.run();
    const rows = csvRows(out);
    expect(rows[0]).toEqual(['name', 'price']);
    expect(rows.slice(1)).toEqual([
      [expect.stringContaining('/p/'), '2'],
      [expect.stringContaining('/p/'), '2'],
    ]);
  });
});

describe('outputs options', () => {
  it('are validated with errors that name the output', () => {
    const build = (outputs: unknown) => () =>
      createCrawler({ userAgent: UA, outputs: outputs as readonly OutputOptions[] });
    expectInvalidOption(build('out.jsonl'), 'outputs must be an array');
    expectInvalidOption(build([null]), 'outputs[0] must be an object');
    expectInvalidOption(build([{ path: '' }]), 'outputs[0].path must be a file name');
    expectInvalidOption(
      build([{ path: 'a.jsonl' }, { path: 'b.xml', format: 'xml' }]),
      "outputs[1] (\"b.xml\"): format must be 'jsonl', 'csv' or 'warc', got \"xml\"",
    );
    expectInvalidOption(build([{ path: 'a.jsonl', fields: ['a'] }]), 'outputs[0] ("a.jsonl"): fields are for CSV');
    expectInvalidOption(
      build([{ path: 'a.csv', fields: [] }]),
      'outputs[0] ("a.csv"): fields must be a non-empty array',
    );
    expectInvalidOption(build([{ path: 'a.csv', fields: ['x', 'x'] }]), 'the column "x" twice');
    expectInvalidOption(build([{ path: 'a.csv', overwrite: 'yes' }]), 'outputs[0].overwrite must be true or false');
    expectInvalidOption(
      build([{ path: 'a.csv' }, { path: './a.csv' }]),
      'outputs[1] ("./a.csv"): the same file as outputs[0]',
    );
    // A WARC archive's own options.
    expectInvalidOption(build([{ path: 'a.warc.gz', fields: ['a'] }]), 'outputs[0] ("a.warc.gz"): fields are for CSV');
    expectInvalidOption(
      build([{ path: 'a.warc', maxFileBytes: 10 }]),
      'outputs[0] ("a.warc"): maxFileBytes must be a whole number of bytes, at least 65536, got 10',
    );
    expectInvalidOption(
      build([{ path: 'a.jsonl', cdx: true }]),
      'outputs[0] ("a.jsonl"): maxFileBytes and cdx are for a WARC archive',
    );
    expectInvalidOption(
      build([{ path: 'a.warc' }, { path: 'b.warc.gz' }]),
      'outputs[1] ("b.warc.gz"): a crawl has one WARC archive; outputs[0] is one already',
    );
    expectInvalidOption(
      build([{ path: 'a.txt', format: 'warc' }]),
      'outputs[0] ("a.txt"): a WARC archive\'s path ends in .warc or .warc.gz',
    );
    expectInvalidOption(
      build([{ path: 'a.warc', cdx: 5 }]),
      'outputs[0] ("a.warc"): cdx must be true, false or a file name, got 5',
    );
    expectInvalidOption(build([{ path: 'a.warc', overwrite: 'yes' }]), 'outputs[0].overwrite must be true or false');
  });
});
