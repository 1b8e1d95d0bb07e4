// The session's browser over its lifetime: launched at start, relaunched by the first page that
// finds it dead (all pages waiting share that one relaunch), closed for good at the end.

import { PolitelyError } from '@politely/core';
import type { BrowserContextOptions } from 'playwright-core';
import {
  isAlive,
  killChromium,
  type LaunchedChromium,
  type LaunchSettings,
  launchChromium,
  settlesWithin,
  stopChromium,
} from './chromium-launch.js';
import { type ContextPage, ContextRotation } from './context-rotation.js';

export interface BrowserSettings extends LaunchSettings {
  readonly context: BrowserContextOptions;
  readonly pagesPerContext: number;
}

/** A page opened for one render, in a live browser. */
export interface OpenedPage extends ContextPage {
  /** Rejects (ERR_RENDER_FAILED) when this page's browser dies; never resolves. */
  readonly browserGone: Promise<never>;
}

interface Live {
  readonly launched: LaunchedChromium;
  readonly contexts: ContextRotation;
  readonly gone: Promise<never>;
  stopping: boolean;
  /** Drops it as the current browser, so the next page relaunches. */
  forget(): void;
}

/** How long a browser that failed to open a page has to report its disconnection. */
const DEATH_NOTICE_MS = 2_000;

export class BrowserProcess {
  readonly #settings: BrowserSettings;
  /** The browser pages open in: launching, or launched and alive. Undefined once it died. */
  #live: Promise<Live> | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(settings: BrowserSettings) {
    this.#settings = settings;
  }

  /** Launches the browser and its first context. */
  async start(): Promise<void> {
    await this.#ensure();
  }

  /** A new page in a live browser, relaunched first if it died. */
  async openPage(): Promise<OpenedPage> {
    for (let attempt = 1; ; attempt++) {
      if (this.#closed) throw closedError();
      const live = await this.#ensure();
      try {
        return { ...(await live.contexts.openPage()), browserGone: live.gone };
      } catch (error) {
        if (this.#closed) throw closedError();
        // A browser killed a moment ago may not have reported its disconnection yet: once it
        // has (or its process is gone), it is forgotten and the page opens in a new one.
        if (attempt === 1 && (await this.#isDead(live))) continue;
        throw new PolitelyError('ERR_RENDER_FAILED', `could not open a page: ${messageOf(error)}`, { cause: error });
      }
    }
  }

  /** Closes the browser for good and waits for its process to exit. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      const live = await this.#live?.catch(() => undefined);
      this.#live = undefined;
      if (live !== undefined) {
        live.stopping = true;
        await stopChromium(live.launched);
      }
    })();
    return this.#closing;
  }

  /** True once `live` is known dead (and forgotten): disconnected within a moment, or its process gone. */
  async #isDead(live: Live): Promise<boolean> {
    const disconnected = await settlesWithin(live.gone, DEATH_NOTICE_MS);
    if (!disconnected && (live.launched.pid === undefined || isAlive(live.launched.pid))) return false;
    live.forget();
    return true;
  }

  #ensure(): Promise<Live> {
    if (this.#closed) return Promise.reject(closedError());
    if (this.#live === undefined) {
      const launching = this.#launch();
      this.#live = launching;
      launching.catch(() => {
        if (this.#live === launching) this.#live = undefined;
      });
    }
    return this.#live;
  }

  async #launch(): Promise<Live> {
    const launched = await launchChromium(this.#settings);
    const { browser } = launched;
    let markGone: (error: Error) => void = () => undefined;
    const gone = new Promise<never>((_, reject) => {
      markGone = reject;
    });
    gone.catch(() => undefined);
    const self = this.#live;
    const live: Live = {
      launched,
      contexts: new ContextRotation(browser, this.#settings.context, this.#settings.pagesPerContext),
      gone,
      stopping: false,
      forget: () => {
        if (this.#live === self) this.#live = undefined;
        // Kill what may be left of its process group.
        if (!live.stopping) killChromium(launched);
      },
    };
    const onDisconnected = (): void => {
      markGone(new PolitelyError('ERR_RENDER_FAILED', 'the browser died (its process exited or crashed)'));
      live.forget();
    };
    browser.on('disconnected', onDisconnected);
    try {
      if (!browser.isConnected()) throw new Error('the browser exited right after launch');
      await live.contexts.warm();
      if (this.#closed) throw closedError();
    } catch (error) {
      live.stopping = true;
      await stopChromium(launched);
      if (error instanceof PolitelyError) throw error;
      throw new PolitelyError('ERR_RENDER_FAILED', `could not open a browser context: ${messageOf(error)}`, {
        cause: error,
      });
    }
    return live;
  }
}

function closedError(): PolitelyError {
  return new PolitelyError('ERR_ABORTED', 'the render session is closed');
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
