// ChromiumRenderer: the crawler's page renderer on Chromium (through playwright-core). One
// browser per crawl; the page's every request is answered by the crawler, never by the network.

import { PolitelyError } from '@politely/core';
import { describeValue, optionChecks } from '@politely/core/internal';
import type { PageRenderer, RenderCrawl, RenderSession } from '@politely/crawler';
import { resolveChromium } from './chromium-path.js';
import { ChromiumSession } from './render-session.js';

/** Options of `ChromiumRenderer`: the executable, its arguments, pages per browser context and launch deadline. */
export interface ChromiumRendererOptions {
  /**
   * The Chromium (or Chrome) executable. `start()` rejects with `ERR_INVALID_OPTION` if it does
   * not exist or is not executable, or if none is given and none is found.
   * @default the first of `chromium`, `chromium-browser`, `google-chrome-stable`, `google-chrome` found on PATH
   */
  readonly executablePath?: string;
  /**
   * Extra command-line switches, after the renderer's own (headless, `--no-sandbox`,
   * `--disable-gpu`, no background networking, `--host-resolver-rules=MAP * ~NOTFOUND`, …). A
   * switch given twice takes its last value: overriding `--host-resolver-rules` lets requests the
   * routes do not see (a worker's WebSocket, Chromium's own) reach the network.
   * @default []
   */
  readonly args?: readonly string[];
  /**
   * Renders per browser context: after this many, the next render opens in a fresh context (no
   * cookies, no cache) and the old one closes once its last page does, so memory stays bounded.
   * @default 100
   */
  readonly pagesPerContext?: number;
  /**
   * How long launching Chromium may take (at start, and at each relaunch after it died).
   * @default 30_000
   */
  readonly launchTimeoutMs?: number;
}

/** Every option `ChromiumRenderer` knows: a key missing here, or one too many, is a type error. */
export const RENDERER_OPTION_KEYS: Record<keyof ChromiumRendererOptions, true> = {
  executablePath: true,
  args: true,
  pagesPerContext: true,
  launchTimeoutMs: true,
};

/**
 * A `PageRenderer` on Chromium: give it to `createCrawler({ renderer })`. It loads each page the
 * crawler fetched and answers every request the page makes through the crawler, never the network.
 */
export class ChromiumRenderer implements PageRenderer {
  readonly #executablePath: string | undefined;
  readonly #args: readonly string[];
  readonly #pagesPerContext: number;
  readonly #launchTimeoutMs: number;

  /** Throws `ERR_INVALID_OPTION` for an option of the wrong type or out of range. */
  constructor(options: ChromiumRendererOptions = {}) {
    const check = optionChecks('ChromiumRenderer');
    if (typeof options !== 'object' || options === null)
      check.fail(`options must be an object, got ${describeValue(options)}`);
    check.knownKeys(options, RENDERER_OPTION_KEYS);
    const { executablePath, args = [] } = options;
    if (executablePath !== undefined && (typeof executablePath !== 'string' || executablePath === ''))
      check.fail(`executablePath must be a non-empty string, got ${describeValue(executablePath)}`);
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string' && arg.startsWith('-')))
      check.fail('args must be an array of command-line switches (each starting with "-")');
    const pagesPerContext = check.count('pagesPerContext', options.pagesPerContext, 100, 1);
    const launchTimeoutMs = check.count('launchTimeoutMs', options.launchTimeoutMs, 30_000, 1);
    this.#executablePath = executablePath;
    this.#args = [...args];
    this.#pagesPerContext = pagesPerContext;
    this.#launchTimeoutMs = launchTimeoutMs;
  }

  /**
   * Launches one Chromium with one fresh context for `crawl`. Rejects with `ERR_INVALID_OPTION`
   * (no usable executable, a bad `maxOpenPages`), `ERR_RENDER_FAILED` (it would not launch) or
   * `ERR_ABORTED` (the crawl's signal fired first).
   */
  async start(crawl: RenderCrawl): Promise<RenderSession> {
    if (!Number.isSafeInteger(crawl.maxOpenPages) || crawl.maxOpenPages < 1) {
      throw new PolitelyError(
        'ERR_INVALID_OPTION',
        `maxOpenPages must be a positive integer, got ${String(crawl.maxOpenPages)}`,
      );
    }
    const executablePath = resolveChromium(this.#executablePath);
    const session = new ChromiumSession(
      {
        executablePath,
        args: this.#args,
        launchTimeoutMs: this.#launchTimeoutMs,
        pagesPerContext: this.#pagesPerContext,
        context: {
          userAgent: crawl.userAgent,
          javaScriptEnabled: true,
          // A service worker's requests bypass the page's routes: none may register.
          serviceWorkers: 'block',
          acceptDownloads: false,
        },
      },
      crawl,
    );
    await session.start();
    return session;
  }
}
