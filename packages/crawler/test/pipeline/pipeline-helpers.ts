// Shared by the pipeline stage tests: a loopback HTTP server whose routes each test sets and that
// logs every request on the crawler's own clock (Date.now), a server that does not speak HTTP, a
// closed port, and small builders for entries and leases.

import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import type { FrontierEntry, FrontierLease, FrontierStore } from '@politely/frontier';

export const UA = 'PipeBot/1.0 (+http://example.invalid/bot)';
/** What the SSRF guard must let through for these servers. */
export const LOOPBACK: readonly string[] = ['127.0.0.0/8'];

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface Arrival {
  readonly path: string;
  /** Date.now() when the request reached the server. */
  readonly at: number;
  readonly headers: IncomingHttpHeaders;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  /** Routes by exact path (and query); set or change them per test. Anything else is a 404. */
  readonly routes: Record<string, Route | string>;
  readonly arrivals: Arrival[];
  /** The paths requested, in order. */
  paths(): string[];
  /** Forgets the routes and the log. */
  reset(): void;
  close(): Promise<void>;
}

export async function startLoopback(routes: Record<string, Route | string> = {}): Promise<LoopbackServer> {
  const table: Record<string, Route | string> = { ...routes };
  const arrivals: Arrival[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    arrivals.push({ path, at: Date.now(), headers: req.headers });
    const route = Object.hasOwn(table, path) ? table[path] : undefined;
    if (route === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else if (typeof route === 'string') {
      res
        .writeHead(200, { 'content-type': path === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8' })
        .end(route);
    } else route(req, res);
  });
  await listen(server);
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routes: table,
    arrivals,
    paths: () => arrivals.map((a) => a.path),
    reset() {
      for (const key of Object.keys(table)) delete table[key];
      arrivals.length = 0;
      server.closeAllConnections();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A route answering `status` with `headers` and `body`. */
export function answer(status: number, headers: Record<string, string> = {}, body = ''): Route {
  return (_req, res) => void res.writeHead(status, { 'content-type': 'text/html', ...headers }).end(body);
}

/** A TCP server that answers every connection with bytes that are not HTTP, then hangs up. */
export async function startGarbageServer(): Promise<{
  readonly base: string;
  readonly connections: () => number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.end('SSH-2.0-OpenSSH_9.6 not http at all\r\n\r\n');
  });
  await listen(server);
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was bound and released). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await listen(server);
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function listen(server: { listen(port: number, host: string, cb: () => void): unknown }): Promise<void> {
  return new Promise((resolve) => void server.listen(0, '127.0.0.1', resolve));
}

/** A frontier entry for `url`, keyed by its host name as the crawler keys it. */
export function entryFor(url: string, extra: Partial<FrontierEntry> = {}): FrontierEntry {
  return { url, hostKey: new URL(url).hostname, depth: 0, priority: 0, ...extra };
}

/** Claims the next URL at `now`; fails the test when nothing is ready. */
export async function claimAt(store: FrontierStore, now: number, leaseMs = 60_000): Promise<FrontierLease> {
  const claimed = await store.claim({ now, leaseMs });
  if (claimed.lease === null) throw new Error(`nothing to claim at ${now} (next ready at ${claimed.nextReadyAt})`);
  return claimed.lease;
}

/** The host's clock as the store keeps it (the time its next request may start). */
export async function hostReadyAt(store: FrontierStore, hostKey: string): Promise<number> {
  const host = (await store.hostCounts()).find((h) => h.hostKey === hostKey);
  if (host === undefined) throw new Error(`the store knows no host ${hostKey}`);
  return host.readyAt;
}

/** Every ordering of `items`. */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/**
 * Runs `work` while the process's `uncaughtException` listeners (vitest's among them) are set
 * aside for a collector, until `graceMs` after it settles; returns its result and what escaped.
 * For showing an error a library throws from an event nobody listens to, without failing the run.
 */
export async function uncaughtDuring<T>(
  work: () => Promise<T>,
  graceMs = 100,
): Promise<{ readonly result: T; readonly uncaught: unknown[] }> {
  const uncaught: unknown[] = [];
  const collect = (error: unknown): void => void uncaught.push(error);
  const saved = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  process.on('uncaughtException', collect);
  try {
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, graceMs));
    return { result, uncaught };
  } finally {
    process.off('uncaughtException', collect);
    for (const listener of saved) process.on('uncaughtException', listener);
  }
}
