// The strict WARC reader, on files made by hand here: every byte written out in the test, every
// digest computed with node:crypto, one gzip member per record. Nothing of the crawler's writer.

import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReferences, readWarcFile, readWithWarcio } from './warc-reader.js';

type Fields = [string, string][];

const sha256 = (data: Buffer | string): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** Base32 (RFC 4648) written out here, for a sha1 digest in the form older tools write. */
function sha1Base32(data: Buffer | string): string {
  const bytes = createHash('sha1').update(data).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let at = 0; at < bits.length; at += 5)
    out += alphabet[Number.parseInt(bits.slice(at, at + 5).padEnd(5, '0'), 2)];
  return `sha1:${out}`;
}

/** A record's bytes: version line, fields, empty line, block, `\r\n\r\n`. */
function record(fields: Fields, block: Buffer | string): Buffer {
  const head = ['WARC/1.1', ...fields.map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');
  return Buffer.concat([Buffer.from(head), Buffer.from(block), Buffer.from('\r\n\r\n')]);
}

const ids = {
  info: '<urn:uuid:00000000-0000-4000-8000-000000000001>',
  request: '<urn:uuid:00000000-0000-4000-8000-000000000002>',
  response: '<urn:uuid:00000000-0000-4000-8000-000000000003>',
  revisit: '<urn:uuid:00000000-0000-4000-8000-000000000004>',
};
const DATE = '2026-01-02T03:04:05.678Z';
const TARGET = 'http://127.0.0.1:8080/page?x=1';
const BODY = '<html><body><p>Hello, archive</p></body></html>';
const HTTP_RESPONSE = `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`;
const HTTP_REQUEST = 'GET /page?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: politely-test\r\n\r\n';
const HTTP_NOT_MODIFIED = 'HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\n\r\n';

function warcinfo(filename: string): Buffer {
  const block = 'software: politely-test\r\nformat: WARC File Format 1.1\r\n';
  return record(
    [
      ['WARC-Type', 'warcinfo'],
      ['WARC-Record-ID', ids.info],
      ['WARC-Date', DATE],
      ['WARC-Filename', filename],
      ['Content-Type', 'application/warc-fields'],
      ['WARC-Block-Digest', sha256(block)],
      ['Content-Length', String(Buffer.byteLength(block))],
    ],
    block,
  );
}

function request(overrides: Fields = []): Buffer {
  return record(
    withOverrides(
      [
        ['WARC-Type', 'request'],
        ['WARC-Record-ID', ids.request],
        ['WARC-Date', DATE],
        ['WARC-Target-URI', TARGET],
        ['WARC-Concurrent-To', ids.response],
        ['Content-Type', 'application/http; msgtype=request'],
        // An older tool's form, sha1 in base32: the reader checks it too.
        ['WARC-Block-Digest', sha1Base32(HTTP_REQUEST)],
        ['Content-Length', String(Buffer.byteLength(HTTP_REQUEST))],
      ],
      overrides,
    ),
    HTTP_REQUEST,
  );
}

function response(overrides: Fields = [], block = HTTP_RESPONSE): Buffer {
  return record(
    withOverrides(
      [
        ['WARC-Type', 'response'],
        ['WARC-Record-ID', ids.response],
        ['WARC-Date', DATE],
        ['WARC-Target-URI', TARGET],
        ['WARC-IP-Address', '127.0.0.1'],
        ['Content-Type', 'application/http; msgtype=response'],
        ['WARC-Block-Digest', sha256(block)],
        ['WARC-Payload-Digest', sha256(BODY)],
        ['Content-Length', String(Buffer.byteLength(block))],
      ],
      overrides,
    ),
    block,
  );
}

function revisit(): Buffer {
  return record(
    [
      ['WARC-Type', 'revisit'],
      ['WARC-Record-ID', ids.revisit],
      ['WARC-Date', '2026-01-03T00:00:00Z'],
      ['WARC-Target-URI', TARGET],
      ['WARC-Profile', 'http://netpreserve.org/warc/1.1/revisit/server-not-modified'],
      ['WARC-Refers-To', ids.response],
      ['Content-Type', 'application/http; msgtype=response'],
      ['WARC-Payload-Digest', sha256(BODY)],
      ['WARC-Block-Digest', sha256(HTTP_NOT_MODIFIED)],
      ['Content-Length', String(Buffer.byteLength(HTTP_NOT_MODIFIED))],
    ],
    HTTP_NOT_MODIFIED,
  );
}

/** Fields with some replaced (same name) or removed (value `''` and name prefixed `-`). */
function withOverrides(fields: Fields, overrides: Fields): Fields {
  let result = fields;
  for (const [name, value] of overrides) {
    if (name.startsWith('-')) result = result.filter(([field]) => field !== name.slice(1));
    else if (result.some(([field]) => field === name))
      result = result.map(([field, old]) => [field, field === name ? value : old]);
    else result = [...result, [name, value]];
  }
  return result;
}

/** One gzip member per record, and where each starts. */
function gzipRecords(records: readonly Buffer[]): { bytes: Buffer; offsets: number[] } {
  const members = records.map((bytes) => gzipSync(bytes));
  const offsets: number[] = [];
  let at = 0;
  for (const member of members) {
    offsets.push(at);
    at += member.length;
  }
  return { bytes: Buffer.concat(members), offsets };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'politely-warc-reader-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeGz(
  name: string,
  records: (filename: string) => readonly Buffer[],
): Promise<{ path: string; offsets: number[] }> {
  const { bytes, offsets } = gzipRecords(records(name));
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, offsets };
}

