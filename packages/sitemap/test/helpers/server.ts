// Real HTTP servers on loopback for the sitemap tests, each keeping its own request log (when a
// request arrived and when its response ended, as the server saw them).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach } from 'vitest';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;
export type Route =
  | Handler
  | string
  | {
      readonly body: string | Uint8Array;
      readonly type?: string;
      readonly status?: number;
      readonly headers?: Record<string, string>;
    };

export interface LoggedRequest {
  readonly path: string;
  readonly startedAt: number;
  endedAt: number;
  readonly userAgent: string | undefined;
}

export interface TestServer {
  readonly base: string;
  readonly log: LoggedRequest[];
  routes: Record<string, Route>;
  paths(): string[];
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, Route>, host = '127.0.0.1'): Promise<TestServer> {
  const log: LoggedRequest[] = [];
  const state = { routes };
  const server: Server = createServer((req, res) => {
    const entry: LoggedRequest = {
      path: req.url ?? '',
      startedAt: performance.now(),
      endedAt: NaN,
      userAgent: req.headers['user-agent'],
    };
    log.push(entry);
    res.on('finish', () => (entry.endedAt = performance.now()));
    res.on('close', () => (entry.endedAt = Number.isNaN(entry.endedAt) ? performance.now() : entry.endedAt));
    serve(state.routes[req.url ?? ''], req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    base: `http://${host}:${(server.address() as AddressInfo).port}`,
    log,
    get routes() {
      return state.routes;
    },
    set routes(next) {
      state.routes = next;
    },
    paths: () => log.map((entry) => entry.path),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function serve(route: Route | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (route === undefined) {
    res.statusCode = 404;
    res.end('not found');
  } else if (typeof route === 'function') {
    route(req, res);
  } else if (typeof route === 'string') {
    res.setHeader('content-type', contentTypeOf(req.url ?? '', route));
    res.end(route);
  } else {
    res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'application/xml', ...route.headers });
    res.end(route.body);
  }
}

function contentTypeOf(path: string, body: string): string {
  if (path === '/robots.txt' || !body.trimStart().startsWith('<')) return 'text/plain';
  if (/^\s*(<!doctype html|<html)/i.test(body)) return 'text/html; charset=utf-8';
  return 'application/xml';
}

/** A gzip body served as a file (`application/gzip`, no Content-Encoding). */
export function gzipFile(text: string | Uint8Array): Route {
  return { body: gzipSync(text), type: 'application/gzip' };
}

/** Smallest gap between the starts of consecutive requests in the log, in ms. */
export function smallestGapMs(log: readonly LoggedRequest[]): number {
  let smallest = Infinity;
  for (let i = 1; i < log.length; i++) smallest = Math.min(smallest, log[i]!.startedAt - log[i - 1]!.startedAt);
  return smallest;
}

/** Whether two requests of the log were ever in flight at once. */
export function overlapped(log: readonly LoggedRequest[]): boolean {
  for (let i = 1; i < log.length; i++) if (log[i]!.startedAt < log[i - 1]!.endedAt) return true;
  return false;
}

/**
 * A `serve(routes, host?)` for one test file: each server it starts is closed after each test
 * (call at the top level of the file, where `afterEach` registers).
 */
export function useServers(): (routes: Record<string, Route>, host?: string) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (routes, host) => {
    const server = await startServer(routes, host);
    servers.push(server);
    return server;
  };
}
