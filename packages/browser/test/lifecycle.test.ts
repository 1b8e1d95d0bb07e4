// The session's life: pages bounded by maxOpenPages, a killed browser relaunched by the next
// render (and the render it killed failing, not hanging), a hung page failing at its timeout, and
// the crawl's signal closing everything with no Chromium process left behind. Each test starts
// and closes its own session, so the processes it looks for in /proc are its own.

import { readFileSync } from 'node:fs';
import type { RenderInput, RenderSession } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumRenderer } from '../src/index.js';
import {
  BROWSER_UA,
  CHROMIUM,
  chromiumChildren,
  type FetchedDocument,
  fetchDocument,
  inputFor,
  liveInGroup,
  loopbackAnswer,
  sleep,
  startTinyServer,
  type TinyServer,
  titleOf,
  waitUntil,
} from './helpers.js';

let site: TinyServer;
/** Responses to /hang never come. */
const hanging: { end(): void }[] = [];

beforeAll(async () => {
  site = await startTinyServer((req, res) => {
    const path = req.url ?? '/';
    const html = (body: string): void => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    if (path === '/') html('<title>Plain</title><link rel="icon" href="data:,"><p>plain</p>');
    else if (path === '/scripted')
      html(
        '<title>Loading</title><script>fetch("/data").then((r) => r.text()).then((t) => { document.title = t; })</script>',
      );
    else if (path === '/pending') html('<title>Pending</title><script>fetch("/hang")</script>');
    else if (path === '/blocking') html('<title>Blocking</title><script src="/never.js"></script><p>after the script');
    else if (path === '/busy')
      html('<title>Busy</title><script>addEventListener("load", () => setTimeout(() => { for (;;) {} }, 0))</script>');
    else if (path === '/hang') hanging.push(res);
    else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`data ${path}`);
    }
  });
});

afterAll(async () => {
  for (const res of hanging) res.end();
  await site?.close();
});

const renderer = new ChromiumRenderer({ executablePath: CHROMIUM });

async function startSession(maxOpenPages = 2, signal = new AbortController().signal): Promise<RenderSession> {
  return renderer.start({ userAgent: BROWSER_UA, maxOpenPages, signal });
}

async function doc(path: string): Promise<FetchedDocument> {
  return fetchDocument(`${site.origin}${path}`);
}

const answer = (): RenderInput['answer'] => loopbackAnswer([site.origin], []);

/** The one Chromium browser process this process runs now. */
function theBrowser(): number {
  const pids = chromiumChildren();
  expect(pids).toHaveLength(1);
  return pids[0] ?? 0;
}

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message?: string };
  }
  throw new Error('expected a rejection');
}

