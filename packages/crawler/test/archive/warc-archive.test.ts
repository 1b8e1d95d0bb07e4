// The WARC archive on real files: what it writes for an exchange (read back by the strict test
// reader and by Webrecorder's warcio), revisits, rolling, resume after a torn write, refusals,
// a write that fails, and the CDXJ index.

import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type HttpExchange, PolitelyError } from '@politely/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkReferences,
  readWarcFile,
  readWithWarcio,
  type WarcFileRead,
} from '../../../../test/support/warc-reader.js';
import { WarcArchive } from '../../src/archive/warc-archive.js';
import type { ResolvedWarcOutput } from '../../src/archive/warc-options.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'politely-warc-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const INFO = {
  userAgent: 'ArchiveBot/1.0 (+https://example.test/bot)',
  from: 'ops@example.test',
  robotsTokens: ['ArchiveBot'],
  purposes: [],
};

function output(overrides: Partial<ResolvedWarcOutput> = {}): ResolvedWarcOutput {
  return {
    path: join(dir, 'crawl.warc.gz'),
    format: 'warc',
    maxFileBytes: 1024 ** 3,
    cdx: undefined,
    overwrite: false,
    ...overrides,
  };
}

let clock = Date.UTC(2026, 10, 24, 8, 0, 0);

function exchange(path: string, body: string | Uint8Array, extra: Partial<HttpExchange> = {}): HttpExchange {
  const payload = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
  clock += 1000;
  return {
    sentAt: clock,
    remoteAddress: '127.0.0.1',
    requestHead: `GET ${path} HTTP/1.1\r\nhost: site.test\r\nconnection: keep-alive\r\naccept-encoding: gzip, deflate, br\r\nuser-agent: ArchiveBot/1.0\r\n\r\n`,
    status: 200,
    statusText: 'OK',
    rawHeaders: [
      ['Content-Type', 'text/html; charset=utf-8'],
      ['Content-Length', String(payload.length)],
    ],
    payload,
    ...extra,
  };
}

async function openArchive(
  out: ResolvedWarcOutput,
  resume = false,
  failures: PolitelyError[] = [],
): Promise<WarcArchive> {
  const archive = new WarcArchive(out, INFO, { onFailure: (error) => failures.push(error) });
  await archive.open(resume);
  return archive;
}

