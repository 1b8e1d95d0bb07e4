// The browser context pages open in, replaced by a fresh one every `pagesPerContext` pages: a
// context keeps cookies, caches and memory of every page it held, so it must not live forever.
// A replaced context closes once its last open page does.

import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

interface Slot {
  readonly context: BrowserContext;
  /** Pages opened in it so far. */
  opened: number;
  /** Pages open in it now. */
  open: number;
  retired: boolean;
}

export interface ContextPage {
  readonly page: Page;
  /** Call once the page is closed (idempotent): a retired context closes with its last page. */
  done(): void;
}

export class ContextRotation {
  readonly #browser: Browser;
  readonly #options: BrowserContextOptions;
  readonly #pagesPerContext: number;
  #current: Promise<Slot> | undefined;

  constructor(browser: Browser, options: BrowserContextOptions, pagesPerContext: number) {
    this.#browser = browser;
    this.#options = options;
    this.#pagesPerContext = pagesPerContext;
  }

  /** Creates the first context now, so a browser that cannot make one fails at start. */
  async warm(): Promise<void> {
    await this.#slot();
  }

  async openPage(): Promise<ContextPage> {
    const slot = await this.#reserve();
    let page: Page;
    try {
      page = await slot.context.newPage();
    } catch (error) {
      this.#release(slot);
      throw error;
    }
    let done = false;
    return {
      page,
      done: () => {
        if (done) return;
        done = true;
        this.#release(slot);
      },
    };
  }

  /** A context with room for one more page, counted in it; a full one is retired and replaced. */
  async #reserve(): Promise<Slot> {
    for (;;) {
      const pending = this.#slot();
      const slot = await pending;
      if (slot.opened < this.#pagesPerContext) {
        slot.opened++;
        slot.open++;
        return slot;
      }
      // Many renders may find it full at once: the first replaces it, the others take the new one.
      if (this.#current === pending) {
        this.#current = undefined;
        slot.retired = true;
        if (slot.open === 0) closeQuietly(slot.context);
      }
    }
  }

  #slot(): Promise<Slot> {
    if (this.#current === undefined) {
      const creating = this.#create();
      this.#current = creating;
      creating.catch(() => {
        if (this.#current === creating) this.#current = undefined;
      });
    }
    return this.#current;
  }

  async #create(): Promise<Slot> {
    const context = await this.#browser.newContext(this.#options);
    try {
      // The safety net under each page's own routes: whatever no page route answers (a popup's
      // requests, anything new) is refused, and no WebSocket connects.
      await context.route('**/*', (route) => route.abort('blockedbyclient').catch(() => undefined));
      await context.routeWebSocket(/.*/, (ws) => ws.close().catch(() => undefined));
    } catch (error) {
      closeQuietly(context);
      throw error;
    }
    return { context, opened: 0, open: 0, retired: false };
  }

  #release(slot: Slot): void {
    slot.open--;
    if (slot.retired && slot.open === 0) closeQuietly(slot.context);
  }
}

function closeQuietly(context: BrowserContext): void {
  context.close().catch(() => undefined);
}
