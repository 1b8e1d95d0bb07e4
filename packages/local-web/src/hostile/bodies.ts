// bodies: responses whose body is the problem: one that drips a byte a second, one that never
// ends, and compression bombs. The streams write with backpressure and stop as soon as the
// client goes away; their timers belong to the web's tasks, so close() stops them too.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type BombEncoding, buildBomb } from './bombs.js';
import { ERROR, type HostileCase, skip } from './hostile-types.js';
import { ALLOW_ALL_ROBOTS_TXT, caseList, type HttpHostileHost, hostilePage, responder } from './http-host.js';
import type { Tasks } from './tasks.js';

export interface BodiesOptions {
  readonly dripIntervalMs: number;
  readonly bombDecodedBytes: number;
}

/** The Content-Length the drip declares; at a byte a second it would take 11 days. */
export const DRIP_DECLARED_BYTES = 1_000_000;
/** Size of each chunk of the endless body. */
export const ENDLESS_CHUNK_BYTES = 64 * 1024;

const HTML = 'text/html; charset=utf-8';
const DRIP_TEXT = Buffer.from('<!doctype html><html><head><title>Slow drip</title></head><body><p>' + ' '.repeat(64));
const ENDLESS_FIRST = endlessChunk('<!doctype html><html><head><title>Endless</title></head><body><p>');
const ENDLESS_NEXT = endlessChunk('');
// Yield to the event loop now and then, even if a socket somehow never pushes back.
const ENDLESS_WRITES_PER_TURN = 16;

const BOMBS: ReadonlyMap<string, BombEncoding> = new Map([
  ['/bomb/gzip', 'gzip'],
  ['/bomb/deflate', 'deflate'],
  ['/bomb/brotli', 'br'],
]);

function endlessChunk(prefix: string): Buffer {
  return Buffer.from(prefix + 'and on '.repeat(ENDLESS_CHUNK_BYTES)).subarray(0, ENDLESS_CHUNK_BYTES);
}

export function buildBodies(origin: string, options: BodiesOptions, tasks: Tasks): HttpHostileHost {
  const bombCase = (name: string, path: string, encoding: string): HostileCase => ({
    name,
    description: `Content-Encoding: ${encoding}; decodes to ${options.bombDecodedBytes} bytes of spaces from a small body.`,
    entryUrl: `${origin}${path}`,
    reportedUrlPrefixes: [`${origin}${path}`],
    expect: skip('too-large'),
  });
  const cases: HostileCase[] = [
    {
      name: 'slow-drip',
      description: `Declares Content-Length ${DRIP_DECLARED_BYTES}, then sends one byte every ${options.dripIntervalMs} ms.`,
      entryUrl: `${origin}/slow-drip`,
      reportedUrlPrefixes: [`${origin}/slow-drip`],
      expect: ERROR,
    },
    {
      name: 'endless-body',
      description: `A chunked HTML body of ${ENDLESS_CHUNK_BYTES}-byte chunks that never ends.`,
      entryUrl: `${origin}/endless`,
      reportedUrlPrefixes: [`${origin}/endless`],
      expect: skip('too-large'),
    },
    bombCase('gzip-bomb', '/bomb/gzip', 'gzip'),
    bombCase('deflate-bomb', '/bomb/deflate', 'deflate'),
    bombCase('brotli-bomb', '/bomb/brotli', 'br'),
  ];
  const pages = new Map([['/', hostilePage('bodies', 'Bodies that never behave', caseList(cases))]]);
  // Built on first request and kept: later requests (retries, other crawlers) are instant.
  const bombs = new Map<BombEncoding, Promise<Buffer>>();
  const bomb = (encoding: BombEncoding): Promise<Buffer> => {
    let body = bombs.get(encoding);
    if (body === undefined) {
      body = buildBomb(encoding, options.bombDecodedBytes, tasks.signal);
      bombs.set(encoding, body);
    }
    return body;
  };
  return {
    name: 'bodies',
    description: 'Bodies to give up on: a slow drip, an endless chunked body, gzip, deflate and brotli bombs.',
    robotsTxt: ALLOW_ALL_ROBOTS_TXT,
    cases,
    goodPaths: ['/'],
    respond: responder(pages, (req, res, path) => {
      if (path === '/slow-drip') slowDrip(req, res, options.dripIntervalMs, tasks);
      else if (path === '/endless') endless(req, res);
      else {
        const encoding = BOMBS.get(path);
        if (encoding === undefined) return false;
        sendBomb(req, res, encoding, bomb(encoding));
      }
      return true;
    }),
  };
}

function slowDrip(req: IncomingMessage, res: ServerResponse, intervalMs: number, tasks: Tasks): void {
  res.writeHead(200, { 'content-type': HTML, 'content-length': String(DRIP_DECLARED_BYTES) });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  res.flushHeaders();
  let sent = 0;
  let stop = (): void => {};
  const drip = (): void => {
    if (res.destroyed || res.writableEnded) {
      stop();
      return;
    }
    if (res.writableNeedDrain) return; // the client is not reading: do not pile up bytes
    res.write(DRIP_TEXT.subarray(sent % DRIP_TEXT.length, (sent % DRIP_TEXT.length) + 1));
    if (++sent === DRIP_DECLARED_BYTES) {
      stop();
      res.end();
    }
  };
  drip();
  stop = tasks.every(intervalMs, drip);
  res.once('close', stop);
}

function endless(req: IncomingMessage, res: ServerResponse): void {
  // No Content-Length: HTTP/1.1 sends it chunked, and the chunks never stop.
  res.writeHead(200, { 'content-type': HTML });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  let chunk = ENDLESS_FIRST;
  const pump = (): void => {
    for (let i = 0; i < ENDLESS_WRITES_PER_TURN; i++) {
      if (res.destroyed || res.writableEnded) return;
      const more = res.write(chunk);
      chunk = ENDLESS_NEXT;
      if (!more) {
        res.once('drain', pump);
        return;
      }
    }
    setImmediate(pump);
  };
  pump();
}

function sendBomb(req: IncomingMessage, res: ServerResponse, encoding: BombEncoding, body: Promise<Buffer>): void {
  body.then(
    (bytes) => {
      if (res.destroyed) return;
      res.writeHead(200, {
        'content-type': HTML,
        'content-encoding': encoding,
        'content-length': String(bytes.length),
      });
      res.end(req.method === 'HEAD' ? undefined : bytes);
    },
    () => {
      // Only a close() during the build gets here: the connection is going anyway.
      res.destroy();
    },
  );
}
