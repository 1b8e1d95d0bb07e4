// Test helpers: a stand-in for the crawler (fetch the document, answer the page's requests with a
// real fetch to loopback, refuse anything else), tiny loopback servers, and a look at /proc for
// the Chromium processes this test process started.

import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { BrowserAnswer, BrowserRequest, RenderInput, RenderWaitUntil } from '@politely/crawler';
import { procStat } from '../src/chromium-launch.js';

export const CHROMIUM = '/usr/bin/chromium';
/** What the browser says it is (the crawl's user agent). */
export const BROWSER_UA = 'PolitelyBrowserTest/1.0 (browser)';
/** What the test's own fetches say: a request with any other user agent did not come from the test. */
export const TEST_UA = 'PolitelyBrowserTest/1.0 (answer)';

export interface FetchedDocument {
  readonly url: string;
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

/** One request the page asked `answer` for, and what the test did with it. */
export interface Answered {
  readonly url: string;
  readonly method: string;
  readonly resourceType: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly outcome: 'fetched' | 'blocked' | 'failed';
}

/** A real GET (or other method) to loopback, headers as received (Set-Cookie repeats kept). */
export async function fetchDocument(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer | undefined } = {},
): Promise<FetchedDocument> {
  const method = init.method ?? 'GET';
  const response = await fetch(url, {
    method,
    headers: { 'user-agent': TEST_UA, ...init.headers },
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
    ...(init.body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body: init.body } : {}),
  });
  const body = Buffer.from(await response.arrayBuffer());
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.push([name, value]);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  return { url, status: response.status, headers, body };
}

/**
 * The test's crawler policy: requests to `origins` are fetched for real (with the test's user
 * agent, the page's Accept and Cookie), anything else or anything `refuse` names is blocked.
 * Every request is recorded in `log`.
 */
export function loopbackAnswer(
  origins: readonly string[],
  log: Answered[],
  refuse: (url: URL) => boolean = () => false,
): (request: BrowserRequest) => Promise<BrowserAnswer> {
  return async (request) => {
    const url = new URL(request.url);
    const record = (outcome: Answered['outcome']): void => {
      log.push({
        url: request.url,
        method: request.method,
        resourceType: request.resourceType,
        headers: request.headers,
        outcome,
      });
    };
    if (!origins.includes(url.origin) || refuse(url)) {
      record('blocked');
      return { kind: 'refused', as: 'blocked' };
    }
    try {
      const headers: Record<string, string> = { accept: request.headers['accept'] ?? '*/*' };
      if (request.headers['cookie'] !== undefined) headers['cookie'] = request.headers['cookie'];
      const fetched = await fetchDocument(request.url, { method: request.method, headers, body: request.body });
      record('fetched');
      return { kind: 'response', status: fetched.status, headers: fetched.headers, body: fetched.body };
    } catch {
      record('failed');
      return { kind: 'refused', as: 'failed' };
    }
  };
}

export interface InputExtras {
  readonly waitUntil?: RenderWaitUntil;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly refused?: (url: string, why: 'websocket' | 'scheme') => void;
}

/** The render input for a fetched document. */
export function inputFor(doc: FetchedDocument, answer: RenderInput['answer'], extras: InputExtras = {}): RenderInput {
  const input: RenderInput = {
    url: doc.url,
    status: doc.status,
    headers: doc.headers,
    body: doc.body,
    waitUntil: extras.waitUntil ?? 'networkidle',
    timeoutMs: extras.timeoutMs ?? 20_000,
    answer,
    signal: extras.signal ?? new AbortController().signal,
  };
  return extras.refused === undefined ? input : { ...input, refused: extras.refused };
}

/** The `<title>` of an HTML document, entities of text decoded. */
export function titleOf(html: string): string | undefined {
  const match = /<title>([^<]*)<\/title>/.exec(html);
  return match?.[1]?.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The `href`s of `<a>` tags, resolved against `base`, each once, in order. */
export function linksOf(html: string, base: string): string[] {
  const links = [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map(
    (m) => new URL((m[1] ?? '').replace(/&amp;/g, '&'), base).href,
  );
  return [...new Set(links)];
}

/** A loopback server on 127.0.0.1 that records every request and every connection. */
export interface TinyServer {
  readonly origin: string;
  /** `METHOD path` of every request, in arrival order. */
  readonly requests: string[];
  /** Connections opened, and how many carried no request at all (a preconnect). */
  connections(): { opened: number; withoutRequest: number };
  close(): Promise<void>;
}

export async function startTinyServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TinyServer> {
  const requests: string[] = [];
  const sockets = new Map<Socket, number>();
  const server = createServer((req, res) => {
    requests.push(`${req.method ?? 'GET'} ${req.url ?? '/'}`);
    sockets.set(req.socket, (sockets.get(req.socket) ?? 0) + 1);
    handle(req, res);
  });
  server.on('connection', (socket: Socket) => {
    sockets.set(socket, 0);
  });
  // A WebSocket handshake is a request too: record it, never accept it.
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    requests.push(`UPGRADE ${req.url ?? '/'}`);
    sockets.set(socket, (sockets.get(socket) ?? 0) + 1);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    connections: () => ({
      opened: sockets.size,
      withoutRequest: [...sockets.values()].filter((count) => count === 0).length,
    }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function livePids(): { pid: number; stat: string[] }[] {
  const found: { pid: number; stat: string[] }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = procStat(pid);
    if (stat !== undefined && stat[0] !== 'Z') found.push({ pid, stat });
  }
  return found;
}

/** Live Chromium browser processes whose parent is this process (Playwright launches them with a pipe). */
export function chromiumChildren(): number[] {
  return livePids()
    .filter(
      ({ pid, stat }) =>
        Number(stat[1]) === process.pid &&
        /chrom/i.test(cmdline(pid)) &&
        cmdline(pid).includes('--remote-debugging-pipe'),
    )
    .map(({ pid }) => pid);
}

/** Live processes of a process group (a browser and its renderers, GPU and utility processes). */
export function liveInGroup(group: number): number[] {
  return livePids()
    .filter(({ stat }) => Number(stat[2]) === group)
    .map(({ pid }) => pid);
}

/** Polls `check` every 50 ms until it is true or `ms` have passed; returns its last answer. */
export async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (!check()) {
    if (performance.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
