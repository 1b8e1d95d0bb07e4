// A real HTTP server on loopback for end-to-end tests, with a request log kept by the server:
// the crawler's end-to-end tests and the CLI's serve their sites from it.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface LoggedRequest {
  readonly path: string;
  readonly at: number;
  readonly userAgent: string | undefined;
  /** Every request header as received. */
  readonly headers: IncomingHttpHeaders;
}

export interface TestServer {
  readonly base: string;
  readonly log: LoggedRequest[];
  paths(): string[];
  close(): Promise<void>;
}

/**
 * Serves `routes` (exact path and query → HTML, or a handler); `fallback` answers other paths
 * (pages generated on request), and anything left is a 404.
 */
export async function startServer(
  routes: Record<string, Handler | string>,
  host = '127.0.0.1',
  fallback?: (path: string) => string | undefined,
): Promise<TestServer> {
  const log: LoggedRequest[] = [];
  const server: Server = createServer((req, res) => {
    log.push({
      path: req.url ?? '',
      at: performance.now(),
      userAgent: req.headers['user-agent'],
      headers: req.headers,
    });
    const route = Object.hasOwn(routes, req.url ?? '') ? routes[req.url ?? ''] : fallback?.(req.url ?? '');
    if (route === undefined) {
      res.statusCode = 404;
      res.end('not found');
    } else if (typeof route === 'string') {
      res.setHeader('content-type', req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8');
      res.end(route);
    } else {
      route(req, res);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    base: `http://${host}:${(server.address() as AddressInfo).port}`,
    log,
    paths: () => log.map((entry) => entry.path),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Smallest gap between consecutive requests in the server's log, in ms. */
export function smallestGapMs(log: readonly LoggedRequest[]): number {
  let smallest = Infinity;
  for (let i = 1; i < log.length; i++) smallest = Math.min(smallest, log[i]!.at - log[i - 1]!.at);
  return smallest;
}
