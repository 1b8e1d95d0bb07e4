// `politely crawl --metrics ADDRESS`: one HTTP server for a job's watchers. `/metrics` is the
// crawl's OpenTelemetry instruments in Prometheus text format (OpenTelemetry's own Prometheus
// exporter, read on each scrape: the crawler records through @opentelemetry/api already, so no
// second set of counters is kept); `/healthz` answers while the process lives; `/readyz` answers
// 200 while the store answers a cheap call, 503 otherwise. The server has no authentication, so
// `/readyz` says only `store unavailable`: why goes to the crawl's log (onNotReady), masked.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MeterProvider as ApiMeterProvider } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';

/** How long `/readyz` waits for the store before it says 503. */
export const READY_TIMEOUT_MS = 1000;

export interface MetricsServerOptions {
  readonly host: string;
  readonly port: number;
  /** Resolves when the store answers; rejects (or takes longer than READY_TIMEOUT_MS) when it does not. */
  readonly ready: () => Promise<unknown>;
  /**
   * Told why the store did not answer a `/readyz` (its error's message, or the timeout), for the
   * log; the caller masks it. @default nothing is told
   */
  readonly onNotReady?: (reason: string) => void;
}

/** What `/readyz` answers when the store does not: no detail for an unauthenticated caller. */
export const NOT_READY_BODY = 'store unavailable\n';

export interface MetricsServer {
  /** The provider to give the crawler (`meterProvider`). */
  readonly meterProvider: ApiMeterProvider;
  /** Where it listens, as a URL without a path: `http://127.0.0.1:9464`. */
  readonly url: string;
  /** Stops serving and shuts the provider down. */
  close(): Promise<void>;
}

/** Starts the server; rejects with the listen error (EADDRINUSE, EADDRNOTAVAIL…) when it cannot bind. */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({ readers: [exporter] });
  const notReady = options.onNotReady ?? (() => {});
  const server = createServer((request, response) => void route(request, response, exporter, options.ready, notReady));
  await listen(server, options.host, options.port);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    meterProvider: provider,
    url: `http://${host}:${address.port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await provider.shutdown().catch(() => {});
    },
  };
}

async function route(
  request: IncomingMessage,
  response: ServerResponse,
  exporter: PrometheusExporter,
  ready: () => Promise<unknown>,
  notReady: (reason: string) => void,
): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (request.method !== 'GET' && request.method !== 'HEAD') return answer(response, 405, 'method not allowed\n');
  if (path === '/metrics') return exporter.getMetricsRequestHandler(request, response);
  if (path === '/healthz') return answer(response, 200, 'ok\n');
  if (path === '/readyz') {
    const reason = await storeAnswers(ready);
    if (reason === undefined) return answer(response, 200, 'ok\n');
    notReady(reason);
    return answer(response, 503, NOT_READY_BODY);
  }
  answer(response, 404, 'not found: /metrics, /healthz, /readyz\n');
}

/** Undefined when the store answered in time; else why not. */
async function storeAnswers(ready: () => Promise<unknown>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      ready().then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function answer(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  response.end(body);
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
