// mergeOutputs over files real crawls wrote: pages in both kept once, records pushed outside a
// handler kept from each, records past the last commit dropped; and every bad input refused with
// a typed error that names it.

import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolitelyError } from '@politely/core';
import { createCrawler, type MergeOutputsOptions, mergeOutputs } from '@politely/crawler';
import { createMemoryFrontierStore } from '@politely/frontier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';

const PAGES = 6;
let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startServer({ '/robots.txt': 'User-agent: *\nAllow: /\n' }, '127.0.0.1', (path) => {
    const n = Number(/^\/p\/(\d+)$/.exec(path)?.[1] ?? -1);
    return n < 0 ? undefined : `<html><body>${n + 1 < PAGES ? `<a href="/p/${n + 1}">next</a>` : ''}</body></html>`;
  });
  dir = mkdtempSync(join(tmpdir(), 'politely-merge-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A whole crawl of the pages into `path` (each page one record, tagged `who`), and one record pushed outside a handler. */
async function crawlInto(path: string, who: string): Promise<void> {
  const crawler = createCrawler({
    userAgent: 'MergeBot/1.0 (+http://example.invalid/bot)',
    seeds: [`${server.base}/p/0`],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    store: createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 2 } }),
    outputs: [{ path }],
    handler: (page) => page.push({ url: page.url, who }),
  });
  await crawler.push({ outside: who });
  await crawler.run();
}

async function rejection(options: MergeOutputsOptions): Promise<PolitelyError> {
  const error = await mergeOutputs(options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PolitelyError);
  return error as PolitelyError;
}

describe('mergeOutputs', () => {
  it('keeps the first input’s records of a page, every outside push, and nothing past a last commit', async () => {
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    await crawlInto(a, 'a');
    await crawlInto(b, 'b');
    // A worker killed mid-page leaves records past its last commit.
    appendFileSync(b, '{"url":"half-written","who":"b"}\n{"url":');
    const output = join(dir, 'merged.jsonl');
    const result = await mergeOutputs({ inputs: [a, b], output });
    const records = readFileSync(output, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { url?: string; who?: string; outside?: string });
    const pages = Array.from({ length: PAGES }, (_, n) => `${server.base}/p/${n}`);
    expect(
      records
        .filter((r) => r.url !== undefined)
        .map((r) => r.url)
        .sort(),
    ).toEqual(pages.sort());
    expect(new Set(records.filter((r) => r.url !== undefined).map((r) => r.who))).toEqual(new Set(['a']));
    expect(records.filter((r) => r.outside !== undefined).map((r) => r.outside)).toEqual(['a', 'b']);
    expect(result).toEqual({
      output,
      format: 'jsonl',
      records: PAGES + 2,
      pages: PAGES,
      duplicateRecords: PAGES,
      duplicatePages: PAGES,
      uncommittedBytes: Buffer.byteLength('{"url":"half-written","who":"b"}\n{"url":'),
    });
  });

  it('refuses bad inputs and options, naming them', async () => {
    const a = join(dir, 'a2.jsonl');
    const csv = join(dir, 'c.csv');
    await crawlInto(a, 'a');
    await crawlInto(csv, 'c');
    const bare = join(dir, 'bare.jsonl');
    writeFileSync(bare, '{"url":"x"}\n');
    const out = join(dir, 'out.jsonl');

    let error = await rejection({ inputs: [a, bare], output: out });
    expect([error.code, error.message]).toEqual([
      'ERR_INVALID_INPUT',
      `mergeOutputs: the ledger of ${bare} (${bare}.ledger) is missing: only a crawl's output with its ledger says whose records are whose`,
    ]);
    error = await rejection({ inputs: [a, csv], output: out });
    expect([error.code, error.message]).toEqual([
      'ERR_INVALID_INPUT',
      `mergeOutputs: ${csv} holds csv, ${a} jsonl: merge files of one format`,
    ]);
    error = await rejection({ inputs: [a], output: a });
    expect([error.code, error.message]).toEqual([
      'ERR_INVALID_OPTION',
      `mergeOutputs: output ${a} is one of the inputs: merge into a new file`,
    ]);
    error = await rejection({ inputs: [a], output: out, overwirte: true } as MergeOutputsOptions);
    expect([error.code, error.message]).toEqual([
      'ERR_INVALID_OPTION',
      'mergeOutputs: unknown option overwirte (did you mean overwrite?)',
    ]);
    error = await rejection({ inputs: [], output: out });
    expect(error.code).toBe('ERR_INVALID_OPTION');
    writeFileSync(out, 'something\n');
    error = await rejection({ inputs: [a], output: out });
    expect([error.code, error.message]).toEqual([
      'ERR_OUTPUT',
      `could not write ${out}: it already holds records: set overwrite: true to replace them, or merge into a new file`,
    ]);
    await expect(mergeOutputs({ inputs: [a], output: out, overwrite: true })).resolves.toMatchObject({ pages: PAGES });
  });
});
