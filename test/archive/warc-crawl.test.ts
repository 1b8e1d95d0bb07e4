// Crawls that archive (`outputs: [{ path: '….warc.gz' }]`), judged against a loopback server that
// logs every request it received and every body byte it sent: every request the server answered
// is in the archive — robots.txt, pages, a redirect, a 404, retried 500s, a body over the cap —
// with its payload exactly as sent and its request exactly as received; digests check (the strict
// reader and warcio); a recrawl writes revisit records; a crawl killed with SIGKILL again and
// again and resumed leaves files that read end to end with nothing written twice.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { PolitelyError } from '@politely/core';
import { type CrawlerOptions, createCrawler } from '@politely/crawler';
import { createMemoryFrontierStore } from '@politely/frontier';
import { createSqliteFrontierStore } from '@politely/store-sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  checkReferences,
  readWarcFile,
  readWithWarcio,
  type WarcFileRead,
  type WarcRecordRead,
} from '../support/warc-reader.js';
import { startWorker, waitFor } from '../support/worker-process.js';

const UA = 'ArchiveBot/1.0 (+https://example.test/bot)';

/** One request as the server saw it, and the body it sent back. */
interface Exchange {
  readonly path: string;
  /** The header fields as received, in order. */
  readonly headers: readonly string[];
  readonly status: number;
  /** The body bytes the server wrote (before any transfer coding). */
  sent: Buffer;
}

interface Reply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** Written one `write` each: without a Content-Length, node sends them as chunks. */
  readonly chunks: readonly (string | Buffer)[];
}

const html = (body: string): string => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
const links = (...paths: string[]): string => paths.map((path) => `<a href="${path}">${path}</a>`).join(' ');
const BIG = Buffer.alloc(200 * 1024, 'b');

function reply(path: string, req: IncomingMessage): Reply | undefined {
  switch (path) {
    case '/robots.txt':
      return { headers: { 'content-type': 'text/plain' }, chunks: ['User-agent: *\nDisallow: /private\n'] };
    case '/':
      return {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        chunks: [html(links('/a', '/gz', '/chunked', '/redirect', '/missing', '/big', '/private', '/err'))],
      };
    case '/a':
      if (req.headers['if-none-match'] === '"a1"') return { status: 304, headers: { etag: '"a1"' }, chunks: [] };
      return {
        headers: { 'content-type': 'text/html', etag: '"a1"', 'X-Dup': '1', 'Set-Cookie': 'k=v' },
        chunks: [html('page a')],
      };
    case '/gz':
      return {
        headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
        chunks: [gzipSync(html(`gzipped ${'text '.repeat(200)}`))],
      };
    case '/chunked':
      return {
        headers: { 'content-type': 'text/html' },
        chunks: ['<!doctype html><html><body>', 'second chunk ', 'third chunk</body></html>'],
      };
    case '/redirect':
      return { status: 301, headers: { location: '/a2' }, chunks: ['moved'] };
    case '/a2':
      return { headers: { 'content-type': 'text/html' }, chunks: [html('redirect target')] };
    case '/missing':
      return { status: 404, headers: { 'content-type': 'text/plain' }, chunks: ['not here'] };
    case '/err':
      return { status: 500, headers: { 'content-type': 'text/plain' }, chunks: ['broken'] };
    case '/big':
      return { headers: { 'content-type': 'text/html', 'content-length': String(BIG.length) }, chunks: [BIG] };
    default:
      return undefined;
  }
}

