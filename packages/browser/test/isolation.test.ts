// The browser makes no request and opens no connection of its own: a page that asks for
// everything a browser fetches by itself (preconnect, prefetch, favicon, a cross-origin frame, a
// worker's fetch and WebSocket, a beacon) gets each through `answer` or nothing at all, and
// Chromium's own net log shows no lookup and no connection. And the context is replaced every
// `pagesPerContext` renders (cookies do not outlive it).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RenderSession } from '@politely/crawler';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumRenderer } from '../src/index.js';
import {
  type Answered,
  BROWSER_UA,
  CHROMIUM,
  fetchDocument,
  inputFor,
  loopbackAnswer,
  sleep,
  startTinyServer,
  type TinyServer,
  titleOf,
} from './helpers.js';

let site: TinyServer;
let other: TinyServer;
let session: RenderSession;
const crawl = new AbortController();

function page(origin: string, otherOrigin: string): string {
  return `<!doctype html>
<html><head><title>Greedy</title>
<link rel="icon" href="/favicon.ico">
<link rel="preconnect" href="${otherOrigin}">
<link rel="dns-prefetch" href="${otherOrigin}">
<link rel="prefetch" href="/next-page">
<link rel="stylesheet" href="/style.css">
</head><body>
<img src="/picture.png">
<iframe src="${otherOrigin}/frame"></iframe>
<script>
  const worker = new Worker('/worker.js');
  worker.onmessage = (event) => { document.body.dataset.worker = event.data; };
  navigator.sendBeacon('/beacon', 'seen');
  window.open('/popup-page');
  fetch('/api/data').then((r) => r.text()).then((t) => { document.title = 'Greedy: ' + t; });
</script>
<a href="${origin}/elsewhere">elsewhere</a>
</body></html>`;
}

const WORKER_JS = `fetch('/worker-data').then((r) => r.text()).then((t) => postMessage(t));
const socket = new WebSocket('ws://' + location.host + '/worker-live');
socket.onerror = () => postMessage('socket failed');`;

function serve(otherOrigin: () => string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? '/';
    const send = (type: string, body: string): void => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    if (path === '/') send('text/html; charset=utf-8', page(`http://${req.headers.host ?? ''}`, otherOrigin()));
    else if (path === '/worker.js') send('text/javascript', WORKER_JS);
    else if (path === '/frame') send('text/html', '<title>frame</title><script>fetch("/frame-data")</script>');
    else if (path === '/style.css') send('text/css', 'body { background: url(/background.png) }');
    else send('text/plain', `data for ${path}`);
  };
}

beforeAll(async () => {
  other = await startTinyServer(serve(() => other.origin));
  site = await startTinyServer(serve(() => other.origin));
  session = await new ChromiumRenderer({ executablePath: CHROMIUM }).start({
    userAgent: BROWSER_UA,
    maxOpenPages: 3,
    signal: crawl.signal,
  });
});

afterAll(async () => {
  await session?.close();
  await site?.close();
  await other?.close();
});

