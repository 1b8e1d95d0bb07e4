// The records of one HTTP exchange: the response (or a revisit in its place) and the request
// that asked for it, tied by WARC-Concurrent-To. Pure: what to write is decided by `kind`; the
// archive (warc-archive.ts) decides the kind from what it has written before.

import { type HttpExchange, maskHttpHead } from '@politely/core';
import { sha256Digest, type WarcRecordBytes, warcRecordBytes, warcRecordId } from './warc-record.js';

/** The content types of HTTP blocks (WARC 1.1 §6.3). */
const HTTP_RESPONSE = 'application/http;msgtype=response';
const HTTP_REQUEST = 'application/http;msgtype=request';

/** WARC 1.1 revisit profiles. */
export const IDENTICAL_PAYLOAD_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';
export const NOT_MODIFIED_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

/** A capture the archive holds in full: what a revisit of its URL refers to. */
export interface ArchivedCapture {
  readonly id: string;
  readonly date: number;
  readonly payloadDigest: string;
}

/** What the response record is. */
export type ResponseKind =
  /** The response whole: head and payload. */
  | { readonly kind: 'response' }
  /** The same payload as `original`: its head only. */
  | { readonly kind: 'identical'; readonly original: ArchivedCapture }
  /** A 304 to a conditional request: its head only; `original` is the capture it revalidated, when known. */
  | { readonly kind: 'not-modified'; readonly original: ArchivedCapture | undefined };

export interface ExchangeRecords {
  readonly response: WarcRecordBytes & { readonly id: string; readonly type: 'response' | 'revisit' };
  readonly request: WarcRecordBytes & { readonly id: string };
  /** The response's payload digest (`sha256:…`; of the empty payload for a 304). */
  readonly payloadDigest: string;
}

/**
 * The response head as received, minus a chunked Transfer-Encoding: the payload is kept after
 * de-chunking, and a head still saying `chunked` would make readers de-chunk it again (the two
 * ways archives agree on are raw chunks with the header, or no chunks without it).
 */
export function responseHead(exchange: HttpExchange): Uint8Array {
  // The space after the code stays when the reason phrase is empty (RFC 9112 §4).
  let head = `HTTP/1.1 ${exchange.status} ${exchange.statusText}\r\n`;
  for (const [name, value] of exchange.rawHeaders) {
    if (name.toLowerCase() === 'transfer-encoding' && /(^|,)\s*chunked\s*$/i.test(value)) continue;
    head += `${name}: ${value}\r\n`;
  }
  return Buffer.from(`${head}\r\n`, 'latin1');
}

/** Whether a request head carries validators (a revalidation: its 304 is a not-modified revisit). */
export function isConditional(exchange: HttpExchange): boolean {
  return /\r\n(if-none-match|if-modified-since)\s*:/i.test(exchange.requestHead);
}

export function payloadDigestOf(exchange: HttpExchange): string {
  return sha256Digest([exchange.payload]);
}

export function exchangeRecords(
  url: string,
  exchange: HttpExchange,
  kind: ResponseKind,
  payloadDigest: string,
): ExchangeRecords {
  const date = exchange.sentAt;
  const responseId = warcRecordId();
  const head = responseHead(exchange);
  const common: (readonly [string, string])[] = [['WARC-Target-URI', url]];
  if (exchange.remoteAddress !== undefined) common.push(['WARC-IP-Address', exchange.remoteAddress]);
  let response: WarcRecordBytes & { readonly type: 'response' | 'revisit' };
  if (kind.kind === 'response') {
    const fields =
      exchange.truncated === undefined ? common : [...common, ['WARC-Truncated', exchange.truncated] as const];
    response = {
      ...warcRecordBytes({
        type: 'response',
        id: responseId,
        date,
        fields,
        contentType: HTTP_RESPONSE,
        block: [head, exchange.payload],
        payload: { digest: payloadDigest },
      }),
      type: 'response',
    };
  } else {
    const profile = kind.kind === 'identical' ? IDENTICAL_PAYLOAD_PROFILE : NOT_MODIFIED_PROFILE;
    const fields: (readonly [string, string])[] = [...common, ['WARC-Profile', profile]];
    if (kind.original !== undefined) {
      fields.push(
        ['WARC-Refers-To', kind.original.id],
        ['WARC-Refers-To-Target-URI', url],
        ['WARC-Refers-To-Date', new Date(kind.original.date).toISOString()],
      );
    }
    // identical-payload-digest names the payload it stands for; a 304 has none of its own.
    const payload =
      kind.kind === 'identical'
        ? { digest: payloadDigest }
        : kind.original === undefined
          ? undefined
          : { digest: kind.original.payloadDigest };
    response = {
      ...warcRecordBytes({
        type: 'revisit',
        id: responseId,
        date,
        fields,
        contentType: HTTP_RESPONSE,
        block: [head],
        ...(payload === undefined ? {} : { payload }),
      }),
      type: 'revisit',
    };
  }
  const requestId = warcRecordId();
  const request = warcRecordBytes({
    type: 'request',
    id: requestId,
    date,
    fields: [...common, ['WARC-Concurrent-To', responseId]],
    contentType: HTTP_REQUEST,
    // The request as sent, but for the values of credential headers (Authorization, Cookie, …):
    // an archive is shared, and replay needs none of them.
    block: [Buffer.from(maskHttpHead(exchange.requestHead), 'latin1')],
  });
  return { response: { ...response, id: responseId }, request: { ...request, id: requestId }, payloadDigest };
}
