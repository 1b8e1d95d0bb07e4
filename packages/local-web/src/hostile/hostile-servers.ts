// Binding the hostile web: node:http servers for the HTTP hosts (one shared port, as in every
// local web), bare TCP servers for `raw` and `silent` (on that port too when it is free there),
// one request log, and a close() that leaves nothing behind: timers, builds, hanging sockets.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { LocalWebError, type LoggedRequest } from '@politely/demo-web';
import {
  type BoundHost,
  closeHosts,
  listenHosts,
  loopbackAddress,
  type Mutable,
  type Resource,
  sendResource,
  statusResource,
  textResource,
} from '@politely/demo-web/internal';
import { HOSTILE_HOST_NAMES, HOSTILE_HTTP_HOST_NAMES, type HostileOrigins } from './hostile-types.js';
import type { HttpHostileHost } from './http-host.js';
import type { RawHostileHost } from './raw.js';
import type { Tasks } from './tasks.js';
import { listenTcp, type RequestHead, readRequestHead, type TcpHost } from './tcp-server.js';

/** Where each host listens, in address order. */
export interface HostileAddress {
  readonly address: string;
  readonly port: number;
  readonly origin: string;
}

export interface BuiltHostileHosts {
  /** In the order of HOSTILE_HTTP_HOST_NAMES. */
  readonly http: readonly HttpHostileHost[];
  readonly raw: RawHostileHost;
}

export interface HostileServers {
  readonly addresses: readonly HostileAddress[];
  readonly origins: HostileOrigins;
  /** Starts answering with the built hosts; until then HTTP hosts answer 503 and `raw` hangs up. */
  serve(hosts: BuiltHostileHosts): void;
  requestLog(origin?: string): LoggedRequest[];
  resetLogs(): void;
  close(): Promise<void>;
}

// Longer than any sane crawler waits, shorter than forever: `serve` sockets should not pile up.
const RAW_IDLE_TIMEOUT_MS = 30_000;

