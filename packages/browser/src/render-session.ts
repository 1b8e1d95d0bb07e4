// One crawl's renders: at most `maxOpenPages` pages open at once, each render on a new page of
// the live browser (relaunched if it died), and everything closed when the crawl's signal fires.

import { PolitelyError } from '@politely/core';
import type { RenderCrawl, RenderedPage, RenderInput, RenderSession } from '@politely/crawler';
import { BrowserProcess, type BrowserSettings, type OpenedPage } from './browser-process.js';
import { loadPage } from './render-page.js';
import { Semaphore } from './semaphore.js';

/** How long a page may take to close before it is left to its context (which closes later). */
const PAGE_CLOSE_MS = 5_000;

export class ChromiumSession implements RenderSession {
  readonly #browser: BrowserProcess;
  readonly #slots: Semaphore;
  readonly #crawl: RenderCrawl;
  /** Rejects (ERR_ABORTED) once the session closes: every render in flight stops with it. */
  readonly #stopped: Promise<never>;
  #stop: (error: PolitelyError) => void = () => undefined;
  #closing: Promise<void> | undefined;
  readonly #onCrawlAbort = (): void => {
    void this.close();
  };

  constructor(settings: BrowserSettings, crawl: RenderCrawl) {
    this.#browser = new BrowserProcess(settings);
    this.#slots = new Semaphore(crawl.maxOpenPages);
    this.#crawl = crawl;
    this.#stopped = new Promise<never>((_, reject) => {
      this.#stop = reject;
    });
    this.#stopped.catch(() => undefined);
    crawl.signal.addEventListener('abort', this.#onCrawlAbort, { once: true });
  }

  /** Launches the browser; on failure the session is closed and the error thrown. */
  async start(): Promise<void> {
    try {
      if (this.#crawl.signal.aborted)
        throw new PolitelyError('ERR_ABORTED', 'the crawl was aborted before its browser started');
      await this.#browser.start();
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async render(input: RenderInput): Promise<RenderedPage> {
    if (this.#closing !== undefined)
      throw new PolitelyError('ERR_ABORTED', `${input.url}: the render session is closed`);
    const release = await this.#slots.acquire(input.signal).catch((error: unknown) => {
      throw this.#failure(input, error);
    });
    let opened: OpenedPage | undefined;
    try {
      opened = await this.#open(input);
      const loaded = await loadPage(opened.page, input, [opened.browserGone, this.#stopped]);
      const page = opened;
      let closing: Promise<void> | undefined;
      return {
        html: loaded.html,
        url: loaded.url,
        page: page.page,
        // The page stays open (and routed) until the handler is done with it.
        close: () => (closing ??= closePage(page).finally(release)),
      };
    } catch (error) {
      if (opened !== undefined) await closePage(opened);
      release();
      throw this.#failure(input, error);
    }
  }

  /** Closes every page and the browser, and waits for its process to exit. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#crawl.signal.removeEventListener('abort', this.#onCrawlAbort);
      const closed = new PolitelyError('ERR_ABORTED', 'the render session is closed');
      this.#stop(closed);
      this.#slots.close(closed);
      await this.#browser.close();
    })();
    return this.#closing;
  }

  /** A new page; gives up at once if the render is aborted while the browser (re)launches. */
  async #open(input: RenderInput): Promise<OpenedPage> {
    const opening = this.#browser.openPage();
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new PolitelyError('ERR_ABORTED', `${input.url}: render aborted`));
    });
    input.signal.addEventListener('abort', onAbort, { once: true });
    if (input.signal.aborted) onAbort();
    try {
      return await Promise.race([opening, aborted, this.#stopped]);
    } catch (error) {
      // The page may still come: close it then.
      opening.then(closePage, () => undefined);
      throw error;
    } finally {
      input.signal.removeEventListener('abort', onAbort);
    }
  }

  /** ERR_ABORTED once the session closed or the render was aborted; else the render's own error. Starts with the URL. */
  #failure(input: RenderInput, error: unknown): PolitelyError {
    let failure: PolitelyError;
    if (
      (this.#closing !== undefined || input.signal.aborted) &&
      !(error instanceof PolitelyError && error.code === 'ERR_ABORTED')
    ) {
      failure = new PolitelyError(
        'ERR_ABORTED',
        this.#closing !== undefined ? 'the render session closed' : 'render aborted',
        { cause: error },
      );
    } else if (error instanceof PolitelyError) {
      failure = error;
    } else {
      failure = new PolitelyError('ERR_RENDER_FAILED', String(error), { cause: error });
    }
    return failure.message.startsWith(input.url)
      ? failure
      : new PolitelyError(failure.code, `${input.url}: ${failure.message}`, { cause: failure.cause ?? failure });
  }
}

/** Closes a render's page (bounded: a hung close is left to its context) and counts it closed. Never rejects. */
async function closePage(opened: OpenedPage): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      opened.page.close().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, PAGE_CLOSE_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    opened.done();
  }
}
