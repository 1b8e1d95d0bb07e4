// A strict WARC 1.1 reader for tests, written from the specification (ISO 28500:2017, the IIPC
// "WARC Format 1.1" text) with node:zlib and node:crypto only. It shares no code with the
// crawler's WARC writer on purpose: a test that reads the writer's files with the writer's own
// parser would agree with any mistake they share.
//
// `readWarcFile` never throws on a bad file (only when the file cannot be read at all): every
// departure from the format, or from what our writer promises, is pushed to `problems` with the
// byte offset of the record (or gzip member) it was found in, so a test asserts `problems` is
// empty and sees every fault at once. Checks:
// - `.gz` files: each record is exactly one gzip member (members found one by one: the deflate
//   stream's own end, then the 8-byte trailer, each member then checked whole by gunzip).
// - every record: `WARC/1.1`; the header's CRLF lines and token names; the mandatory fields
//   (WARC-Record-ID as `<urn:uuid:…>`, unique in the file; Content-Length; WARC-Date as
//   `YYYY-MM-DDThh:mm:ss[.fraction]Z`; WARC-Type); no field repeated but WARC-Concurrent-To;
//   Content-Length equal to the block; the block followed by exactly `\r\n\r\n`; digests
//   (`sha256:`/`sha1:`, hex or base32) equal to the block's and the payload's; WARC-Truncated's
//   value; WARC-Target-URI where the type needs it; WARC-Profile on a revisit.
// - `application/http` blocks: an HTTP head (status line or request line, header lines, empty
//   line) of the kind `msgtype` says; the payload is the body after it, dechunked when the head
//   says `Transfer-Encoding: chunked` (the WARC 1.1 payload has transfer codings removed); an
//   untruncated body must match the head's Content-Length and decode per its Content-Encoding.
// - every file: a `warcinfo` record first, `application/warc-fields`, WARC-Filename = the file's
//   name; trailing garbage and a truncated last record (reported, never a crash).
// `checkReferences` then checks what needs all the files of a crawl: WARC-Concurrent-To,
// WARC-Refers-To and WARC-Warcinfo-ID name records that exist, and no record ID is used twice.
//
// Strictness beyond the letter of the spec, on purpose: WARC-Date's coarser forms (`YYYY-MM`)
// are refused, WARC-Record-ID must be a `urn:uuid`, and digests of unknown algorithms are
// reported (they cannot be checked).

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { WARCParser } from 'warcio';

export type Field = [name: string, value: string];

export interface WarcHttpRead {
  /** `HTTP/1.1 200 OK` or `GET /path HTTP/1.1`. */
  readonly startLine: string;
  readonly headers: Field[];
  /** The first header of that name (any case), unfolded. */
  header(name: string): string | undefined;
  /** Where the body starts in the block (after the head's empty line). */
  readonly bodyOffset: number;
  /** The body, dechunked if the head says `Transfer-Encoding: chunked`. */
  readonly payload: Buffer;
}

export interface WarcRecordRead {
  /** Where the record starts in the file: its gzip member's first byte, in a `.gz`. */
  readonly offset: number;
  /** Bytes the record takes in the file (its gzip member, in a `.gz`). */
  readonly length: number;
  readonly version: string;
  readonly headers: Field[];
  /** The first field of that name (any case). */
  header(name: string): string | undefined;
  /** WARC-Type (empty when missing). */
  readonly type: string;
  readonly block: Buffer;
  /** The HTTP message of an `application/http` block, when its head parses. */
  readonly http?: WarcHttpRead;
}

