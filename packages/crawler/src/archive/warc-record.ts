// One WARC record as bytes (ISO 28500, WARC/1.1): the header block, the content block, the two
// CRLFs that end it. Pure: the caller gives the block; the digests and the length are computed
// here, over exactly the bytes written, so they always agree with the file.
//
// Digests are SHA-256 in lowercase hex (`sha256:…`), as Webrecorder's tools write them.

import { createHash, randomUUID } from 'node:crypto';

export type WarcRecordType = 'warcinfo' | 'response' | 'request' | 'revisit';

export interface WarcRecordInput {
  readonly type: WarcRecordType;
  /** `<urn:uuid:…>` (warcRecordId()). */
  readonly id: string;
  /** When capture began (ms since the epoch). */
  readonly date: number;
  /** The other named fields, in the order written (WARC-Target-URI, WARC-IP-Address, …). */
  readonly fields: readonly (readonly [string, string])[];
  readonly contentType: string;
  /** The content block, in parts (an HTTP head, then its payload). */
  readonly block: readonly Uint8Array[];
  /**
   * `WARC-Payload-Digest`: the digest of these parts (the HTTP payload within the block), or a
   * digest given as is (a revisit's, whose payload is not in its block). Omitted when undefined.
   */
  readonly payload?: { readonly parts: readonly Uint8Array[] } | { readonly digest: string };
}

export interface WarcRecordBytes {
  /** The record, ready to append. */
  readonly parts: readonly Uint8Array[];
  readonly length: number;
  /** The payload digest written, if any. */
  readonly payloadDigest: string | undefined;
}

const CRLF = '\r\n';
const END_OF_RECORD = Buffer.from('\r\n\r\n', 'latin1');

export function warcRecordId(): string {
  return `<urn:uuid:${randomUUID()}>`;
}

/** `sha256:<hex>` of the parts, taken as one byte string. */
export function sha256Digest(parts: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return `sha256:${hash.digest('hex')}`;
}

/** WARC/1.1 dates are W3C ISO-8601 in UTC, a fraction of a second allowed. */
export function warcDate(ms: number): string {
  return new Date(ms).toISOString();
}

export function warcRecordBytes(input: WarcRecordInput): WarcRecordBytes {
  const blockLength = input.block.reduce((sum, part) => sum + part.length, 0);
  const payloadDigest =
    input.payload === undefined
      ? undefined
      : 'digest' in input.payload
        ? input.payload.digest
        : sha256Digest(input.payload.parts);
  let head = `WARC/1.1${CRLF}WARC-Type: ${input.type}${CRLF}WARC-Record-ID: ${input.id}${CRLF}WARC-Date: ${warcDate(input.date)}${CRLF}`;
  for (const [name, value] of input.fields) head += `${name}: ${oneLine(value)}${CRLF}`;
  head += `Content-Type: ${input.contentType}${CRLF}`;
  if (payloadDigest !== undefined) head += `WARC-Payload-Digest: ${payloadDigest}${CRLF}`;
  head += `WARC-Block-Digest: ${sha256Digest(input.block)}${CRLF}`;
  head += `Content-Length: ${blockLength}${CRLF}${CRLF}`;
  // Header values are ASCII (URLs are serialised percent-encoded); UTF-8 keeps anything else whole.
  const headBytes = Buffer.from(head, 'utf8');
  return {
    parts: [headBytes, ...input.block, END_OF_RECORD],
    length: headBytes.length + blockLength + END_OF_RECORD.length,
    payloadDigest,
  };
}

/** A field value never spans lines: a CR or LF in it would forge a field. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/** `application/warc-fields` text: one `name: value` line per field. */
export function warcFieldsBlock(fields: readonly (readonly [string, string])[]): Uint8Array {
  return Buffer.from(fields.map(([name, value]) => `${name}: ${oneLine(value)}${CRLF}`).join(''), 'utf8');
}