let server: Server;
let base: string;
const log: Exchange[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const answer = reply(path, req) ?? { status: 404, chunks: ['no such page'] };
    const entry: Exchange = { path, headers: req.rawHeaders, status: answer.status ?? 200, sent: Buffer.alloc(0) };
    log.push(entry);
    res.writeHead(entry.status, answer.headers);
    const chunks = answer.chunks.map((chunk) => Buffer.from(chunk));
    entry.sent = Buffer.concat(chunks);
    for (const chunk of chunks) res.write(chunk);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let dir: string;
afterEach(() => {
  log.length = 0;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function crawlOptions(extra: Partial<CrawlerOptions> = {}): CrawlerOptions {
  return {
    userAgent: UA,
    seeds: [`${base}/`],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    maxBodyBytes: 64 * 1024,
    maxRetries: 1,
    backoffBaseMs: 1,
    backoffMaxMs: 5,
    outputs: [{ path: join(dir, 'crawl.warc.gz'), cdx: true }],
    handler: () => {},
    ...extra,
  };
}

function warcFiles(): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.warc.gz'))
    .sort()
    .map((name) => join(dir, name));
}

async function readArchive(): Promise<WarcFileRead[]> {
  const reads = await Promise.all(warcFiles().map((file) => readWarcFile(file)));
  for (const read of reads) expect(read.problems).toEqual([]);
  expect(checkReferences(reads)).toEqual([]);
  return reads;
}

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The request line of a request record. */
const requestLine = (record: WarcRecordRead): string => record.block.toString('latin1').split('\r\n', 1)[0]!;

/** The header fields of an HTTP head block, as [name, value] in order. */
function headFields(block: Buffer): string[][] {
  const head = block.toString('latin1').split('\r\n\r\n', 1)[0]!;
  return head
    .split('\r\n')
    .slice(1)
    .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
}

describe('a crawl with a WARC output', () => {
  it('archives every exchange the server saw, as sent and as received', async () => {
    dir = mkdtempSync(join(tmpdir(), 'politely-warc-crawl-'));
    const crawler = createCrawler(crawlOptions());
    await crawler.run();
    const reads = await readArchive();
    const records = reads.flatMap((read) => read.records);
    const byId = new Map(records.map((record) => [record.header('WARC-Record-ID')!, record]));
    const requests = records.filter((record) => record.type === 'request');

    // One request record per request the server received, in the order it received them.
    expect(log.map((entry) => entry.path)).not.toContain('/private');
    expect(requests.map(requestLine)).toEqual(log.map((entry) => `GET ${entry.path} HTTP/1.1`));
    expect(log.map((entry) => entry.path)).toEqual(
      expect.arrayContaining([
        '/robots.txt',
        '/',
        '/a',
        '/gz',
        '/chunked',
        '/redirect',
        '/a2',
        '/missing',
        '/big',
        '/err',
      ]),
    );

    const firstPayloads = new Map<string, string>();
    for (const [i, entry] of log.entries()) {
      const request = requests[i]!;
      // The request's header fields exactly as the server received them.
      expect(headFields(request.block).flat()).toEqual([...entry.headers]);
      expect(request.header('WARC-Target-URI')).toBe(`${base}${entry.path}`);
      const response = byId.get(request.header('WARC-Concurrent-To')!)!;
      expect(response.header('WARC-Target-URI')).toBe(`${base}${entry.path}`);
      expect(response.header('WARC-IP-Address')).toBe('127.0.0.1');
      expect(response.header('WARC-Date')).toBe(request.header('WARC-Date'));
      expect(response.block.toString('latin1')).toMatch(new RegExp(`^HTTP/1\\.1 ${entry.status} `));
      if (entry.path === '/big') {
        // Declared over the cap: the body was never read, and the record says so.
        expect(response.type).toBe('response');
        expect(response.header('WARC-Truncated')).toBe('length');
        expect(response.http!.payload.length).toBeLessThan(entry.sent.length);
        expect(entry.sent.subarray(0, response.http!.payload.length).equals(response.http!.payload)).toBe(true);
        continue;
      }
      if (response.type === 'revisit') {
        // Only a repeat of the same payload (the retried 500) is a revisit, and it names it.
        expect(firstPayloads.get(entry.path)).toBe(sha256(entry.sent));
        expect(response.header('WARC-Payload-Digest')).toBe(sha256(entry.sent));
        continue;
      }
      expect(response.type).toBe('response');
      expect(response.header('WARC-Truncated')).toBeUndefined();
      expect(response.http!.payload.equals(entry.sent), `payload of ${entry.path}`).toBe(true);
      expect(response.header('WARC-Payload-Digest')).toBe(sha256(entry.sent));
      firstPayloads.set(entry.path, sha256(entry.sent));
    }
    // The chunked page's head no longer says chunked (its payload is de-chunked); the gzip stays.
    const chunked = records.find(
      (record) => record.type === 'response' && record.header('WARC-Target-URI') === `${base}/chunked`,
    )!;
    expect(chunked.block.toString('latin1')).not.toMatch(/transfer-encoding/i);
    const gz = records.find(
      (record) => record.type === 'response' && record.header('WARC-Target-URI') === `${base}/gz`,
    )!;
    expect(headFields(gz.block)).toContainEqual(['content-encoding', 'gzip']);
    // The retried 500 is a response and then a revisit of it.
    expect(
      records
        .filter((record) => record.header('WARC-Target-URI') === `${base}/err` && record.type !== 'request')
        .map((record) => record.type),
    ).toEqual(['response', 'revisit']);

    // Webrecorder's warcio reads the same file and agrees on every payload digest.
    const third = await readWithWarcio(warcFiles()[0]!);
    expect(
      third.filter((record) => record.type === 'response').map((record) => [record.targetUri, record.payloadDigest]),
    ).toEqual(
      records
        .filter((record) => record.type === 'response')
        .map((record) => [record.header('WARC-Target-URI'), sha256(record.http!.payload)]),
    );
    const status = crawler.outputs().find((output) => output.format === 'warc');
    expect(status).toMatchObject({
      records: records.length,
      responses: records.filter((record) => record.type === 'response').length,
      revisits: 1,
      unrecorded: 0,
    });

    // The CDXJ index: one line per response and revisit, sorted, pointing at them.
    const index = readFileSync(join(dir, 'crawl.cdxj'), 'utf8').trimEnd().split('\n');
    expect(index).toHaveLength(
      records.filter((record) => record.type === 'response' || record.type === 'revisit').length,
    );
    expect([...index].sort()).toEqual(index);
    const offsets = new Set(
      records
        .filter((record) => record.type === 'response' || record.type === 'revisit')
        .map((record) => record.offset),
    );
    for (const line of index)
      expect(offsets.has(Number((JSON.parse(line.slice(line.indexOf('{'))) as { offset: string }).offset))).toBe(true);
  });

  it('writes revisit records when a recrawl finds pages unchanged or not modified', async () => {
    dir = mkdtempSync(join(tmpdir(), 'politely-warc-recrawl-'));
    const db = join(dir, 'crawl.db');
    const once = async (recrawl: boolean): Promise<void> => {
      const store = createSqliteFrontierStore({ path: db, defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
      await createCrawler(crawlOptions({ store, recrawl, revisitMinMs: 0, maxRetries: 0 })).run();
      await store.close();
    };
    await once(false);
    const firstRun = log.length;
    // Two crawls in the same millisecond find nothing due yet.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await once(true);
    expect(log.length).toBeGreaterThan(firstRun);
    const records = (await readArchive()).flatMap((read) => read.records);
    expect(records.filter((record) => record.type === 'warcinfo')).toHaveLength(1);
    const revisits = records.filter((record) => record.type === 'revisit');
    const profileOf = (path: string): string | undefined =>
      revisits.find((record) => record.header('WARC-Target-URI') === `${base}${path}`)?.header('WARC-Profile');
    expect(profileOf('/a')).toBe('http://netpreserve.org/warc/1.1/revisit/server-not-modified');
    expect(profileOf('/')).toBe('http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
    expect(profileOf('/chunked')).toBe('http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
    // Nothing stored twice: one whole response per URL and payload.
    const whole = records
      .filter((record) => record.type === 'response' && record.header('WARC-Truncated') === undefined)
      .map((record) => `${record.header('WARC-Target-URI')} ${record.header('WARC-Payload-Digest')}`);
    expect(new Set(whole).size).toBe(whole.length);
    for (const revisit of revisits) {
      const original = records.find((record) => record.header('WARC-Record-ID') === revisit.header('WARC-Refers-To'));
      expect(original?.type, `what ${revisit.header('WARC-Target-URI')} refers to`).toBe('response');
    }
  });

  it('stops with ERR_OUTPUT naming the file when the archive cannot be written, the URL it failed on not done', async () => {
    dir = mkdtempSync(join(tmpdir(), 'politely-warc-doomed-'));
    const folder = join(dir, 'doomed');
    mkdirSync(folder);
    const store = createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
    const handled: string[] = [];
    const crawler = createCrawler(
      crawlOptions({
        store,
        outputs: [{ path: join(folder, 'crawl.warc.gz') }],
        handler: (page) => {
          handled.push(page.finalUrl);
          // The folder goes while the third page is handled: the next exchange cannot be archived.
          if (handled.length === 3) rmSync(folder, { recursive: true, force: true });
        },
      }),
    );
    const failure = (await crawler.run().then(
      () => undefined,
      (error: unknown) => error,
    )) as PolitelyError;
    expect(failure).toBeInstanceOf(PolitelyError);
    expect(failure.code).toBe('ERR_OUTPUT');
    expect(failure.message).toContain(
      `could not write ${join(folder, 'crawl-00000.warc.gz')}: the file was deleted (or its folder removed)`,
    );
    const counts = await store.counts();
    // The pages handled are done; the one whose exchange could not be archived went back.
    expect(counts.done).toBe(handled.length);
    expect(counts.queued + counts.inFlight).toBeGreaterThan(0);
    expect(handled.length).toBe(3);
  });
});

// —— SIGKILL and resume: a child process on the built packages ——

const WORKER = fileURLToPath(new URL('./fixtures/warc-worker.mjs', import.meta.url));
const BUILT = [
  fileURLToPath(new URL('../../packages/crawler/dist/index.js', import.meta.url)),
  fileURLToPath(new URL('../../packages/store-sqlite/dist/index.js', import.meta.url)),
];
const TREE_PAGES = 150;
const KILLS = 4;

describe('an archiving crawl killed with SIGKILL and resumed', () => {
  let tree: Server;
  let treeBase: string;
  beforeAll(async () => {
    // A tree of pages: /p/N links to /p/2N+1 and /p/2N+2; each answer takes a few ms.
    tree = createServer((req, res) => {
      const path = req.url ?? '';
      if (path === '/robots.txt') return void res.end('User-agent: *\nAllow: /\n');
      const n = Number(/^\/p\/(\d+)$/.exec(path)?.[1] ?? -1);
      if (n < 0 || n >= TREE_PAGES) {
        res.statusCode = 404;
        return void res.end('not here');
      }
      const children = [1, 2].map((i) => 2 * n + i).filter((m) => m < TREE_PAGES);
      setTimeout(() => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(html(`${children.map((m) => `<a href="/p/${m}">${m}</a>`).join(' ')} ${'filler '.repeat(300)}`));
      }, 4);
    });
    await new Promise<void>((resolve) => tree.listen(0, '127.0.0.1', resolve));
    treeBase = `http://127.0.0.1:${(tree.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    tree.closeAllConnections();
    await new Promise((resolve) => tree.close(resolve));
  });

  it(`leaves files that read end to end, each page's payload once, after ${KILLS} kills`, async () => {
    for (const file of BUILT)
      if (!existsSync(file))
        throw new Error(`${file} is missing: run \`pnpm build\` first (the worker runs the built packages)`);
    dir = mkdtempSync(join(tmpdir(), 'politely-warc-kill-'));
    const config = {
      db: join(dir, 'crawl.db'),
      seeds: [`${treeBase}/p/0`],
      warc: { path: join(dir, 'crawl.warc.gz'), maxFileBytes: 64 * 1024, cdx: true },
    };
    const archived = (): number => warcFiles().reduce((sum, file) => sum + statSync(file).size, 0);
    for (let kill = 0; kill < KILLS; kill++) {
      const run = startWorker(WORKER, config);
      const target = archived() + 8_000 + 3_000 * kill;
      await waitFor(
        () => archived() >= target || run.child.exitCode !== null,
        20_000,
        `run ${kill + 1} to archive ${target} bytes`,
      );
      expect(run.child.exitCode, `run ${kill + 1} ended before the kill: ${run.stderr}`).toBeNull();
      run.child.kill('SIGKILL');
      expect(await run.exited).toBeNull();
    }
    const last = startWorker(WORKER, config);
    expect(await last.exited, last.stderr).toBe(0);
    const done = JSON.parse(last.stdout.trim().split('\n').pop()!) as {
      outputs: { earlier: number; cutBytes: number }[];
    };
    expect(done.outputs[0]!.earlier).toBeGreaterThan(0);

    const reads = await readArchive();
    expect(reads.length).toBeGreaterThan(1);
    const records = reads.flatMap((read) => read.records);
    const ids = records.map((record) => record.header('WARC-Record-ID'));
    expect(new Set(ids).size).toBe(ids.length);
    // Every page is archived whole, once; a page fetched again after a kill is a revisit of it.
    const responses = records.filter((record) => record.type === 'response');
    const pages = responses.map((record) => record.header('WARC-Target-URI')).filter((url) => url?.includes('/p/'));
    expect(new Set(pages).size).toBe(pages.length);
    expect(new Set(pages)).toEqual(new Set(Array.from({ length: TREE_PAGES }, (_, n) => `${treeBase}/p/${n}`)));
    for (const response of responses)
      expect(response.header('WARC-Payload-Digest')).toBe(sha256(response.http!.payload));
    // Every response or revisit has its request, and the index lists each.
    const concurrent = new Set(
      records.filter((record) => record.type === 'request').map((record) => record.header('WARC-Concurrent-To')),
    );
    for (const record of records)
      if (record.type === 'response' || record.type === 'revisit')
        expect(concurrent.has(record.header('WARC-Record-ID'))).toBe(true);
    const index = readFileSync(join(dir, 'crawl.cdxj'), 'utf8').trimEnd().split('\n');
    expect(index).toHaveLength(
      records.filter((record) => record.type === 'response' || record.type === 'revisit').length,
    );
  }, 180_000);
});