describe('ChromiumRenderer session life', () => {
  it('keeps at most maxOpenPages pages open: a second render starts only after the first page closes', async () => {
    const session = await startSession(1);
    try {
      const events: string[] = [];
      const tracked = (name: string): RenderInput['answer'] => {
        const inner = answer();
        return async (request) => {
          events.push(`${name} asks ${new URL(request.url).pathname}`);
          return inner(request);
        };
      };
      const first = await session.render(inputFor(await doc('/scripted'), tracked('first')));
      events.push('first rendered');
      const second = session.render(inputFor(await doc('/scripted'), tracked('second'))).then((page) => {
        events.push('second rendered');
        return page;
      });
      await sleep(1_500);
      expect(events).toEqual(['first asks /data', 'first rendered']);
      events.push('first closing');
      await first.close();
      const page = await second;
      expect(titleOf(page.html)).toBe('data /data');
      await page.close();
      expect(events).toEqual([
        'first asks /data',
        'first rendered',
        'first closing',
        'second asks /data',
        'second rendered',
      ]);
    } finally {
      await session.close();
    }
  });

  it('relaunches a killed browser for the next render, and fails the render it killed instead of hanging', async () => {
    const session = await startSession();
    try {
      const ok = await session.render(inputFor(await doc('/'), answer()));
      expect(titleOf(ok.html)).toBe('Plain');
      await ok.close();

      // Killed between renders: the next render relaunches it.
      const killed = theBrowser();
      process.kill(killed, 'SIGKILL');
      expect(await waitUntil(() => !chromiumChildren().includes(killed), 10_000)).toBe(true);
      const again = await session.render(inputFor(await doc('/'), answer()));
      expect(titleOf(again.html)).toBe('Plain');
      await again.close();
      const relaunched = theBrowser();
      expect(relaunched).not.toBe(killed);

      // Killed during a render (its request is never answered): the render fails at once.
      let asked!: () => void;
      const askedPromise = new Promise<void>((resolve) => {
        asked = resolve;
      });
      const stuck = session.render(
        inputFor(
          await doc('/scripted'),
          () => {
            asked();
            return new Promise(() => undefined);
          },
          { timeoutMs: 25_000 },
        ),
      );
      await askedPromise;
      const killedAt = performance.now();
      process.kill(relaunched, 'SIGKILL');
      const error = await rejection(stuck);
      expect(error.code).toBe('ERR_RENDER_FAILED');
      expect(error.message).toContain(`${site.origin}/scripted`);
      expect(performance.now() - killedAt).toBeLessThan(5_000);

      // Many renders waiting on a dead browser share one relaunch.
      expect(await waitUntil(() => chromiumChildren().length === 0, 10_000)).toBe(true);
      const many = await Promise.all([0, 1].map(async () => session.render(inputFor(await doc('/'), answer()))));
      for (const page of many) expect(titleOf(page.html)).toBe('Plain');
      expect(chromiumChildren()).toHaveLength(1);
      await Promise.all(many.map((page) => page.close()));
    } finally {
      await session.close();
    }
  });

  it('fails a page that never settles with ERR_RENDER_FAILED at its timeout, and renders the next one', async () => {
    const session = await startSession(1);
    try {
      // A fetch that never ends: network idle never comes.
      let started = performance.now();
      const pending = await rejection(
        session.render(inputFor(await doc('/pending'), answer(), { waitUntil: 'networkidle', timeoutMs: 2_000 })),
      );
      expect(pending.code).toBe('ERR_RENDER_FAILED');
      expect(pending.message).toMatch(/timed out after 2000 ms/);
      expect(performance.now() - started).toBeLessThan(2_000 + 3_000);
      expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);

      // An answer that never comes for a script the page cannot load without.
      started = performance.now();
      const silent = await rejection(
        session.render(
          inputFor(await doc('/blocking'), () => new Promise(() => undefined), { waitUntil: 'load', timeoutMs: 1_500 }),
        ),
      );
      expect(silent.code).toBe('ERR_RENDER_FAILED');
      expect(performance.now() - started).toBeLessThan(1_500 + 3_000);

      // A script that never yields after load: the DOM cannot be read, the deadline still holds.
      started = performance.now();
      const busy = await rejection(
        session.render(inputFor(await doc('/busy'), answer(), { waitUntil: 'load', timeoutMs: 2_000 })),
      );
      expect(busy.code).toBe('ERR_RENDER_FAILED');
      expect(performance.now() - started).toBeLessThan(2_000 + 3_000);

      // Each failed page was closed and its slot freed (maxOpenPages is 1).
      const next = await session.render(inputFor(await doc('/'), answer()));
      expect(titleOf(next.html)).toBe('Plain');
      await next.close();
    } finally {
      await session.close();
    }
  });

  it('fails a render whose page crashes (its renderer process killed), and renders the next one in the same browser', async () => {
    const session = await startSession();
    try {
      const browser = theBrowser();
      const renderers = (): number[] =>
        liveInGroup(browser).filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
          } catch {
            return false;
          }
        });
      // The page asks for its data: the test kills the renderer process it runs in, then answers.
      const crashing = session.render(
        inputFor(await doc('/scripted'), async (request) => {
          for (const pid of renderers()) process.kill(pid, 'SIGKILL');
          return answer()(request);
        }),
      );
      const error = await rejection(crashing);
      expect(error.code).toBe('ERR_RENDER_FAILED');
      expect(error.message).toBe(`${site.origin}/scripted: the page crashed`);
      const next = await session.render(inputFor(await doc('/'), answer()));
      expect(titleOf(next.html)).toBe('Plain');
      await next.close();
      expect(theBrowser()).toBe(browser);
    } finally {
      await session.close();
    }
  });

  it('aborts a render when its signal fires', async () => {
    const session = await startSession(1);
    try {
      const controller = new AbortController();
      const render = session.render(
        inputFor(await doc('/scripted'), () => new Promise(() => undefined), { signal: controller.signal }),
      );
      await sleep(500);
      controller.abort();
      expect((await rejection(render)).code).toBe('ERR_ABORTED');
      // A render waiting for the one slot gives up too.
      const holder = await session.render(inputFor(await doc('/'), answer()));
      const waiting = new AbortController();
      const queued = session.render(inputFor(await doc('/'), answer(), { signal: waiting.signal }));
      waiting.abort();
      expect((await rejection(queued)).code).toBe('ERR_ABORTED');
      await holder.close();
    } finally {
      await session.close();
    }
  });

  it('closes the browser when the crawl signal fires: no Chromium process left, later renders ERR_ABORTED', async () => {
    const crawl = new AbortController();
    const session = await startSession(2, crawl.signal);
    const ok = await session.render(inputFor(await doc('/'), answer()));
    expect(titleOf(ok.html)).toBe('Plain');
    const browser = theBrowser();
    expect(liveInGroup(browser).length).toBeGreaterThan(1); // the browser and its helpers
    const inFlight = session.render(inputFor(await doc('/scripted'), () => new Promise(() => undefined)));
    await sleep(300);
    crawl.abort();
    expect((await rejection(inFlight)).code).toBe('ERR_ABORTED');
    expect(await waitUntil(() => chromiumChildren().length === 0 && liveInGroup(browser).length === 0, 10_000)).toBe(
      true,
    );
    expect((await rejection(session.render(inputFor(await doc('/'), answer())))).code).toBe('ERR_ABORTED');
    await ok.close(); // still safe after the browser is gone
    await session.close(); // idempotent
    // A crawl already aborted starts nothing.
    expect((await rejection(startSession(1, crawl.signal))).code).toBe('ERR_ABORTED');
    expect(chromiumChildren()).toEqual([]);
  });

  it('close() waits for the browser process to exit', async () => {
    const session = await startSession();
    const browser = theBrowser();
    await session.close();
    expect(liveInGroup(browser)).toEqual([]);
    expect(chromiumChildren()).toEqual([]);
  });
});
