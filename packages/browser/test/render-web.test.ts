// The render web in the ChromiumRenderer: pages come out rendered as the web's truth says, and
// the web's own log proves the browser reached it for nothing: the test fetched the document,
// `answer` fetched everything else, refusals (the tracking beacon, the private address, the
// WebSocket) never arrived.

import type { RenderSession } from '@politely/crawler';
import { type RenderWeb, startRenderWeb } from '@politely/demo-web';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumRenderer } from '../src/index.js';
import {
  type Answered,
  BROWSER_UA,
  CHROMIUM,
  fetchDocument,
  inputFor,
  linksOf,
  loopbackAnswer,
  sleep,
  TEST_UA,
  titleOf,
} from './helpers.js';

let web: RenderWeb;
let session: RenderSession;
const crawl = new AbortController();

beforeAll(async () => {
  web = await startRenderWeb({ firstAddress: 180 });
  session = await new ChromiumRenderer({ executablePath: CHROMIUM }).start({
    userAgent: BROWSER_UA,
    maxOpenPages: 2,
    signal: crawl.signal,
  });
});

afterAll(async () => {
  await session?.close();
  await web?.close();
});

const origins = (): string[] => web.hosts.map((host) => host.origin);
/** The test's stand-in for robots.txt: the app's tracking beacon is refused. */
const isTracking = (url: URL): boolean => url.pathname === '/api/tracking';
const logged = (): string[] => web.requestLog().map((entry) => `${entry.origin}${entry.path}`);
const sorted = (values: readonly string[]): string[] => [...values].sort();

describe('ChromiumRenderer on the render web', () => {
  it('renders a product page and a category page to their true titles and links, fetching nothing itself', async () => {
    const targets = [
      web.renderPages.find((page) => page.path.startsWith('/products/')),
      web.renderPages.find((page) => page.path.startsWith('/category/') && !page.path.includes('?')),
    ];
    for (const truth of targets) {
      if (truth === undefined) throw new Error('the render web has no such page');
      web.resetLogs();
      const doc = await fetchDocument(truth.url);
      expect(doc.status).toBe(200);
      const shell = doc.body.toString('utf8');
      expect(linksOf(shell, truth.url)).toEqual([]);
      expect(titleOf(shell)).not.toBe(truth.title);

      const answered: Answered[] = [];
      const rendered = await session.render(inputFor(doc, loopbackAnswer(origins(), answered, isTracking)));
      try {
        expect(titleOf(rendered.html), truth.url).toBe(truth.title);
        expect(linksOf(rendered.html, rendered.url).sort(), truth.url).toEqual([...truth.links].sort());
        expect(rendered.url).toBe(truth.url);
        // The browser speaks with the crawl's user agent…
        expect(await (rendered.page as Page).evaluate('navigator.userAgent')).toBe(BROWSER_UA);
      } finally {
        await rendered.close();
      }
      const fetched = answered.filter((entry) => entry.outcome === 'fetched').map((entry) => entry.url);
      // …but the server only ever heard the test: the document once (its fetch), then exactly what answer fetched.
      const log = web.requestLog();
      expect(log.filter((entry) => entry.origin === web.host('app').origin && entry.path === truth.path)).toHaveLength(
        1,
      );
      for (const entry of log) expect(entry.userAgent, entry.path).toBe(TEST_UA);
      expect(sorted(logged())).toEqual(sorted([truth.url, ...fetched]));
      // Every request the truth says the page makes on the web's hosts went through answer (robots.txt aside).
      const wanted = truth.subrequests.filter(
        (sub) => sub.type !== 'websocket' && origins().includes(new URL(sub.url).origin),
      );
      expect(wanted.length).toBeGreaterThan(3);
      const asked = new Set(answered.map((entry) => entry.url));
      for (const sub of wanted) expect(asked.has(sub.url), sub.url).toBe(true);
      // The page's request headers reach answer with lower-cased names.
      for (const entry of answered)
        expect(Object.keys(entry.headers).every((name) => name === name.toLowerCase())).toBe(true);
    }
  });

  it('keeps the page open and routed until close(): a request made after the render goes through answer too', async () => {
    const truth = web.renderPages[0];
    if (truth === undefined) throw new Error('no page');
    const answered: Answered[] = [];
    const rendered = await session.render(
      inputFor(await fetchDocument(truth.url), loopbackAnswer(origins(), answered, isTracking)),
    );
    try {
      web.resetLogs();
      const before = answered.length;
      const text = await (rendered.page as Page).evaluate(
        `fetch('/api/catalogue').then((r) => r.json()).then((j) => j.name)`,
      );
      expect(text).toBe('App Shop');
      expect(answered.slice(before).map((entry) => entry.url)).toEqual([web.url('app', '/api/catalogue')]);
      expect(logged()).toEqual([web.url('app', '/api/catalogue')]);
      // A script navigating the page away is not followed: no request reaches answer or the server.
      await (rendered.page as Page).evaluate(`location.href = '/category/lamps'`);
      await sleep(500);
      expect(logged()).toEqual([web.url('app', '/api/catalogue')]);
      expect(answered.some((entry) => entry.url.endsWith('/category/lamps'))).toBe(false);
    } finally {
      await rendered.close();
      await rendered.close(); // idempotent
    }
  });

  it('never lets the WebSocket to /live reach the server, and reports it refused', async () => {
    const truth = web.renderPages[0];
    if (truth === undefined) throw new Error('no page');
    web.resetLogs();
    const refused: [string, string][] = [];
    const app = web.host('app');
    const rendered = await session.render(
      inputFor(await fetchDocument(truth.url), loopbackAnswer(origins(), [], isTracking), {
        refused: (url, why) => refused.push([url, why]),
      }),
    );
    await rendered.close();
    await sleep(500);
    expect(refused).toEqual([[`ws://${app.address}:${app.port}/live`, 'websocket']]);
    expect(web.requestLog().filter((entry) => entry.path.startsWith('/live'))).toEqual([]);
  });

  it("lets a blocked answer fail the page's fetch: the tracking beacon and the private address never reach anyone, the page still renders", async () => {
    const truth = web.renderPages.find((page) => page.path.startsWith('/products/'));
    if (truth === undefined) throw new Error('no product page');
    web.resetLogs();
    const answered: Answered[] = [];
    const rendered = await session.render(
      inputFor(await fetchDocument(truth.url), loopbackAnswer(origins(), answered, isTracking)),
    );
    try {
      expect(titleOf(rendered.html)).toBe(truth.title);
      const blocked = answered.filter((entry) => entry.outcome === 'blocked').map((entry) => entry.url);
      expect(blocked).toContain(web.url('app', `/api/tracking?page=${encodeURIComponent(truth.path)}`));
      expect(blocked).toContain('http://10.255.255.1/collect');
      // The page sees the refusal as a network error.
      const seen = await (rendered.page as Page).evaluate(
        `fetch('/api/tracking?page=again').then(() => 'answered', (e) => e.name)`,
      );
      expect(seen).toBe('TypeError');
    } finally {
      await rendered.close();
    }
    expect(web.requestLog().filter((entry) => entry.path.startsWith('/api/tracking'))).toEqual([]);
  });
});
