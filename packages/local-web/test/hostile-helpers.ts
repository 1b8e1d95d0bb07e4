// Clients for the hostile web's tests: each reads at most a bounded amount and reports what it
// saw (bytes, how the connection ended) instead of throwing.
import { type IncomingHttpHeaders, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { UA } from './helpers.js';

export interface Exchange {
  /** Every byte the server sent, up to the cap. */
  readonly bytes: Buffer;
  /** The socket's error code (`ECONNRESET`, …), if it failed. */
  readonly errorCode: string | undefined;
  /** True if the server closed its side (FIN) without an error. */
  readonly ended: boolean;
}

/** Sends `requestText` over a bare socket and collects the answer until close or `waitMs`. */
export function exchange(origin: string, requestText: string, waitMs = 2_000): Promise<Exchange> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let ended = false;
    let errorCode: string | undefined;
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(requestText));
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), errorCode, ended });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      ended = true;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      errorCode = error.code;
    });
    socket.on('close', finish);
  });
}

export function getRequest(path: string, host = 'x'): string {
  return `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${UA}\r\nConnection: close\r\n\r\n`;
}

export interface HttpOutcome {
  readonly status: number | undefined;
  readonly headers: IncomingHttpHeaders | undefined;
  /** Body bytes received (decoded when `decode` is set), counted up to the cap. */
  readonly bodyBytes: number;
  /** The first bytes of the body (decoded when `decode` is set). */
  readonly head: Buffer;
  /** The error's code, when the request or response failed. */
  readonly errorCode: string | undefined;
  /** True when the body reached `capBytes` and the client hung up. */
  readonly capped: boolean;
}

export interface HttpOutcomeOptions {
  /** Stop (and hang up) once this many body bytes are counted. */
  readonly capBytes?: number;
  /** Decode the body by its Content-Encoding before counting. */
  readonly decode?: boolean;
  readonly headers?: Record<string, string>;
  /** Hang up after this many milliseconds, whatever came so far. */
  readonly windowMs?: number;
}

const HEAD_BYTES = 256;

/** One GET with node:http, reading the body up to a cap; never rejects. */
export function httpOutcome(url: string, options: HttpOutcomeOptions = {}): Promise<HttpOutcome> {
  const cap = options.capBytes ?? Number.POSITIVE_INFINITY;
  return new Promise((resolve) => {
    let status: number | undefined;
    let headers: IncomingHttpHeaders | undefined;
    let bodyBytes = 0;
    let capped = false;
    let head = Buffer.alloc(0);
    let done = false;
    let decoder: Transform | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = (errorCode: string | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // The decoder too: a bomb's buffered bytes would otherwise go on inflating.
      decoder?.destroy();
      req.destroy();
      resolve({ status, headers, bodyBytes, head, errorCode, capped });
    };
    const req = request(url, { headers: { 'user-agent': UA, ...options.headers }, agent: false }, (res) => {
      status = res.statusCode;
      headers = res.headers;
      if (options.decode === true) decoder = res.pipe(decoderFor(res.headers['content-encoding']));
      const body = decoder ?? res;
      res.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
      body.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
      body.on('data', (chunk: Buffer) => {
        if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
        bodyBytes += chunk.length;
        if (bodyBytes >= cap) {
          capped = true;
          finish(undefined);
        }
      });
      body.on('end', () => finish(undefined));
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    req.end();
    if (options.windowMs !== undefined) timer = setTimeout(() => finish(undefined), options.windowMs);
  });
}

function decoderFor(encoding: string | undefined): Transform {
  if (encoding === 'gzip') return createGunzip();
  if (encoding === 'deflate') return createInflate();
  if (encoding === 'br') return createBrotliDecompress();
  return new Transform({ transform: (chunk, _encoding, callback) => callback(null, chunk) });
}

/** Resolves with the socket once connected, or rejects with the connect error. */
export function openSocket(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}