describe('ChromiumRenderer isolation', () => {
  it('makes no request and opens no connection of its own: everything goes through answer', async () => {
    const doc = await fetchDocument(`${site.origin}/`);
    const answered: Answered[] = [];
    const rendered = await session.render(inputFor(doc, loopbackAnswer([site.origin, other.origin], answered)));
    try {
      // Give late requests (prefetch, beacon, the worker's socket) time to show up.
      await sleep(1_500);
      expect(titleOf(rendered.html)).toBe('Greedy: data for /api/data');
      expect(await (rendered.page as Page).evaluate('document.body.dataset.worker')).toMatch(
        /data for \/worker-data|socket failed/,
      );
    } finally {
      await rendered.close();
    }
    const fetched = answered
      .filter((entry) => entry.outcome === 'fetched')
      .map((entry) => `${entry.method} ${new URL(entry.url).pathname}`);
    // Both servers heard exactly the test's document fetch and what answer fetched: no favicon,
    // no request by the browser itself, no WebSocket handshake.
    expect([...site.requests, ...other.requests].sort()).toEqual(['GET /', ...fetched].sort());
    // Each page request that matters went through answer, the worker's and the frame's included.
    for (const path of [
      '/worker.js',
      '/worker-data',
      '/frame',
      '/frame-data',
      '/api/data',
      '/picture.png',
      '/style.css',
      '/background.png',
    ]) {
      expect(
        fetched.some((entry) => entry.endsWith(` ${path}`)),
        path,
      ).toBe(true);
    }
    // The popup was closed unloaded: its request met the context's refuse-everything route, not answer.
    expect(answered.some((entry) => entry.url.endsWith('/popup-page'))).toBe(false);
    // No connection without a request (Chromium preconnects to a page's origins unless it cannot resolve them).
    expect(site.connections().withoutRequest + other.connections().withoutRequest).toBe(0);
    // The worker's WebSocket is invisible to routeWebSocket (it is not reported to `refused`); it
    // fails to resolve inside Chromium instead, and never reaches the server.
    expect([...site.requests, ...other.requests].some((request) => request.startsWith('UPGRADE'))).toBe(false);
  });

  it('replaces the context every pagesPerContext renders: cookies and storage do not outlive it', async () => {
    const cookieOf = (answered: Answered[]): string | undefined =>
      answered.find((entry) => entry.url.endsWith('/api/data'))?.headers['cookie'];
    const doc = await fetchDocument(`${site.origin}/`);
    // Two cookies in the document's response: both reach the browser's jar.
    const withCookies = {
      ...doc,
      headers: [...doc.headers, ['set-cookie', 'a=1; Path=/'], ['set-cookie', 'b=2; Path=/']] as const,
    };
    // A session of its own, so the count starts at its first render.
    const rotating = await new ChromiumRenderer({ executablePath: CHROMIUM, pagesPerContext: 2 }).start({
      userAgent: BROWSER_UA,
      maxOpenPages: 3,
      signal: crawl.signal,
    });
    const runs: { answered: Answered[]; context: BrowserContext }[] = [];
    const open: { close(): Promise<void> }[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const answered: Answered[] = [];
        const rendered = await rotating.render(
          inputFor(i === 0 ? withCookies : doc, loopbackAnswer([site.origin, other.origin], answered)),
        );
        open.push(rendered);
        runs.push({ answered, context: (rendered.page as Page).context() });
      }
      const [first, second, third] = runs;
      if (first === undefined || second === undefined || third === undefined) throw new Error('three renders');
      expect(cookieOf(first.answered)).toBe('a=1; b=2');
      expect(second.context).toBe(first.context);
      expect(cookieOf(second.answered)).toBe('a=1; b=2');
      expect(third.context).not.toBe(first.context);
      expect(cookieOf(third.answered)).toBeUndefined();
      // The old context closes once its last page does, not before.
      let oldClosed = false;
      first.context.on('close', () => {
        oldClosed = true;
      });
      await open[0]?.close();
      await sleep(200);
      expect(oldClosed).toBe(false);
      await open[1]?.close();
      for (let i = 0; i < 40 && !oldClosed; i++) await sleep(50);
      expect(oldClosed).toBe(true);
      await open[2]?.close();
    } finally {
      await rotating.close();
    }
  });

  it("sends nothing of Chromium's own: its net log shows no DNS query, no connection, no byte sent", async () => {
    // Chromium's own net log, across a whole session: startup (where it checks for updates and
    // accounts unless it cannot resolve), a render with frames, a worker and a prefetch, and close.
    const dir = mkdtempSync(join(tmpdir(), 'politely-netlog-'));
    const netLog = join(dir, 'net-log.json');
    try {
      const logged = await new ChromiumRenderer({
        executablePath: CHROMIUM,
        args: [`--log-net-log=${netLog}`, '--net-log-capture-mode=Everything'],
      }).start({
        userAgent: BROWSER_UA,
        maxOpenPages: 1,
        signal: crawl.signal,
      });
      try {
        const rendered = await logged.render(
          inputFor(await fetchDocument(`${site.origin}/`), loopbackAnswer([site.origin, other.origin], [])),
        );
        expect(titleOf(rendered.html)).toBe('Greedy: data for /api/data');
        await sleep(2_000);
        await rendered.close();
      } finally {
        await logged.close();
      }
      const log = JSON.parse(readFileSync(netLog, 'utf8')) as {
        constants: { logEventTypes: Record<string, number> };
        events: { type: number; params?: Record<string, unknown> }[];
      };
      const names = new Map(Object.entries(log.constants.logEventTypes).map(([name, id]) => [id, name]));
      const seen = new Set(log.events.map((event) => names.get(event.type) ?? ''));
      expect(seen.size).toBeGreaterThan(10); // the log is real
      for (const kind of [
        'DNS_TRANSACTION',
        'TCP_CONNECT',
        'SSL_CONNECT',
        'QUIC_SESSION',
        'UDP_BYTES_SENT',
        'SOCKET_BYTES_SENT',
      ])
        expect(seen.has(kind), kind).toBe(false);
      // Whatever Chromium tried on its own ended before any lookup: the name did not resolve.
      const jobs = log.events.filter(
        (event) => names.get(event.type) === 'TCP_CONNECT_JOB_CONNECT' && event.params?.['net_error'] !== undefined,
      );
      for (const job of jobs) expect(job.params?.['net_error']).toBe(-105); // ERR_NAME_NOT_RESOLVED
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
