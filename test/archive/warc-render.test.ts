// A rendered crawl that archives: every request the browser's pages made went through the
// crawler, so every one the render web's hosts received — page documents, scripts, the JSON API,
// the third-party host's files, each origin's robots.txt — is in the archive, and nothing else is.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChromiumRenderer } from '@politely/browser';
import { createCrawler } from '@politely/crawler';
import { type RenderWeb, startRenderWeb } from '@politely/demo-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReferences, readWarcFile } from '../support/warc-reader.js';

const UA = 'RenderBot/1.0 (+https://example.test/bot)';
let web: RenderWeb;
let dir: string;

beforeAll(async () => {
  web = await startRenderWeb({ firstAddress: 160 });
  dir = mkdtempSync(join(tmpdir(), 'politely-warc-render-'));
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a rendered crawl with a WARC output', () => {
  it('archives every request the hosts received, sub-requests included', async () => {
    web.resetLogs();
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [web.entryUrl],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 20,
      concurrency: 4,
      render: true,
      renderer: new ChromiumRenderer(),
      outputs: [{ path: join(dir, 'render.warc.gz') }],
      handler: () => {},
    });
    const stats = await crawler.run();
    expect(stats.rendering.subRequests).toBeGreaterThan(0);
    const files = readdirSync(dir).filter((name) => name.endsWith('.warc.gz'));
    const reads = await Promise.all(files.map((name) => readWarcFile(join(dir, name))));
    for (const read of reads) expect(read.problems).toEqual([]);
    expect(checkReferences(reads)).toEqual([]);
    const archived = reads
      .flatMap((read) => read.records)
      .filter((record) => record.type === 'request')
      .map((record) => record.header('WARC-Target-URI'))
      .sort();
    const served = web
      .requestLog()
      .map((entry) => entry.origin + entry.path)
      .sort();
    expect(archived).toEqual(served);
    // Sub-resources on another host than the pages' are among them.
    const pageOrigin = new URL(web.entryUrl).origin;
    expect(served.some((url) => !url.startsWith(pageOrigin) && !url.endsWith('/robots.txt'))).toBe(true);
  }, 120_000);
});