function warcFiles(): string[] {
  return readdirSync(dir)
    .filter((name) => /\.warc(\.gz)?$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}

async function readAll(): Promise<WarcFileRead[]> {
  const reads = await Promise.all(warcFiles().map((file) => readWarcFile(file)));
  for (const read of reads) expect(read.problems).toEqual([]);
  expect(checkReferences(reads)).toEqual([]);
  return reads;
}

describe('WarcArchive', () => {
  it('writes a warcinfo, then per exchange a response and its request, as received and as sent', async () => {
    const archive = await openArchive(output());
    const page = exchange('/a', '<html><body>caf\u00e9</body></html>', {
      statusText: 'OK Then',
      rawHeaders: [
        ['Content-Type', 'text/html'],
        ['X-Dup', '1'],
        ['set-cookie', 'a=1'],
        ['X-Dup', '2'],
        ['Transfer-Encoding', 'chunked'],
        ['X-Latin', 'caf\u00e9'],
      ],
    });
    await archive.record('http://site.test/a', page);
    await archive.close();
    const [read] = await readAll();
    const types = read!.records.map((record) => record.type);
    expect(types).toEqual(['warcinfo', 'response', 'request']);
    const [info, response, request] = read!.records;
    expect(info!.header('WARC-Filename')).toBe('crawl-00000.warc.gz');
    const fields = info!.block.toString('utf8');
    expect(fields).toContain('http-header-user-agent: ArchiveBot/1.0 (+https://example.test/bot)');
    expect(fields).toContain('robots: classic');
    expect(fields).toMatch(/^software: politely\/\d+\.\d+\.\d+/m);
    // The head as received, byte for byte, but for the chunked transfer coding undici removed.
    const head =
      'HTTP/1.1 200 OK Then\r\nContent-Type: text/html\r\nX-Dup: 1\r\nset-cookie: a=1\r\nX-Dup: 2\r\nX-Latin: caf\u00e9\r\n\r\n';
    expect(response!.block.subarray(0, head.length).toString('latin1')).toBe(head);
    expect(response!.http!.payload.equals(Buffer.from(page.payload))).toBe(true);
    expect(response!.header('WARC-Target-URI')).toBe('http://site.test/a');
    expect(response!.header('WARC-IP-Address')).toBe('127.0.0.1');
    expect(response!.header('WARC-Date')).toBe(new Date(page.sentAt).toISOString());
    expect(response!.header('WARC-Truncated')).toBeUndefined();
    expect(request!.block.toString('latin1')).toBe(page.requestHead);
    expect(request!.header('WARC-Concurrent-To')).toBe(response!.header('WARC-Record-ID'));
    expect(archive.status()).toMatchObject({
      records: 3,
      responses: 1,
      revisits: 0,
      files: [join(dir, 'crawl-00000.warc.gz')],
    });
    const third = await readWithWarcio(warcFiles()[0]!);
    expect(third.map((record) => record.type)).toEqual(['warcinfo', 'response', 'request']);
    expect(Buffer.from(third[1]!.payload).equals(Buffer.from(page.payload))).toBe(true);
  });

  it('writes the same payload of the same URL again as a revisit that refers to the capture', async () => {
    const archive = await openArchive(output());
    await archive.record('http://site.test/a', exchange('/a', 'same body'));
    await archive.record('http://site.test/a', exchange('/a', 'same body'));
    await archive.record('http://site.test/b', exchange('/b', 'same body'));
    await archive.record('http://site.test/a', exchange('/a', 'a new body'));
    await archive.close();
    const [read] = await readAll();
    const responses = read!.records.filter((record) => record.type === 'response' || record.type === 'revisit');
    expect(responses.map((record) => `${record.type} ${record.header('WARC-Target-URI')}`)).toEqual([
      'response http://site.test/a',
      'revisit http://site.test/a',
      'response http://site.test/b',
      'response http://site.test/a',
    ]);
    const [first, revisit] = responses;
    expect(revisit!.header('WARC-Profile')).toBe('http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
    expect(revisit!.header('WARC-Refers-To')).toBe(first!.header('WARC-Record-ID'));
    expect(revisit!.header('WARC-Refers-To-Target-URI')).toBe('http://site.test/a');
    expect(revisit!.header('WARC-Refers-To-Date')).toBe(first!.header('WARC-Date'));
    expect(revisit!.header('WARC-Payload-Digest')).toBe(first!.header('WARC-Payload-Digest'));
    // Its block is the response head only: the payload is not copied again.
    expect(revisit!.block.toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n$/);
    expect(archive.status()).toMatchObject({ responses: 3, revisits: 1 });
  });

  it('writes a 304 to a revalidation as a server-not-modified revisit', async () => {
    const archive = await openArchive(output());
    await archive.record('http://site.test/a', exchange('/a', 'body', { rawHeaders: [['ETag', '"v1"']] }));
    const revalidation = exchange('/a', '', {
      status: 304,
      statusText: 'Not Modified',
      rawHeaders: [['ETag', '"v1"']],
    });
    await archive.record('http://site.test/a', {
      ...revalidation,
      requestHead: revalidation.requestHead.replace('\r\n\r\n', '\r\nIf-None-Match: "v1"\r\n\r\n'),
    });
    await archive.close();
    const [read] = await readAll();
    const revisit = read!.records.find((record) => record.type === 'revisit')!;
    const first = read!.records.find((record) => record.type === 'response')!;
    expect(revisit.header('WARC-Profile')).toBe('http://netpreserve.org/warc/1.1/revisit/server-not-modified');
    expect(revisit.header('WARC-Refers-To')).toBe(first.header('WARC-Record-ID'));
    expect(revisit.block.toString('latin1')).toBe('HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\n\r\n');
  });

  it('marks a cut body truncated, and never takes it for the same payload', async () => {
    const archive = await openArchive(output());
    await archive.record('http://site.test/big', exchange('/big', 'x'.repeat(1000)));
    await archive.record('http://site.test/big', exchange('/big', 'x'.repeat(1000), { truncated: 'length' }));
    await archive.close();
    const [read] = await readAll();
    const responses = read!.records.filter((record) => record.type === 'response');
    expect(responses).toHaveLength(2);
    expect(responses[1]!.header('WARC-Truncated')).toBe('length');
  });

  it('rolls to a new numbered file before one would pass its limit, each beginning with its warcinfo', async () => {
    const limit = 64 * 1024;
    const archive = await openArchive(output({ path: join(dir, 'crawl.warc'), maxFileBytes: limit }));
    for (let i = 0; i < 40; i++)
      await archive.record(`http://site.test/p/${i}`, exchange(`/p/${i}`, `page ${i} `.repeat(600)));
    await archive.close();
    const reads = await readAll();
    expect(reads.length).toBeGreaterThanOrEqual(4);
    const files = warcFiles();
    expect(files.map((file) => file.slice(dir.length + 1))).toEqual(
      reads.map((_, i) => `crawl-${String(i).padStart(5, '0')}.warc`),
    );
    for (const [i, read] of reads.entries()) {
      expect(statSync(files[i]!).size).toBeLessThanOrEqual(limit);
      expect(read.records[0]!.type).toBe('warcinfo');
      expect(read.records[0]!.header('WARC-Filename')).toBe(`crawl-${String(i).padStart(5, '0')}.warc`);
    }
    const pages = reads.flatMap((read) =>
      read.records.filter((record) => record.type === 'response').map((record) => record.header('WARC-Target-URI')),
    );
    expect(pages).toEqual(Array.from({ length: 40 }, (_, i) => `http://site.test/p/${i}`));
    expect(archive.status().files).toEqual(files);
  });

  it('resumes: cuts a torn last record and files past the last commit, appends, and remembers earlier captures', async () => {
    const out = output({ maxFileBytes: 64 * 1024, cdx: join(dir, 'crawl.cdxj') });
    const first = await openArchive(out);
    for (let i = 0; i < 3; i++) await first.record(`http://site.test/p/${i}`, exchange(`/p/${i}`, `page ${i}`));
    await first.close();
    const [file] = warcFiles();
    const committed = statSync(file!).size;
    // A kill mid-write: half a gzip member at the end, and a file begun but never committed.
    const member = readFileSync(file!).subarray(0, 40);
    appendFileSync(file!, member);
    writeFileSync(join(dir, 'crawl-00001.warc.gz'), member);
    appendFileSync(out.cdx!, 'com,site)/torn 2026');

    const resumed = await openArchive(out, true);
    expect(resumed.status()).toMatchObject({ cutBytes: 40, earlier: 7 });
    expect(existsSync(join(dir, 'crawl-00001.warc.gz'))).toBe(false);
    expect(statSync(file!).size).toBe(committed);
    await resumed.record('http://site.test/p/0', exchange('/p/0', 'page 0'));
    await resumed.record('http://site.test/p/9', exchange('/p/9', 'page 9'));
    await resumed.close();
    const reads = await readAll();
    const records = reads.flatMap((read) => read.records);
    expect(records.filter((record) => record.type === 'warcinfo')).toHaveLength(1);
    const revisit = records.find((record) => record.type === 'revisit')!;
    expect(revisit.header('WARC-Target-URI')).toBe('http://site.test/p/0');
    const original = records.find(
      (record) => record.type === 'response' && record.header('WARC-Target-URI') === 'http://site.test/p/0',
    )!;
    expect(revisit.header('WARC-Refers-To')).toBe(original.header('WARC-Record-ID'));
    const index = readFileSync(out.cdx!, 'utf8').trimEnd().split('\n');
    expect(index).toHaveLength(5);
    expect(index.some((line) => line.includes('torn'))).toBe(false);
  });

  it('refuses to start a fresh crawl over an archive, unless told to overwrite it', async () => {
    const archive = await openArchive(output());
    await archive.record('http://site.test/a', exchange('/a', 'a'));
    await archive.close();
    const error = await openArchive(output()).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(PolitelyError);
    expect((error as PolitelyError).code).toBe('ERR_OUTPUT');
    expect((error as PolitelyError).message).toContain('crawl-00000.warc.gz');
    expect((error as PolitelyError).message).toContain('overwrite');
    const again = await openArchive(output({ overwrite: true }));
    await again.close();
    const [read] = await readAll();
    expect(read!.records.map((record) => record.type)).toEqual(['warcinfo']);
  });

  it('refuses to resume into files whose ledger is gone', async () => {
    const archive = await openArchive(output());
    await archive.close();
    rmSync(join(dir, 'crawl.warc.gz.ledger'));
    const error = (await openArchive(output(), true).catch((failure: unknown) => failure)) as PolitelyError;
    expect(error.code).toBe('ERR_OUTPUT');
    expect(error.message).toContain('ledger');
  });

  it('fails loudly and for good when a write fails, telling the crawl once', async () => {
    const failures: PolitelyError[] = [];
    const archive = await openArchive(output(), false, failures);
    await archive.record('http://site.test/a', exchange('/a', 'a'));
    // The file deleted under the crawl: the next write is a loss, reported as such.
    for (const file of warcFiles()) rmSync(file);
    const error = (await archive
      .record('http://site.test/b', exchange('/b', 'b'))
      .catch((failure: unknown) => failure)) as PolitelyError;
    expect(error.code).toBe('ERR_OUTPUT');
    expect(error.message).toContain('crawl-00000.warc.gz');
    await expect(archive.record('http://site.test/c', exchange('/c', 'c'))).rejects.toBe(error);
    expect(failures).toEqual([error]);
    await expect(archive.close()).rejects.toBe(error);
  });

  it('indexes responses and revisits in a sorted CDXJ file whose offsets find the records', async () => {
    const cdx = join(dir, 'crawl.cdxj');
    const archive = await openArchive(output({ cdx }));
    for (const path of ['/z', '/b', '/a', '/b'])
      await archive.record(`http://site.test${path}`, exchange(path, `body of ${path}`));
    await archive.close();
    const lines = readFileSync(cdx, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect([...lines].sort()).toEqual(lines);
    const file = readFileSync(warcFiles()[0]!);
    for (const line of lines) {
      const [key, stamp, json] = [line.slice(0, line.indexOf(' ')), line.split(' ')[1], line.slice(line.indexOf('{'))];
      const entry = JSON.parse(json) as {
        url: string;
        offset: string;
        length: string;
        filename: string;
        status: string;
        mime: string;
      };
      expect(key).toBe(`test,site)${new URL(entry.url).pathname}`);
      expect(stamp).toMatch(/^\d{14}$/);
      expect(entry.filename).toBe('crawl-00000.warc.gz');
      const record = gunzipSync(
        file.subarray(Number(entry.offset), Number(entry.offset) + Number(entry.length)),
      ).toString('latin1');
      expect(record).toContain(`WARC-Target-URI: ${entry.url}\r\n`);
      expect(record).toMatch(entry.mime === 'warc/revisit' ? /WARC-Type: revisit/ : /WARC-Type: response/);
    }
  });
});
