// Reading a response body with a hard cap on DECODED bytes: a compression bomb stops at the cap,
// and whatever lies beyond it is never read (the streams are destroyed).

import { pipeline, type Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import { PolitelyError } from '../errors.js';

/** A cap on a response body's decoded bytes, and what to do at the cap: keep what was read or fail. */
export interface BodyLimit {
  /** Decoded bytes kept at most. */
  readonly maxBytes: number;
  /** At the cap: keep what was read (`truncate`, as for robots.txt) or fail (`fail`). */
  readonly atLimit: 'truncate' | 'fail';
}

export interface ReadBody {
  readonly body: Uint8Array;
  /** The body went on past the cap and was cut there (only with `atLimit: 'truncate'`). */
  readonly truncated: boolean;
  /** The body went through content decoders: `body` is not the bytes received. */
  readonly decoded: boolean;
}

export interface ReadBodyOptions {
  /**
   * Called with the body as received (content codings kept), chunk by chunk, for an archive.
   * Never past the cap on received bytes, so what it keeps stays bounded: `limit.maxBytes` for a
   * body without content coding (the chunks are the body's own), `wireCapOf(limit)` for an
   * encoded one. On a failure it has had everything read up to that point.
   */
  readonly onRawChunk?: (chunk: Uint8Array) => void;
}

/** The most bytes of an encoded body read off the wire: the decoded cap plus the decoders' slack. */
function wireCapOf(limit: BodyLimit): number {
  return limit.maxBytes + WIRE_SLACK_BYTES;
}

export async function readBody(
  raw: Readable,
  contentEncoding: string | undefined,
  limit: BodyLimit,
  options: ReadBodyOptions = {},
): Promise<ReadBody> {
  // We destroy the body early (at the cap, or for an encoding we cannot decode); the error that
  // destroying emits is expected, and must not surface as an unhandled 'error' event.
  raw.on('error', ignore);
  let decoders: Transform[];
  try {
    decoders = decodersFor(contentEncoding);
  } catch (error) {
    raw.destroy();
    throw error;
  }
  // Encoded bodies are capped twice: decoded (a bomb) and as received, since a compressed stream
  // of empty blocks decodes to nothing and would otherwise stream until the deadline. Compression
  // never expands real data by more than a few bytes per block, so with the slack (the decoders'
  // buffers) an honest body always meets the decoded cap first.
  const decoded = decoders.length > 0;
  const wireMeter = decoded ? meterWireBytes(wireCapOf(limit), options.onRawChunk) : undefined;
  // Without decoders the chunks read below are the raw ones: they are handed on there, as kept.
  const keepRaw = decoded ? undefined : options.onRawChunk;
  // pipeline() wires errors through the chain (they surface when reading the last decoder).
  if (wireMeter !== undefined) pipeline([raw, wireMeter, ...decoders], () => {});
  const source: Readable = decoders.at(-1) ?? raw;
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  try {
    for await (const chunk of source) {
      const bytes = chunk as Uint8Array;
      const room = limit.maxBytes - length;
      if (bytes.length > room) {
        keepRaw?.(bytes.subarray(0, room));
        if (limit.atLimit === 'fail') {
          throw new PolitelyError('ERR_BODY_TOO_LARGE', `body larger than ${limit.maxBytes} bytes`);
        }
        chunks.push(bytes.subarray(0, room));
        length += room;
        truncated = true;
        break;
      }
      keepRaw?.(bytes);
      chunks.push(bytes);
      length += bytes.length;
    }
  } catch (error) {
    if (!(error instanceof WireLimitError)) throw error;
    if (limit.atLimit === 'fail') throw new PolitelyError('ERR_BODY_TOO_LARGE', error.message);
    truncated = true;
  } finally {
    raw.destroy();
    source.destroy();
  }
  return { body: concat(chunks, length), truncated, decoded };
}

export function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.length === length) return chunks[0]!;
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/** Decoders for a Content-Encoding list, in decoding order (the reverse of applying order). */
function decodersFor(contentEncoding: string | undefined): Transform[] {
  // Most bodies have no coding: no split, map and filter for them.
  if (contentEncoding === undefined || contentEncoding === '') return [];
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  return codings.reverse().map((coding) => {
    if (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate') return createUnzip();
    if (coding === 'br') return createBrotliDecompress();
    throw new PolitelyError('ERR_FETCH_FAILED', `unsupported content-encoding ${JSON.stringify(coding)}`);
  });
}

const WIRE_SLACK_BYTES = 256 * 1024;

class WireLimitError extends Error {}

/**
 * Passes bytes through until more than `maxBytes` went by, then fails the pipeline. `onChunk`
 * sees every byte that went by, up to exactly `maxBytes`.
 */
function meterWireBytes(maxBytes: number, onChunk: ((chunk: Uint8Array) => void) | undefined): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const room = maxBytes - seen;
      seen += chunk.length;
      if (seen > maxBytes) {
        if (room > 0) onChunk?.(chunk.subarray(0, room));
        callback(new WireLimitError(`encoded body larger than ${maxBytes} bytes`));
      } else {
        onChunk?.(chunk);
        callback(null, chunk);
      }
    },
  });
}

function ignore(): void {}
