// A loopback site served from a worker thread (site-thread-worker.js), for tests that judge
// gaps of a few milliseconds between requests by the server's log. The in-process server of
// site-server.ts logs an arrival only when the event loop it shares with the crawler gets to it,
// so a busy crawler can make one gap look shorter than it was on the wire.

import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { LoggedRequest } from './site-server.js';

/** A route's answer: its body, and how long answers wait. */
export interface ThreadRoute {
  readonly body: string;
  /** @default 'text/plain' for /robots.txt, else 'text/html; charset=utf-8' */
  readonly contentType?: string;
  /**
   * The wait of each answer of a delayed route, in ms: the n-th answer of ANY delayed route of the
   * site waits `delaysMs[n]` (the last value past the end). None: answered at once.
   */
  readonly delaysMs?: readonly number[];
}

export interface ThreadedSite {
  readonly base: string;
  /** The server's log: every request in order of arrival, `at` in ms on the process's clock (`performance.timeOrigin + performance.now()`). */
  requests(): Promise<LoggedRequest[]>;
  close(): Promise<void>;
}

const WORKER = new URL('./site-thread-worker.js', import.meta.url);
const START_TIMEOUT_MS = 10_000;

/** Serves `routes` (exact path and query → answer; a string is an HTML body) from a thread of its own on 127.0.0.1. */
export async function startSiteInThread(routes: Record<string, string | ThreadRoute>): Promise<ThreadedSite> {
  const answers = Object.fromEntries(
    Object.entries(routes).map(([path, route]) => [path, typeof route === 'string' ? { body: route } : route]),
  );
  const worker = new Worker(WORKER, { workerData: { routes: answers } });
  const port = await reply<number>(worker, 'listening', (message) => message.port as number);
  let closed: Promise<void> | undefined;
  return {
    base: `http://127.0.0.1:${port}`,
    requests: async () => {
      const log = reply<LoggedRequest[]>(worker, 'log', (message) => message.log as LoggedRequest[]);
      worker.postMessage('log');
      return log;
    },
    close: () => {
      closed ??= (async () => {
        const exited = once(worker, 'exit');
        worker.postMessage('close');
        // Bounded: a worker that does not close in time is stopped.
        const timer = setTimeout(() => void worker.terminate(), START_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      })();
      return closed;
    },
  };
}

/** The next message of `type` from the worker, read by `read`; rejects if the worker fails or exits first, or after a timeout. */
function reply<T>(worker: Worker, type: string, read: (message: Record<string, unknown>) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`site thread: no '${type}' within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const onMessage = (message: Record<string, unknown>) => {
      if (message.type === type) done(undefined, read(message));
    };
    const onError = (error: Error) => done(error);
    const onExit = (code: number) => done(new Error(`site thread exited (code ${code}) before '${type}'`));
    function done(error: Error | undefined, value?: T): void {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (error === undefined) resolve(value as T);
      else reject(error);
    }
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}