export async function bindHostileServers(firstAddress: number, port: number, tasks: Tasks): Promise<HostileServers> {
  // Set by serve(), after every address is bound: a request before then gets a 503 or a hang-up.
  let built: BuiltHostileHosts | undefined;
  let origins: HostileOrigins | undefined;
  let robots: readonly Resource[] = [];
  let log: LoggedRequest[] = [];
  const record = (
    origin: string,
    host: string,
    head: RequestHead,
    status: number,
    bodyBytes: number,
    atMs: number,
    dateMs: number,
  ): Mutable<LoggedRequest> => {
    const entry = {
      origin,
      host,
      method: head.method,
      path: head.path,
      userAgent: head.userAgent,
      status,
      bodyBytes,
      atMs,
      dateMs,
    };
    log.push(entry);
    return entry;
  };

  const onHttp = (index: number, req: IncomingMessage, res: ServerResponse): void => {
    const atMs = performance.now();
    const dateMs = Date.now();
    const host = built?.http[index];
    const robotsTxt = robots[index];
    if (host === undefined || robotsTxt === undefined || origins === undefined) {
      sendResource(req, res, statusResource(503, 'The hostile web is starting.\n'), false);
      return;
    }
    const path = req.url ?? '/';
    const body = countBody(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendResource(req, res, statusResource(405, 'Method not allowed.\n', { allow: 'GET, HEAD' }), false);
    } else if (path === '/robots.txt') {
      sendResource(req, res, robotsTxt, false);
    } else {
      host.respond(req, res, path);
    }
    const head = { method: req.method ?? 'GET', path, userAgent: req.headers['user-agent'] };
    body.entry = record(origins[host.name], host.name, head, res.statusCode, body.bytes, atMs, dateMs);
  };

  const onRaw = (socket: Socket): void => {
    socket.setTimeout(RAW_IDLE_TIMEOUT_MS, () => socket.destroy());
    readRequestHead(socket, (head) => {
      const atMs = performance.now();
      const dateMs = Date.now();
      if (built === undefined || origins === undefined) {
        socket.destroy();
        return;
      }
      const { status, bodyBytes } = built.raw.answer(socket, head);
      if (head !== null) record(origins.raw, 'raw', head, status, bodyBytes, atMs, dateMs);
    });
  };

  // Reads the request only to log it (status 0: no answer), then keeps the socket until close().
  const onSilent = (socket: Socket): void => {
    readRequestHead(socket, (head) => {
      if (head !== null && origins !== undefined)
        record(origins.silent, 'silent', head, 0, 0, performance.now(), Date.now());
    });
  };

  const http: readonly BoundHost[] = await listenHosts(HOSTILE_HTTP_HOST_NAMES.length, firstAddress, port, onHttp);
  const tcpFirst = firstAddress + HOSTILE_HTTP_HOST_NAMES.length;
  let raw: TcpHost;
  let silent: TcpHost;
  try {
    raw = await listenTcpNear(loopbackAddress(tcpFirst), port, http[0]?.port ?? 0, onRaw);
    try {
      silent = await listenTcpNear(loopbackAddress(tcpFirst + 1), port, http[0]?.port ?? 0, onSilent);
    } catch (error) {
      await raw.close();
      throw error;
    }
  } catch (error) {
    await closeHosts(http);
    throw error;
  }

  const addresses: HostileAddress[] = [...http, raw, silent].map(({ address, port: p, origin }) => ({
    address,
    port: p,
    origin,
  }));
  const boundOrigins = Object.fromEntries(
    HOSTILE_HOST_NAMES.map((name, i) => [name, addresses[i]?.origin ?? '']),
  ) as HostileOrigins;
  let closing: Promise<void> | undefined;
  return {
    addresses,
    origins: boundOrigins,
    serve(hosts) {
      robots = hosts.http.map((host) => textResource(host.robotsTxt ?? '', 'text/plain; charset=utf-8'));
      origins = boundOrigins;
      built = hosts;
    },
    requestLog(origin) {
      const wanted = origin === undefined ? undefined : new URL(origin).origin;
      return log.filter((entry) => wanted === undefined || entry.origin === wanted);
    },
    resetLogs() {
      log = [];
    },
    close() {
      closing ??= (async () => {
        tasks.stopAll();
        await Promise.all([closeHosts(http), raw.close(), silent.close()]);
      })();
      return closing;
    },
  };
}

interface BodyCount {
  bytes: number;
  /** The log entry, once written: responders may stream on after it, so it follows the count. */
  entry: Mutable<LoggedRequest> | undefined;
}

/** Counts the body bytes written to `res` (none for HEAD: node drops them). */
function countBody(req: IncomingMessage, res: ServerResponse): BodyCount {
  const count: BodyCount = { bytes: 0, entry: undefined };
  if (req.method === 'HEAD') return count;
  const add = (chunk: unknown, encoding: unknown): void => {
    if (typeof chunk === 'string')
      count.bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) count.bytes += chunk.byteLength;
    else return;
    if (count.entry !== undefined) count.entry.bodyBytes = count.bytes;
  };
  const { write, end } = res;
  res.write = function (this: ServerResponse, ...args: unknown[]) {
    add(args[0], args[1]);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    add(args[0], args[1]);
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['end'];
  return count;
}

/**
 * Binds `address` on `port` when one is given; with port 0, on the HTTP hosts' `sharedPort` if it
 * is free there, else on any free port (the web still works, with one odd port out).
 */
async function listenTcpNear(
  address: string,
  port: number,
  sharedPort: number,
  onSocket: (socket: Socket) => void,
): Promise<TcpHost> {
  if (port !== 0) return listenTcp(address, port, onSocket);
  try {
    return await listenTcp(address, sharedPort, onSocket);
  } catch (error) {
    if (!(error instanceof LocalWebError) || error.code !== 'ERR_ADDRESS_IN_USE') throw error;
    return listenTcp(address, 0, onSocket);
  }
}
