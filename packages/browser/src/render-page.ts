// One render on one page: every request the page makes is answered here, never by the network
// (the document from the crawler's response, everything else by `input.answer`), then the page is
// loaded and its DOM read, or the render fails for the first reason it has.

import { PolitelyError } from '@politely/core';
import type { BrowserAnswer, RenderInput } from '@politely/crawler';
import { errors, type Page, type Request, type Route } from 'playwright-core';
import { fulfilHeaders, lowerCaseHeaders } from './headers.js';

/** How a refusal reaches the page: the error `fetch` and friends see. */
const ABORT_CODES = { blocked: 'blockedbyclient', failed: 'failed', aborted: 'aborted' } as const;

export interface LoadedPage {
  readonly html: string;
  readonly url: string;
}

/**
 * Routes `page` to `input`, loads `input.url` and reads its HTML. Rejects with a PolitelyError:
 * ERR_RENDER_FAILED (crash, timeout, navigation error), ERR_ABORTED (`input.signal`), or the
 * reason of the first of `stops` to reject (the browser died, the session closed).
 */
export async function loadPage(page: Page, input: RenderInput, stops: readonly Promise<never>[]): Promise<LoadedPage> {
  const deadline = performance.now() + input.timeoutMs;
  const watch = watchPage(page, input);
  const race = <T>(work: Promise<T>): Promise<T> => Promise.race([work, watch.failed, ...stops]);
  try {
    await race(routePage(page, input));
    const timeout = Math.max(1, Math.round(deadline - performance.now()));
    await race(page.goto(input.url, { waitUntil: input.waitUntil, timeout }));
    // A page busy in a script never answers `content()`: the deadline still ends the render.
    const html = await race(page.content());
    return { html, url: page.url() };
  } catch (error) {
    throw renderError(input, error);
  } finally {
    watch.dispose();
  }
}

/** The page's routes: the document, everything else through `answer`, no WebSocket, no popup. */
export async function routePage(page: Page, input: RenderInput): Promise<void> {
  let documentServed = false;
  await page.route('**/*', async (route) => {
    const request = route.request();
    try {
      if (isMainFrameNavigation(page, request)) {
        if (documentServed) {
          // A script navigating away (`location.href = …`): the crawler does not follow it here.
          await route.abort('blockedbyclient');
          return;
        }
        documentServed = true;
        await route.fulfill({ status: input.status, headers: fulfilHeaders(input.headers), body: input.body });
        return;
      }
      // A page being closed (a failed render) asks for nothing more.
      if (page.isClosed()) return;
      await answerRoute(route, request, input);
    } catch {
      // The page closed while the request was pending: nobody is left to answer.
    }
  });
  await page.routeWebSocket(/.*/, (ws) => {
    // Never connected: the handler does not call connectToServer(), so the page's socket is closed.
    callQuietly(() => input.refused?.(ws.url(), 'websocket'));
    ws.close().catch(() => undefined);
  });
  // A popup is a new page with no route of its own (the context's refuse everything): close it.
  page.on('popup', (popup) => {
    popup.close().catch(() => undefined);
  });
}

async function answerRoute(route: Route, request: Request, input: RenderInput): Promise<void> {
  const url = request.url();
  const protocol = new URL(url).protocol;
  if (protocol !== 'http:' && protocol !== 'https:') {
    callQuietly(() => input.refused?.(url, 'scheme'));
    await route.abort('blockedbyclient');
    return;
  }
  const answer = await input
    .answer({
      url,
      method: request.method(),
      headers: lowerCaseHeaders(await request.allHeaders()),
      body: request.postDataBuffer() ?? undefined,
      resourceType: request.resourceType(),
    })
    // The contract says answer never rejects; if it does, the page sees a failed request.
    .catch((): BrowserAnswer => ({ kind: 'refused', as: 'failed' }));
  if (answer.kind === 'response') {
    await route.fulfill({ status: answer.status, headers: fulfilHeaders(answer.headers), body: answer.body });
  } else {
    await route.abort(ABORT_CODES[answer.as]);
  }
}

function isMainFrameNavigation(page: Page, request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame() === page.mainFrame();
  } catch {
    // `frame()` throws for a service worker's requests (blocked anyway): not the page's document.
    return false;
  }
}

/** Rejects on the first reason the render cannot finish: its deadline, a crash, the page gone, the signal. */
function watchPage(page: Page, input: RenderInput): { failed: Promise<never>; dispose(): void } {
  let fail: (error: PolitelyError) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failed.catch(() => undefined);
  const timer = setTimeout(() => {
    fail(
      new PolitelyError(
        'ERR_RENDER_FAILED',
        `${input.url}: timed out after ${input.timeoutMs} ms (waiting for '${input.waitUntil}')`,
      ),
    );
  }, input.timeoutMs);
  const onCrash = (): void => fail(new PolitelyError('ERR_RENDER_FAILED', `${input.url}: the page crashed`));
  const onClose = (): void =>
    fail(new PolitelyError('ERR_RENDER_FAILED', `${input.url}: the page closed during the render (the browser died)`));
  const onAbort = (): void =>
    fail(new PolitelyError('ERR_ABORTED', `${input.url}: render aborted`, { cause: input.signal.reason }));
  page.on('crash', onCrash);
  page.on('close', onClose);
  input.signal.addEventListener('abort', onAbort, { once: true });
  if (input.signal.aborted) onAbort();
  return {
    failed,
    dispose: () => {
      clearTimeout(timer);
      page.off('crash', onCrash);
      page.off('close', onClose);
      input.signal.removeEventListener('abort', onAbort);
    },
  };
}

/** Any failure as a PolitelyError whose message starts with the page's URL. */
function renderError(input: RenderInput, error: unknown): PolitelyError {
  if (error instanceof PolitelyError) {
    return error.message.startsWith(input.url)
      ? error
      : new PolitelyError(error.code, `${input.url}: ${error.message}`, { cause: error });
  }
  if (error instanceof errors.TimeoutError) {
    return new PolitelyError(
      'ERR_RENDER_FAILED',
      `${input.url}: timed out after ${input.timeoutMs} ms (waiting for '${input.waitUntil}')`,
      { cause: error },
    );
  }
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
  return new PolitelyError('ERR_RENDER_FAILED', `${input.url}: ${message}`, { cause: error });
}

function callQuietly(call: () => void): void {
  try {
    call();
  } catch {
    // A listener's error must not break the page's routing.
  }
}
