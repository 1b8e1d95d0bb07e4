// The gate's I/O: one HTTP request for a robots.txt, one hop, never following redirects (the
// gate follows them, so a crawler can schedule each hop politely). The default is undici.

import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { PolitelyError } from '../errors.js';

export interface RobotsFetchRequest {
  /** The absolute URL to GET: the origin's `/robots.txt` or a redirect target. */
  readonly url: string;
  /** Sent as the `User-Agent` header. */
  readonly userAgent: string;
  /** Aborts the request; the fetch must then reject. */
  readonly signal: AbortSignal;
  /** Read at most this many (decompressed) body bytes; reaching the cap is not an error. */
  readonly maxBytes: number;
}

export interface RobotsFetchResponse {
  /** The HTTP status of this hop (a 3xx is returned as is, never followed). */
  readonly status: number;
  /** A response header by case-insensitive name (`location`, `cache-control`, `retry-after`, …). */
  header(name: string): string | undefined;
  /** The body, decompressed, at most `maxBytes` long. */
  readonly body: Uint8Array;
  /** The body went on past `maxBytes` and was cut there. */
  readonly truncatedAtCap: boolean;
}

/**
 * Fetches one URL, one hop. Resolves with any HTTP status; rejects on every network failure:
 * DNS, refused or reset connection, timeout, abort, or a body that ends early (before its
 * Content-Length or its last chunk).
 */
export type RobotsFetch = (request: RobotsFetchRequest) => Promise<RobotsFetchResponse>;

/** The default fetch; `close()` releases its connections. */
export interface UndiciRobotsFetch extends RobotsFetch {
  close(): Promise<void>;
}

export interface UndiciRobotsFetchOptions {
  /**
   * Deadline for the whole request, from connecting to the last body byte.
   * @default 10000
   */
  readonly timeoutMs?: number;
  /**
   * Deadline for connecting (DNS, TCP, TLS); never longer than `timeoutMs`.
   * @default 10000
   */
  readonly connectTimeoutMs?: number;
  /**
   * Dispatcher to send requests through instead of the fetch's own keep-alive `Agent`
   * (which `close()` then leaves open).
   * @default a new undici Agent
   */
  readonly dispatcher?: Dispatcher;
}

interface ResolvedUndiciRobotsFetchOptions {
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly dispatcher: Dispatcher | undefined;
}

export function resolveUndiciRobotsFetchOptions(options: UndiciRobotsFetchOptions = {}): ResolvedUndiciRobotsFetchOptions {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const connectTimeoutMs = Math.min(options.connectTimeoutMs ?? 10_000, timeoutMs);
  for (const [name, value] of [['timeoutMs', timeoutMs], ['connectTimeoutMs', connectTimeoutMs]] as const) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new PolitelyError('ERR_INVALID_OPTION', `createUndiciRobotsFetch: ${name} must be a positive number, got ${String(value)}`);
    }
  }
  return { timeoutMs, connectTimeoutMs, dispatcher: options.dispatcher };
}

/** An undici fetch with a deadline, a keep-alive agent, gzip/deflate/br, and a body cap. */
export function createUndiciRobotsFetch(options?: UndiciRobotsFetchOptions): UndiciRobotsFetch {
  const { timeoutMs, connectTimeoutMs, dispatcher } = resolveUndiciRobotsFetchOptions(options);
  const agent = dispatcher ?? new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 4_000 });
  const fetchRobots = async (request: RobotsFetchRequest): Promise<RobotsFetchResponse> => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([request.signal, deadline]);
    try {
      const url = new URL(request.url);
      const response = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: { 'user-agent': request.userAgent, 'accept-encoding': 'gzip, deflate, br' },
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const header = (name: string): string | undefined => headerValue(response.headers, name);
      const { body, truncatedAtCap } = await readBody(response.body, header('content-encoding'), request.maxBytes);
      return { status: response.statusCode, header, body, truncatedAtCap };
    } catch (error) {
      throw toFetchError(error, request, deadline, timeoutMs);
    }
  };
  return Object.assign(fetchRobots, {
    close: (): Promise<void> => (dispatcher === undefined ? agent.close() : Promise.resolve()),
  });
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Reads the body through its decoders, stopping at `maxBytes` decompressed bytes (so a
 * compression bomb stops there too); the rest is never read: the streams are destroyed.
 */
async function readBody(
  raw: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
): Promise<{ body: Uint8Array; truncatedAtCap: boolean }> {
  let decoders: Transform[];
  try {
    decoders = decodersFor(contentEncoding);
  } catch (error) {
    discard(raw);
    throw error;
  }
  // pipeline() returns its last stream, a decoder (a Transform, so readable); it destroys every
  // stream on an error or when the reader stops early.
  const source: Readable = decoders.length === 0 ? raw : (pipeline([raw, ...decoders], () => {}) as Transform);
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncatedAtCap = false;
  try {
    for await (const chunk of source) {
      const bytes = chunk as Uint8Array;
      const room = maxBytes - length;
      chunks.push(bytes.length > room ? bytes.subarray(0, room) : bytes);
      length += Math.min(bytes.length, room);
      if (bytes.length > room) {
        truncatedAtCap = true;
        break;
      }
    }
  } finally {
    discard(raw);
    discard(source);
  }
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return { body, truncatedAtCap };
}

/** Destroys a stream whose data is no longer wanted; undici then reports an abort, which is expected. */
function discard(stream: Readable): void {
  stream.on('error', () => {});
  stream.destroy();
}

/** Decoders for a Content-Encoding list, in decoding order (the reverse of applying order). */
function decodersFor(contentEncoding: string | undefined): Transform[] {
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

const UNDICI_TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function isUndiciTimeout(error: unknown): boolean {
  return error instanceof Error && UNDICI_TIMEOUT_CODES.has((error as { code?: unknown }).code as string);
}

function toFetchError(error: unknown, request: RobotsFetchRequest, deadline: AbortSignal, timeoutMs: number): PolitelyError {
  if (request.signal.aborted) {
    return new PolitelyError('ERR_ABORTED', `fetch of ${request.url} aborted`, { cause: request.signal.reason ?? error });
  }
  if (deadline.aborted || isUndiciTimeout(error)) {
    return new PolitelyError('ERR_TIMEOUT', `fetch of ${request.url} timed out after ${timeoutMs} ms`, { cause: error });
  }
  if (error instanceof PolitelyError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new PolitelyError('ERR_FETCH_FAILED', `fetch of ${request.url} failed: ${message}`, { cause: error });
}