const valid = (name: string): Buffer[] => [warcinfo(name), request(), response(), revisit()];

describe('readWarcFile on a valid file', () => {
  it('a .warc.gz, one member per record: four records, no problem, payloads and offsets right', async () => {
    const { path, offsets } = await writeGz('valid.warc.gz', valid);
    const file = await readWarcFile(path);
    expect(file.problems).toEqual([]);
    expect(file.gzipMembers).toBe(4);
    expect(file.records.map((one) => one.type)).toEqual(['warcinfo', 'request', 'response', 'revisit']);
    expect(file.records.map((one) => one.offset)).toEqual(offsets);
    const responseRecord = file.records[2];
    expect(responseRecord?.version).toBe('WARC/1.1');
    expect(responseRecord?.header('warc-target-uri')).toBe(TARGET);
    expect(responseRecord?.length).toBe((offsets[3] ?? 0) - (offsets[2] ?? 0));
    expect(responseRecord?.http?.startLine).toBe('HTTP/1.1 200 OK');
    expect(responseRecord?.http?.header('content-type')).toBe('text/html; charset=utf-8');
    expect(responseRecord?.http?.payload.toString()).toBe(BODY);
    expect(responseRecord?.block.subarray(responseRecord.http?.bodyOffset ?? 0).toString()).toBe(BODY);
    expect(file.records[1]?.http?.startLine).toBe('GET /page?x=1 HTTP/1.1');
    expect(file.records[3]?.http?.startLine).toBe('HTTP/1.1 304 Not Modified');
    expect(checkReferences([file])).toEqual([]);
  });

  it('a plain .warc: the same records at their byte offsets', async () => {
    const records = valid('valid.warc');
    const path = join(dir, 'valid.warc');
    await writeFile(path, Buffer.concat(records));
    const file = await readWarcFile(path);
    expect(file.problems).toEqual([]);
    expect(file.gzipMembers).toBe(0);
    expect(file.records.map((one) => [one.offset, one.length])).toEqual(
      records.map((one, index) => [
        records.slice(0, index).reduce((sum, earlier) => sum + earlier.length, 0),
        one.length,
      ]),
    );
  });

  it('a chunked body is dechunked for the payload digest, as WARC 1.1 defines the payload', async () => {
    const chunked = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`;
    const { path } = await writeGz('chunked.warc.gz', (name) => [warcinfo(name), response([], chunked)]);
    const file = await readWarcFile(path);
    expect(file.problems).toEqual([]);
    expect(file.records[1]?.http?.payload.toString()).toBe(BODY);
  });

  it('warcio reads the same file to the same records', async () => {
    const { path } = await writeGz('valid-warcio.warc.gz', valid);
    const records = await readWithWarcio(path);
    expect(records.map((one) => [one.type, one.targetUri])).toEqual([
      ['warcinfo', undefined],
      ['request', TARGET],
      ['response', TARGET],
      ['revisit', TARGET],
    ]);
    expect(records[2]?.payloadDigest).toBe(sha256(BODY));
    expect(Buffer.from(records[2]?.payload ?? []).toString()).toBe(BODY);
  });
});

describe('readWarcFile reports each fault once, with its offset', () => {
  it('a wrong Content-Length (gzip: the member tells the block; plain: the next record does)', async () => {
    const declared = Buffer.byteLength(HTTP_RESPONSE) + 5;
    const { path, offsets } = await writeGz('length.warc.gz', (name) => [
      warcinfo(name),
      request(),
      response([['Content-Length', String(declared)]]),
    ]);
    expect((await readWarcFile(path)).problems).toEqual([
      `at ${offsets[2]}: Content-Length ${declared} does not match the block: ${Buffer.byteLength(HTTP_RESPONSE)} bytes before the \\r\\n\\r\\n that ends the gzip member`,
    ]);
    const plain = join(dir, 'length.warc');
    const records = [warcinfo('length.warc'), response([['Content-Length', String(declared)]]), revisit()];
    await writeFile(plain, Buffer.concat(records));
    const at = (records[0] as Buffer).length;
    expect((await readWarcFile(plain)).problems).toEqual([
      `at ${at}: Content-Length ${declared} does not match the block: ${Buffer.byteLength(HTTP_RESPONSE)} bytes before the next record`,
    ]);
  });

  it('a block digest that does not match', async () => {
    const wrong = `sha256:${'0'.repeat(64)}`;
    const { path, offsets } = await writeGz('block.warc.gz', (name) => [
      warcinfo(name),
      request(),
      response([['WARC-Block-Digest', wrong]]),
    ]);
    expect((await readWarcFile(path)).problems).toEqual([
      `at ${offsets[2]}: WARC-Block-Digest ${wrong} does not match: the block hashes to ${sha256(HTTP_RESPONSE)}`,
    ]);
  });

  it('a payload digest that does not match', async () => {
    const wrong = sha256(`${BODY}!`);
    const { path, offsets } = await writeGz('payload.warc.gz', (name) => [
      warcinfo(name),
      request(),
      response([['WARC-Payload-Digest', wrong]]),
    ]);
    expect((await readWarcFile(path)).problems).toEqual([
      `at ${offsets[2]}: WARC-Payload-Digest ${wrong} does not match: the payload hashes to ${sha256(BODY)}`,
    ]);
  });

  it('two records in one gzip member', async () => {
    const { path, offsets } = await writeGz('two.warc.gz', (name) => [
      warcinfo(name),
      Buffer.concat([request(), response()]),
    ]);
    const file = await readWarcFile(path);
    expect(file.problems).toEqual([
      `at ${offsets[1]}: gzip member holds more than one record (a second one starts at byte ${request().length} of the member)`,
    ]);
    expect(file.gzipMembers).toBe(2);
  });

  it('a record split over two gzip members', async () => {
    const whole = response();
    const cut = whole.length - 30;
    const { path, offsets } = await writeGz('split.warc.gz', (name) => [
      warcinfo(name),
      whole.subarray(0, cut),
      whole.subarray(cut),
    ]);
    const blockStart = whole.indexOf('\r\n\r\n') + 4;
    expect((await readWarcFile(path)).problems).toEqual([
      `at ${offsets[1]}: record is not whole in its gzip member: Content-Length ${Buffer.byteLength(HTTP_RESPONSE)}, ${cut - blockStart} bytes of block and no \\r\\n\\r\\n at the member's end (split over members?)`,
      `at ${offsets[2]}: gzip member does not start with a WARC record (a record split over members?)`,
    ]);
  });

  it('a truncated last record, gzipped or plain, is reported without a crash', async () => {
    const { bytes, offsets } = gzipRecords(valid('cut.warc.gz'));
    const path = join(dir, 'cut.warc.gz');
    await writeFile(path, bytes.subarray(0, bytes.length - 20));
    const file = await readWarcFile(path);
    expect(file.problems).toEqual([`at ${offsets[3]}: gzip member is truncated or corrupt (unexpected end of file)`]);
    expect(file.records).toHaveLength(3);
    const plainRecords = valid('cut.warc');
    const plain = Buffer.concat(plainRecords);
    const plainPath = join(dir, 'cut.warc');
    await writeFile(plainPath, plain.subarray(0, plain.length - 10));
    const at = plain.length - (plainRecords[3] as Buffer).length;
    expect((await readWarcFile(plainPath)).problems).toEqual([
      `at ${at}: the file ends inside the record (a truncated record): Content-Length ${Buffer.byteLength(HTTP_NOT_MODIFIED)}, ${Buffer.byteLength(HTTP_NOT_MODIFIED) - 6} bytes of block and no \\r\\n\\r\\n after it`,
    ]);
  });

  it('a record ID used twice', async () => {
    const { path, offsets } = await writeGz('dup.warc.gz', (name) => [
      warcinfo(name),
      request(),
      response([['WARC-Record-ID', ids.request]]),
    ]);
    expect((await readWarcFile(path)).problems).toEqual([
      `at ${offsets[2]}: WARC-Record-ID ${ids.request} is already the ID of the record at ${offsets[1]}`,
    ]);
  });

  it('no warcinfo first', async () => {
    const { path, offsets } = await writeGz('noinfo.warc.gz', () => [request(), response()]);
    expect((await readWarcFile(path)).problems).toEqual([
      `at ${offsets[0]}: the first record is request, not warcinfo`,
    ]);
  });

  it('a bad WARC-Date', async () => {
    const { path, offsets } = await writeGz('date.warc.gz', (name) => [
      warcinfo(name),
      request([['WARC-Date', '2026-02-30T00:00:00Z']]),
      response(),
    ]);
    expect((await readWarcFile(path)).problems).toEqual([
      `at ${offsets[1]}: WARC-Date "2026-02-30T00:00:00Z" is not a UTC date YYYY-MM-DDThh:mm:ss[.fraction]Z`,
    ]);
  });

  it('and the other rules: version, mandatory fields, WARC-Truncated, warcinfo name, trailing garbage', async () => {
    const oldVersion = Buffer.from(request().toString('latin1').replace('WARC/1.1', 'WARC/1.0'), 'latin1');
    const { bytes, offsets } = gzipRecords([
      warcinfo('other-name.warc.gz'),
      oldVersion,
      response([
        ['-WARC-Date', ''],
        ['WARC-Truncated', 'because'],
      ]),
    ]);
    const path = join(dir, 'rules.warc.gz');
    await writeFile(path, Buffer.concat([bytes, Buffer.from('junk')]));
    expect((await readWarcFile(path)).problems).toEqual([
      `at ${offsets[1]}: version line is "WARC/1.0", not WARC/1.1`,
      `at ${offsets[2]}: mandatory field WARC-Date is missing`,
      `at ${offsets[2]}: WARC-Truncated "because" is not length, time, disconnect or unspecified`,
      `at ${bytes.length}: 4 bytes of trailing garbage (too short for a gzip member)`,
      `at 0: warcinfo WARC-Filename is "other-name.warc.gz", not the file's name "rules.warc.gz"`,
    ]);
  });

  it('a head saying chunked over a body that is not', async () => {
    const lying = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${BODY}`;
    const { path, offsets } = await writeGz('lying.warc.gz', (name) => [warcinfo(name), response([], lying)]);
    // (The body is then taken as it is, so its payload digest still matches: one fault, one problem.)
    expect((await readWarcFile(path)).problems).toEqual([
      `at ${offsets[1]}: the HTTP head says Transfer-Encoding: chunked, but the body is not chunked`,
    ]);
  });
});

describe('checkReferences', () => {
  it('finds references to records in none of the files, and IDs used in two files', async () => {
    const first = await readWarcFile((await writeGz('set-1.warc.gz', (name) => [warcinfo(name), request()])).path);
    const second = await readWarcFile(
      (await writeGz('set-2.warc.gz', (name) => [warcinfo(name), response(), revisit()])).path,
    );
    expect(first.problems).toEqual([]);
    expect(second.problems).toEqual([]);
    // The request and its response are in two files of one crawl: they find each other.
    expect(checkReferences([first, second])).toEqual([
      `set-2.warc.gz at 0: WARC-Record-ID ${ids.info} is also the ID of set-1.warc.gz at 0`,
    ]);
    expect(checkReferences([first])).toEqual([
      `set-1.warc.gz at ${first.records[1]?.offset}: WARC-Concurrent-To ${ids.response} names no record in these files`,
    ]);
  });
});