export interface WarcFileRead {
  readonly path: string;
  readonly records: WarcRecordRead[];
  /** Gzip members in a `.gz` file (0 for a plain `.warc`). */
  readonly gzipMembers: number;
  /** Every fault found, each `at <offset>: <what>`. */
  readonly problems: string[];
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const NEXT_RECORD = Buffer.from('\r\n\r\nWARC/');
/** A WARC or HTTP head longer than this is taken as garbage, not searched further. */
const MAX_HEAD_BYTES = 1024 * 1024;

/** Reads and checks one WARC file (`.warc` or per-record gzipped `.warc.gz`). */
export async function readWarcFile(path: string): Promise<WarcFileRead> {
  const data = await readFile(path);
  const file: WarcFileRead = { path, records: [], gzipMembers: 0, problems: [] };
  const gzipMembers = path.endsWith('.gz') ? readMembers(data, file) : readPlain(data, file);
  checkFile(file);
  return { ...file, gzipMembers };
}

// ---------------------------------------------------------------------------------------------
// Walking the file: gzip members, or records one after another.

/** Reads a `.gz` file member by member, each holding exactly one record; returns the member count. */
function readMembers(data: Buffer, file: WarcFileRead): number {
  let members = 0;
  // Each turn moves past one whole member (at least 18 bytes) or stops.
  for (let offset = 0; offset < data.length; ) {
    const member = nextMember(data, offset);
    if (typeof member === 'string') {
      file.problems.push(`at ${offset}: ${member}`);
      break;
    }
    members += 1;
    readMemberRecord(member.content, offset, member.length, file);
    offset += member.length;
  }
  return members;
}

interface Member {
  readonly length: number;
  readonly content: Buffer;
}

/** The gzip member at `offset`, or why there is none (garbage, truncated, corrupt). */
function nextMember(data: Buffer, offset: number): Member | string {
  const headerLength = gzipHeaderLength(data, offset);
  if (typeof headerLength === 'string') return headerLength;
  let deflateLength: number;
  try {
    // With `info`, zlib also hands back its engine, whose `bytesWritten` is the input it took:
    // inflating stops at the deflate stream's end, so that is where this member's data ends.
    const inflated = inflateRawSync(data.subarray(offset + headerLength), { info: true }) as unknown as {
      engine: { bytesWritten: number };
    };
    deflateLength = inflated.engine.bytesWritten;
  } catch (error) {
    return `gzip member is truncated or corrupt (${errorText(error)})`;
  }
  const length = headerLength + deflateLength + 8;
  if (offset + length > data.length)
    return `gzip member is truncated: its 8-byte trailer is cut (the file ends at ${data.length})`;
  try {
    // gunzip checks the member whole: the trailer's CRC-32 and length.
    return { length, content: gunzipSync(data.subarray(offset, offset + length)) };
  } catch (error) {
    return `gzip member is corrupt (${errorText(error)})`;
  }
}

const GZIP_FLAGS = { text: 1, headerCrc: 2, extra: 4, name: 8, comment: 16, reserved: 0xe0 } as const;

/** The length of the gzip header at `offset` (RFC 1952), or why it is not one. */
function gzipHeaderLength(data: Buffer, offset: number): number | string {
  if (data.length - offset < 10)
    return `${data.length - offset} bytes of trailing garbage (too short for a gzip member)`;
  if (data[offset] !== 0x1f || data[offset + 1] !== 0x8b || data[offset + 2] !== 8)
    return `${data.length - offset} bytes of trailing garbage (not a gzip member)`;
  const flags = data[offset + 3] as number;
  if ((flags & GZIP_FLAGS.reserved) !== 0) return 'gzip header has reserved flag bits set';
  let at = offset + 10;
  if ((flags & GZIP_FLAGS.extra) !== 0) at += 2 + (data.length >= at + 2 ? data.readUInt16LE(at) : 0);
  if ((flags & GZIP_FLAGS.name) !== 0) at = data.indexOf(0, at) + 1;
  if ((flags & GZIP_FLAGS.comment) !== 0 && at > 0) at = data.indexOf(0, at) + 1;
  if ((flags & GZIP_FLAGS.headerCrc) !== 0 && at > 0) at += 2;
  if (at <= 0 || at > data.length) return 'gzip member is truncated in its header';
  return at - offset;
}

/** The one record a member holds; anything else in it is a problem. */
function readMemberRecord(content: Buffer, offset: number, length: number, file: WarcFileRead): void {
  const where = `at ${offset}`;
  const head = parseHead(content, 0);
  if (head.kind === 'none') {
    file.problems.push(`${where}: gzip member does not start with a WARC record (a record split over members?)`);
    return;
  }
  if (head.kind === 'short') {
    file.problems.push(`${where}: gzip member ends inside a WARC header (a record split over members?)`);
    return;
  }
  const problems: string[] = [...head.problems];
  const block = memberBlock(content, head, problems);
  if (block === undefined) {
    file.problems.push(...problems.map((problem) => `${where}: ${problem}`));
    return;
  }
  addRecord(file, { offset, length, head, block }, problems);
}

/**
 * The block of the member's record. The member's end is the record's end, so the block is what
 * lies between the header and the final `\r\n\r\n` whatever Content-Length says (a wrong one is
 * reported against it). `undefined` when the member holds more than that record, or less.
 */
function memberBlock(content: Buffer, head: ParsedHead, problems: string[]): Buffer | undefined {
  const declared = declaredLength(head.fields);
  if (declared !== undefined && head.blockStart + declared + 4 < content.length) {
    const after = head.blockStart + declared;
    if (content.subarray(after, after + NEXT_RECORD.length).equals(NEXT_RECORD)) {
      problems.push(`gzip member holds more than one record (a second one starts at byte ${after + 4} of the member)`);
      return undefined;
    }
  }
  if (!endsWith(content, HEAD_END) || content.length - 4 < head.blockStart) {
    // Its block cannot be told: no digest is checked against a piece of it.
    const have = content.length - head.blockStart;
    problems.push(
      `record is not whole in its gzip member: Content-Length ${declared ?? '?'}, ${have} bytes of block and no \\r\\n\\r\\n at the member's end (split over members?)`,
    );
    return undefined;
  }
  const block = content.subarray(head.blockStart, content.length - 4);
  if (declared !== undefined && declared !== block.length) {
    problems.push(
      `Content-Length ${declared} does not match the block: ${block.length} bytes before the \\r\\n\\r\\n that ends the gzip member`,
    );
  }
  return block;
}

/** Reads a plain `.warc` file record after record; returns 0 (no gzip members). */
function readPlain(data: Buffer, file: WarcFileRead): number {
  // Each turn moves past one record (its header at least) or stops.
  for (let offset = 0; offset < data.length; ) {
    const end = readPlainRecord(data, offset, file);
    if (end === undefined) break;
    offset = end;
  }
  return 0;
}

/** Reads the record at `offset`; returns where the next one starts, `undefined` to stop. */
function readPlainRecord(data: Buffer, offset: number, file: WarcFileRead): number | undefined {
  const head = parseHead(data, offset);
  if (head.kind === 'none') {
    file.problems.push(`at ${offset}: ${data.length - offset} bytes of trailing garbage (not a WARC record)`);
    return undefined;
  }
  if (head.kind === 'short') {
    file.problems.push(`at ${offset}: the file ends inside a WARC header (a truncated record)`);
    return undefined;
  }
  const problems: string[] = [...head.problems];
  const span = plainBlock(data, head, problems);
  if (span === undefined) {
    file.problems.push(...problems.map((problem) => `at ${offset}: ${problem}`));
    return undefined;
  }
  addRecord(
    file,
    { offset, length: span.end - offset, head, block: data.subarray(head.blockStart, span.blockEnd) },
    problems,
  );
  return span.end;
}

/**
 * Where the record's block ends and the next record starts. When Content-Length does not lead to
 * `\r\n\r\n`, the block is taken to run to the next record (or the end of the file), so that one
 * wrong length is one problem and the records after it are still read.
 */
function plainBlock(data: Buffer, head: ParsedHead, problems: string[]): { blockEnd: number; end: number } | undefined {
  const declared = declaredLength(head.fields);
  if (declared !== undefined) {
    const blockEnd = head.blockStart + declared;
    if (blockEnd + 4 <= data.length && data.subarray(blockEnd, blockEnd + 4).equals(HEAD_END))
      return { blockEnd, end: blockEnd + 4 };
  }
  const next = data.indexOf(NEXT_RECORD, head.blockStart);
  const blockEnd = next !== -1 ? next : endsWith(data, HEAD_END) ? data.length - 4 : -1;
  if (blockEnd < head.blockStart) {
    const have = data.length - head.blockStart;
    problems.push(
      `the file ends inside the record (a truncated record): Content-Length ${declared ?? '?'}, ${have} bytes of block and no \\r\\n\\r\\n after it`,
    );
    return undefined;
  }
  if (declared !== undefined) {
    problems.push(
      `Content-Length ${declared} does not match the block: ${blockEnd - head.blockStart} bytes before ${next !== -1 ? 'the next record' : 'the end of the file'}`,
    );
  }
  return { blockEnd, end: blockEnd + 4 };
}

// ---------------------------------------------------------------------------------------------
// The WARC header.

type Head =
  | {
      readonly kind: 'head';
      readonly version: string;
      readonly fields: Field[];
      readonly blockStart: number;
      readonly problems: string[];
    }
  | { readonly kind: 'none' }
  | { readonly kind: 'short' };
type ParsedHead = Extract<Head, { kind: 'head' }>;

/** The WARC header at `start`: version line, named fields, the empty line. */
function parseHead(data: Buffer, start: number): Head {
  if (!data.subarray(start, start + 5).equals(Buffer.from('WARC/'))) {
    // A record cut inside its very first bytes is truncated, not garbage.
    return data.length - start < 5 &&
      Buffer.from('WARC/')
        .subarray(0, data.length - start)
        .equals(data.subarray(start))
      ? { kind: 'short' }
      : { kind: 'none' };
  }
  const end = data.subarray(start, start + MAX_HEAD_BYTES).indexOf(HEAD_END);
  if (end === -1) return data.length - start < MAX_HEAD_BYTES ? { kind: 'short' } : { kind: 'none' };
  const problems: string[] = [];
  const text = decodeUtf8(data.subarray(start, start + end), problems);
  const [version = '', ...lines] = text.split('\r\n');
  if (version !== 'WARC/1.1') problems.push(`version line is ${JSON.stringify(version)}, not WARC/1.1`);
  return {
    kind: 'head',
    version,
    fields: parseFields(lines, problems, 'WARC header'),
    blockStart: start + end + 4,
    problems,
  };
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Named fields (`Name: value`), a line starting with a space or tab continuing the one before. */
function parseFields(lines: readonly string[], problems: string[], what: string): Field[] {
  const fields: Field[] = [];
  for (const line of lines) {
    if (/[\r\n]/.test(line)) problems.push(`${what} has a line break that is not CRLF: ${JSON.stringify(line)}`);
    const previous = fields[fields.length - 1];
    if ((line.startsWith(' ') || line.startsWith('\t')) && previous !== undefined) {
      previous[1] = `${previous[1]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon);
    if (!TOKEN.test(name)) {
      problems.push(`${what} line is not a named field: ${JSON.stringify(line)}`);
      continue;
    }
    fields.push([name, line.slice(colon + 1).trim()]);
  }
  return fields;
}

function decodeUtf8(bytes: Buffer, problems: string[]): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    problems.push('WARC header is not valid UTF-8');
    return bytes.toString('utf8');
  }
}

function declaredLength(fields: readonly Field[]): number | undefined {
  const value = fieldOf(fields, 'Content-Length');
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

// ---------------------------------------------------------------------------------------------
// One record's checks.

interface Located {
  readonly offset: number;
  readonly length: number;
  readonly head: ParsedHead;
  readonly block: Buffer;
}

function addRecord(file: WarcFileRead, located: Located, problems: string[]): void {
  const { head, block } = located;
  const fields = head.fields;
  const type = fieldOf(fields, 'WARC-Type') ?? '';
  checkFields(fields, type, problems);
  checkDigest(fields, 'WARC-Block-Digest', block, problems);
  const http = httpOf(fields, type, block, problems);
  checkPayload(fields, type, block, http, problems);
  const record: WarcRecordRead = {
    offset: located.offset,
    length: located.length,
    version: head.version,
    headers: fields,
    header: (name) => fieldOf(fields, name),
    type,
    block,
    ...(http === undefined ? {} : { http }),
  };
  file.records.push(record);
  file.problems.push(...problems.map((problem) => `at ${located.offset}: ${problem}`));
}

const MANDATORY = ['WARC-Record-ID', 'Content-Length', 'WARC-Date', 'WARC-Type'] as const;
const RECORD_ID = /^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}>$/i;
const WARC_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;
const TRUNCATED_REASONS = new Set(['length', 'time', 'disconnect', 'unspecified']);
const NEEDS_TARGET = new Set(['response', 'resource', 'request', 'revisit', 'conversion', 'continuation']);
const URI_FIELDS = ['WARC-Concurrent-To', 'WARC-Refers-To', 'WARC-Warcinfo-ID'] as const;

function checkFields(fields: Field[], type: string, problems: string[]): void {
  for (const name of MANDATORY)
    if (fieldOf(fields, name) === undefined) problems.push(`mandatory field ${name} is missing`);
  checkRepeats(fields, problems);
  const id = fieldOf(fields, 'WARC-Record-ID');
  if (id !== undefined && !RECORD_ID.test(id))
    problems.push(`WARC-Record-ID ${JSON.stringify(id)} is not <urn:uuid:…>`);
  const length = fieldOf(fields, 'Content-Length');
  if (length !== undefined && !/^\d{1,15}$/.test(length))
    problems.push(`Content-Length ${JSON.stringify(length)} is not a number of bytes`);
  const date = fieldOf(fields, 'WARC-Date');
  if (date !== undefined && !isWarcDate(date))
    problems.push(`WARC-Date ${JSON.stringify(date)} is not a UTC date YYYY-MM-DDThh:mm:ss[.fraction]Z`);
  const truncated = fieldOf(fields, 'WARC-Truncated');
  if (truncated !== undefined && !TRUNCATED_REASONS.has(truncated))
    problems.push(`WARC-Truncated ${JSON.stringify(truncated)} is not length, time, disconnect or unspecified`);
  checkTypeFields(fields, type, problems);
  for (const [name, value] of fields) {
    if (URI_FIELDS.some((uriField) => sameName(uriField, name)) && !/^<[^<>\s]+>$/.test(value))
      problems.push(`${name} ${JSON.stringify(value)} is not <uri>`);
  }
}

/** The spec allows no field twice in a record, but WARC-Concurrent-To. */
function checkRepeats(fields: Field[], problems: string[]): void {
  const seen = new Set<string>();
  for (const [name] of fields) {
    const key = name.toLowerCase();
    if (seen.has(key) && key !== 'warc-concurrent-to') problems.push(`field ${name} is repeated`);
    seen.add(key);
  }
}

/** A real date and time, not only the right shape (no month 13, no February 30). */
function isWarcDate(value: string): boolean {
  const match = WARC_DATE.exec(value);
  if (match === null) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const when = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    when.getUTCFullYear() === year &&
    when.getUTCMonth() === month - 1 &&
    when.getUTCDate() === day &&
    when.getUTCHours() === hour &&
    when.getUTCMinutes() === minute &&
    when.getUTCSeconds() === second
  );
}

/** Fields a record type requires or forbids. */
function checkTypeFields(fields: Field[], type: string, problems: string[]): void {
  const target = fieldOf(fields, 'WARC-Target-URI');
  if (NEEDS_TARGET.has(type) && target === undefined) problems.push(`a ${type} record needs WARC-Target-URI`);
  if (type === 'warcinfo' && target !== undefined) problems.push('a warcinfo record must not have WARC-Target-URI');
  if (target !== undefined && !isAbsoluteUri(target))
    problems.push(`WARC-Target-URI ${JSON.stringify(target)} is not an absolute URI without whitespace`);
  if (type !== 'warcinfo' && fieldOf(fields, 'WARC-Filename') !== undefined)
    problems.push(`a ${type} record must not have WARC-Filename`);
  if (type === 'revisit' && fieldOf(fields, 'WARC-Profile') === undefined)
    problems.push('a revisit record needs WARC-Profile');
  const length = declaredLength(fields);
  if (length !== undefined && length > 0 && fieldOf(fields, 'Content-Type') === undefined && type !== 'continuation') {
    problems.push(`a ${type} record with a block should have Content-Type`);
  }
}

function isAbsoluteUri(value: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(value);
}

// ---------------------------------------------------------------------------------------------
// Digests.

const DIGEST_SIZES: Readonly<Record<string, number>> = { sha1: 20, sha256: 32 };

/** Checks a labelled digest field against `bytes`; nothing when the field is absent. */
function checkDigest(fields: Field[], name: string, bytes: Buffer, problems: string[]): void {
  const value = fieldOf(fields, name);
  if (value === undefined) return;
  const parsed = parseDigest(value);
  if (typeof parsed === 'string') {
    problems.push(`${name} ${JSON.stringify(value)}: ${parsed}`);
    return;
  }
  const actual = createHash(parsed.algorithm).update(bytes).digest();
  if (!actual.equals(parsed.bytes)) {
    problems.push(
      `${name} ${value} does not match: the ${name === 'WARC-Block-Digest' ? 'block' : 'payload'} hashes to ${parsed.algorithm}:${actual.toString('hex')}`,
    );
  }
}

/** `sha256:<hex>`, `sha1:<base32>`…: the algorithm and the digest's bytes, or what is wrong. */
function parseDigest(value: string): { algorithm: string; bytes: Buffer } | string {
  const colon = value.indexOf(':');
  const algorithm = value.slice(0, colon).toLowerCase();
  const text = value.slice(colon + 1);
  const size = DIGEST_SIZES[algorithm];
  if (colon === -1 || size === undefined) return 'not a sha1: or sha256: labelled digest (cannot be checked)';
  if (text.length === size * 2 && /^[0-9a-fA-F]+$/.test(text)) return { algorithm, bytes: Buffer.from(text, 'hex') };
  const base32 = decodeBase32(text);
  if (base32 !== undefined && base32.length === size) return { algorithm, bytes: base32 };
  return `not a ${algorithm} digest in hex or base32`;
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (any case, padding optional); `undefined` for anything else. */
function decodeBase32(text: string): Buffer | undefined {
  const digits = text.toUpperCase().replace(/=+$/, '');
  const bytes: number[] = [];
  let bits = 0;
  let buffer = 0;
  for (const char of digits) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value === -1) return undefined;
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** WARC-Payload-Digest against the payload, where the record holds it. */
function checkPayload(
  fields: Field[],
  type: string,
  block: Buffer,
  http: WarcHttpRead | undefined,
  problems: string[],
): void {
  const digest = fieldOf(fields, 'WARC-Payload-Digest');
  if (type === 'revisit') {
    // A revisit's payload is the earlier record's: its digest names content that is not here.
    const profile = fieldOf(fields, 'WARC-Profile') ?? '';
    if (profile.endsWith('/identical-payload-digest') && digest === undefined)
      problems.push('an identical-payload-digest revisit needs WARC-Payload-Digest');
    const parsed = digest === undefined ? undefined : parseDigest(digest);
    if (typeof parsed === 'string') problems.push(`WARC-Payload-Digest ${JSON.stringify(digest)}: ${parsed}`);
    return;
  }
  if (digest === undefined) return;
  if (type === 'warcinfo' || type === 'metadata') {
    problems.push(`a ${type} record has no payload, so no WARC-Payload-Digest`);
    return;
  }
  if (http !== undefined) checkDigest(fields, 'WARC-Payload-Digest', http.payload, problems);
  else if (isHttpBlock(fields)) problems.push('WARC-Payload-Digest cannot be checked: the HTTP head does not parse');
  else checkDigest(fields, 'WARC-Payload-Digest', block, problems);
}

// ---------------------------------------------------------------------------------------------
// The HTTP message of an application/http block.

const HTTP_TYPES = new Set(['response', 'request', 'revisit']);
const STATUS_LINE = /^HTTP\/\d(?:\.\d)? \d{3}(?: [^\r\n]*)?$/;
const REQUEST_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ \S+ HTTP\/\d(?:\.\d)?$/;

function isHttpBlock(fields: Field[]): boolean {
  return mediaType(fieldOf(fields, 'Content-Type')).type === 'application/http';
}

/** The HTTP message of a response, request or revisit record whose Content-Type is application/http. */
function httpOf(fields: Field[], type: string, block: Buffer, problems: string[]): WarcHttpRead | undefined {
  const media = mediaType(fieldOf(fields, 'Content-Type'));
  if (!HTTP_TYPES.has(type) || media.type !== 'application/http') return undefined;
  if (type === 'revisit' && block.length === 0) return undefined;
  const msgtype = media.params.get('msgtype') ?? (type === 'request' ? 'request' : 'response');
  if ((type === 'request') !== (msgtype === 'request'))
    problems.push(`a ${type} record's Content-Type says msgtype=${msgtype}`);
  const headEnd = block.subarray(0, MAX_HEAD_BYTES).indexOf(HEAD_END);
  if (headEnd === -1) {
    problems.push('the HTTP head has no end (no empty line)');
    return undefined;
  }
  // HTTP heads are bytes; latin1 keeps each one as a character.
  const [startLine = '', ...lines] = block.subarray(0, headEnd).toString('latin1').split('\r\n');
  const pattern = msgtype === 'request' ? REQUEST_LINE : STATUS_LINE;
  if (!pattern.test(startLine))
    problems.push(
      `HTTP ${msgtype === 'request' ? 'request' : 'status'} line ${JSON.stringify(startLine)} does not parse`,
    );
  const headers = parseFields(lines, problems, 'HTTP head');
  const bodyOffset = headEnd + 4;
  const header = (name: string): string | undefined => fieldOf(headers, name);
  const payload = httpPayload(block.subarray(bodyOffset), header, problems);
  if (type !== 'revisit' && fieldOf(fields, 'WARC-Truncated') === undefined)
    checkBody(payload, startLine, header, problems);
  return { startLine, headers, header, bodyOffset, payload };
}

/** The body with the chunked transfer coding removed, when the head says it is chunked. */
function httpPayload(body: Buffer, header: (name: string) => string | undefined, problems: string[]): Buffer {
  const codings = (header('Transfer-Encoding') ?? '').toLowerCase();
  if (!codings.split(',').some((coding) => coding.trim() === 'chunked')) return body;
  const decoded = dechunk(body);
  if (decoded === undefined) {
    problems.push('the HTTP head says Transfer-Encoding: chunked, but the body is not chunked');
    return body;
  }
  return decoded;
}

/** Decodes a chunked body (RFC 9112 §7.1); `undefined` if it is not one. */
function dechunk(body: Buffer): Buffer | undefined {
  const chunks: Buffer[] = [];
  // Each turn takes one chunk (at least its size line) or stops.
  for (let at = 0; at < body.length; ) {
    const lineEnd = body.indexOf(CRLF, at);
    if (lineEnd === -1) return undefined;
    const sizeText = body.subarray(at, lineEnd).toString('latin1').split(';', 1)[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]{1,12}$/.test(sizeText)) return undefined;
    const size = Number.parseInt(sizeText, 16);
    if (size === 0) return Buffer.concat(chunks);
    const dataEnd = lineEnd + 2 + size;
    if (!body.subarray(dataEnd, dataEnd + 2).equals(CRLF)) return undefined;
    chunks.push(body.subarray(lineEnd + 2, dataEnd));
    at = dataEnd + 2;
  }
  return undefined;
}

const BODILESS = /^HTTP\/\S+ (1\d\d|204|304)\b/;

/** A whole body agrees with its head: Content-Length, Content-Encoding. */
function checkBody(
  payload: Buffer,
  startLine: string,
  header: (name: string) => string | undefined,
  problems: string[],
): void {
  if (payload.length === 0) return; // a HEAD request's answer, or an empty body: nothing to compare
  if (BODILESS.test(startLine))
    problems.push(`a ${startLine.split(' ')[1] ?? ''} response has a body of ${payload.length} bytes`);
  const length = header('Content-Length');
  if (length !== undefined && header('Transfer-Encoding') === undefined && Number(length) !== payload.length) {
    problems.push(`HTTP Content-Length ${length} does not match the body of ${payload.length} bytes`);
  }
  const coding = (header('Content-Encoding') ?? '').trim().toLowerCase();
  const decode = CONTENT_DECODERS[coding];
  if (decode === undefined) return;
  try {
    decode(payload);
  } catch (error) {
    problems.push(`the HTTP head says Content-Encoding: ${coding}, but the body does not decode (${errorText(error)})`);
  }
}

const CONTENT_DECODERS: Readonly<Record<string, (data: Buffer) => Buffer>> = {
  gzip: (data) => gunzipSync(data),
  'x-gzip': (data) => gunzipSync(data),
  deflate: (data) => inflateSync(data),
  br: (data) => brotliDecompressSync(data),
};

/** `application/http; msgtype=response` → its type and parameters (lower-cased names, unquoted values). */
function mediaType(value: string | undefined): { type: string; params: Map<string, string> } {
  const [type = '', ...params] = (value ?? '').split(';');
  const map = new Map<string, string>();
  for (const param of params) {
    const equals = param.indexOf('=');
    if (equals === -1) continue;
    map.set(
      param.slice(0, equals).trim().toLowerCase(),
      param
        .slice(equals + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase(),
    );
  }
  return { type: type.trim().toLowerCase(), params: map };
}

// ---------------------------------------------------------------------------------------------
// Whole-file checks, and across files.

/** A warcinfo record first, naming this file; record IDs unique in the file. */
function checkFile(file: WarcFileRead): void {
  const first = file.records[0];
  if (first === undefined) {
    if (file.problems.length === 0) file.problems.push('at 0: the file holds no record');
  } else if (first.type !== 'warcinfo') {
    file.problems.push(`at ${first.offset}: the first record is ${first.type || 'untyped'}, not warcinfo`);
  } else {
    checkWarcinfo(first, basename(file.path), file.problems);
  }
  const seen = new Map<string, number>();
  for (const record of file.records) {
    const id = record.header('WARC-Record-ID');
    if (id === undefined) continue;
    const earlier = seen.get(id);
    if (earlier !== undefined)
      file.problems.push(`at ${record.offset}: WARC-Record-ID ${id} is already the ID of the record at ${earlier}`);
    else seen.set(id, record.offset);
  }
}

function checkWarcinfo(record: WarcRecordRead, name: string, problems: string[]): void {
  const type = mediaType(record.header('Content-Type')).type;
  if (type !== 'application/warc-fields')
    problems.push(
      `at ${record.offset}: warcinfo Content-Type is ${JSON.stringify(record.header('Content-Type') ?? '')}, not application/warc-fields`,
    );
  const filename = record.header('WARC-Filename');
  if (filename !== name)
    problems.push(
      `at ${record.offset}: warcinfo WARC-Filename is ${JSON.stringify(filename ?? '')}, not the file's name ${JSON.stringify(name)}`,
    );
}

/**
 * What only the whole set of a crawl's files can tell: every WARC-Concurrent-To, WARC-Refers-To
 * and WARC-Warcinfo-ID names a record in one of them, and no record ID is in two places.
 */
export function checkReferences(files: readonly WarcFileRead[]): string[] {
  const problems: string[] = [];
  const where = new Map<string, string>();
  for (const file of files) {
    for (const record of file.records) {
      const id = record.header('WARC-Record-ID');
      const here = `${basename(file.path)} at ${record.offset}`;
      if (id === undefined) continue;
      const earlier = where.get(id);
      // Duplicates within one file are readWarcFile's to report; across files, here.
      if (earlier !== undefined && !earlier.startsWith(`${basename(file.path)} `))
        problems.push(`${here}: WARC-Record-ID ${id} is also the ID of ${earlier}`);
      if (earlier === undefined) where.set(id, here);
    }
  }
  for (const file of files) {
    for (const record of file.records) {
      for (const [name, value] of record.headers) {
        if (URI_FIELDS.some((field) => sameName(field, name)) && !where.has(value)) {
          problems.push(`${basename(file.path)} at ${record.offset}: ${name} ${value} names no record in these files`);
        }
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// A third-party opinion.

export interface WarcioRecord {
  readonly type: string | undefined;
  readonly targetUri: string | undefined;
  readonly payloadDigest: string | undefined;
  /** The payload as warcio reads it: the block after the HTTP head (raw, not content-decoded). */
  readonly payload: Uint8Array;
}

/** Reads the file with warcio's WARCParser (Webrecorder's reader), for tests to compare with readWarcFile. */
export async function readWithWarcio(path: string): Promise<WarcioRecord[]> {
  const parser = new WARCParser(createReadStream(path), { keepHeadersCase: true });
  const records: WarcioRecord[] = [];
  for await (const record of parser) {
    const payload = await record.readFully();
    records.push({
      type: record.warcType,
      targetUri: record.warcTargetURI ?? undefined,
      payloadDigest: record.warcPayloadDigest ?? undefined,
      payload,
    });
  }
  return records;
}

// ---------------------------------------------------------------------------------------------

function fieldOf(fields: readonly Field[], name: string): string | undefined {
  return fields.find(([fieldName]) => sameName(fieldName, name))?.[1];
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function endsWith(data: Buffer, suffix: Buffer): boolean {
  return data.length >= suffix.length && data.subarray(data.length - suffix.length).equals(suffix);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
