// A real HTTP server on 127.0.0.1 (port 0) whose behaviour each test sets, counting requests: the
// robots gate's tests (core) and the Redis robots cache's (store-redis) serve robots.txt from it.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** What the server does; set per test. Defaults to 404. */
  handle: Handler;
  /** Requests received since the last reset. */
  readonly requests: ReceivedRequest[];
  /** Requests for `path` since the last reset. */
  hits(path?: string): number;
  /** Forgets requests and goes back to the default handler; drops open connections. */
  reset(): void;
  close(): Promise<void>;
}

const notFound: Handler = (_request, response) => {
  response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
};

export async function startServer(): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', headers: request.headers });
    state.handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const state: TestServer = {
    origin: `http://127.0.0.1:${port}`,
    handle: notFound,
    requests,
    hits: (path) => (path === undefined ? requests.length : requests.filter((r) => r.path === path).length),
    reset() {
      requests.length = 0;
      state.handle = notFound;
      server.closeAllConnections();
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
  return state;
}

/** A handler answering /robots.txt with `status`, `body` and `headers`; anything else 404. */
export function robotsTxt(status: number, body = '', headers: Record<string, string> = {}): Handler {
  return (request, response) => {
    if (request.url !== '/robots.txt') return notFound(request, response);
    response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);
  };
}

/** A clock the test moves by hand, starting at a fixed date. */
export function createClock(start = Date.parse('2025-01-01T00:00:00Z')): {
  now: () => number;
  advance(ms: number): void;
} {
  let time = start;
  return {
    now: () => time,
    advance(ms) {
      time += ms;
    },
  };
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** What the gate's SSRF guard must let through for these servers (on by default, loopback refused). */
export const LOOPBACK: readonly string[] = ['127.0.0.0/8'];
