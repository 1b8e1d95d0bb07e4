// The contract between the crawler and a page renderer (a browser): the crawler fetches the page
// itself, hands its response to the renderer, and answers every request the page then makes
// (`RenderInput.answer`). The renderer never reaches the network on its own: that is what keeps
// a rendered page exactly as polite as a fetched one. `@politely/browser` implements it on
// Chromium; anything else that honours it can render too.

/** When a render counts as loaded (Playwright's lifecycle events). */
export type RenderWaitUntil = 'load' | 'domcontentloaded' | 'networkidle';

/** One request a page makes while it renders (a script, an API call, a frame, a picture, …). */
export interface BrowserRequest {
  /** Absolute URL, as the page asked for it. */
  readonly url: string;
  /** `GET`, `POST`, … */
  readonly method: string;
  /** The headers the page set (names lower-cased); the crawler decides which it sends. */
  readonly headers: Readonly<Record<string, string>>;
  /** The request body, if any (a POST from `fetch`). */
  readonly body?: Buffer | undefined;
  /** Playwright's resource type: `document`, `script`, `fetch`, `xhr`, `image`, `stylesheet`, `font`, `media`, … */
  readonly resourceType: string;
}

/** How the crawler answers a page's request: a response to hand to the page, or a refusal. */
export type BrowserAnswer =
  | {
      readonly kind: 'response';
      readonly status: number;
      /** Response headers as received, repeated names kept (`set-cookie`). */
      readonly headers: readonly (readonly [string, string])[];
      readonly body: Buffer;
    }
  | {
      readonly kind: 'refused';
      /**
       * Why, as the page should see it: `blocked` (a rule of the crawl: robots.txt, the address
       * guard, a resource type it does not load, a scheme it does not speak), `failed` (the server
       * could not be reached), `aborted` (the crawl is stopping).
       */
      readonly as: 'blocked' | 'failed' | 'aborted';
    };

/** A fetched page to render. */
export interface RenderInput {
  /** The page's final URL (after redirects): where the document is loaded from. */
  readonly url: string;
  /** The document as the crawler fetched it. */
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
  readonly waitUntil: RenderWaitUntil;
  /** The whole render (load and wait) may take this long before it counts as hung. */
  readonly timeoutMs: number;
  /** Answers every request the page makes except the document itself. Never rejects. */
  answer(request: BrowserRequest): Promise<BrowserAnswer>;
  /** The page refused a request the renderer never lets out (a WebSocket, an unknown scheme). */
  refused?(url: string, why: 'websocket' | 'scheme'): void;
  readonly signal: AbortSignal;
}

/** A page rendered and still open: the DOM as HTML, and the live page until `close()`. */
export interface RenderedPage {
  /** `document.documentElement.outerHTML` once the render settled. */
  readonly html: string;
  /** The URL the page shows (a script may have changed it with `history.pushState`). */
  readonly url: string;
  /** The live page of the renderer (a Playwright `Page` for `@politely/browser`). */
  readonly page: unknown;
  /** Closes the page; called once the handler is done with it. */
  close(): Promise<void>;
}

/** One crawl's browser. */
export interface RenderSession {
  /**
   * Loads `input` and waits as `input.waitUntil` says. Rejects with a `PolitelyError`
   * (`ERR_RENDER_FAILED`) when the page crashed, hung past `input.timeoutMs` or the browser died;
   * the session restarts its browser for the next page by itself.
   */
  render(input: RenderInput): Promise<RenderedPage>;
  /** Closes every page and the browser. Idempotent. */
  close(): Promise<void>;
}

/** What a session is started with. */
export interface RenderCrawl {
  /** The crawler's `User-Agent`: the browser's `navigator.userAgent` says the same. */
  readonly userAgent: string;
  /** Renders at once at most (the crawl's `concurrency`): a session keeps no more pages open. */
  readonly maxOpenPages: number;
  /** The crawl's signal: once it fires the session closes its browser. */
  readonly signal: AbortSignal;
}

/** What renders pages for a crawl: a browser, started once per `run()` and closed when it ends. */
export interface PageRenderer {
  /** Starts a session for one crawl (one browser, one fresh context). */
  start(crawl: RenderCrawl): Promise<RenderSession>;
}
