// What the user's handler receives for each fetched page.

import type { CheerioAPI } from 'cheerio';
import type { PageRobotsDirectives } from './extract/meta-robots.js';
import type { DatasetRecord } from './dataset/record-text.js';

export interface EnqueueOptions {
  /** Higher is fetched first within a host. @default 0 */
  readonly priority?: number;
  /** Depth given to the URLs. @default the page's depth + 1 */
  readonly depth?: number;
}

export interface PageContext {
  /** The URL that was requested (before any redirect). */
  readonly url: string;
  /** The URL the response came from (after redirects). */
  readonly finalUrl: string;
  readonly status: number;
  /** Response headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, decoded from gzip/deflate/br. */
  readonly body: Uint8Array;
  /** The body as text, in the charset the page declares (UTF-8 otherwise). */
  readonly text: string;
  /** The page parsed with cheerio, on first use (shared with link extraction). */
  readonly $: CheerioAPI;
  /** Absolute links to follow (scope and dedupe are applied when they are enqueued). */
  readonly links: readonly string[];
  /** Link distance from a seed. */
  readonly depth: number;
  /** The page's `noindex` / `nofollow` from meta robots and X-Robots-Tag. */
  readonly robots: PageRobotsDirectives;
  /** `<link rel="canonical">`, resolved; null when absent. */
  readonly canonicalUrl: string | null;
  readonly contentType: string | undefined;
  /** Adds URLs to the frontier (normalised, scoped, deduped); resolves with how many were new. */
  enqueue(urls: string | readonly string[], options?: EnqueueOptions): Promise<number>;
  /**
   * Appends a record (a plain JSON-serialisable object), or an array of them, to the crawl's
   * `outputs`, and emits a `record` event for each. Resolves once they are written; rejects with
   * `ERR_OUTPUT` when they cannot be (the crawl then stops, and this URL stays not done), or
   * `ERR_INVALID_INPUT` for a record that is not a plain JSON object. The page's records are
   * written before its URL counts as done; in a resumed crawl a page whose records are already in
   * an output is not written to it again. The page holds the outputs' tail from its first push
   * until its handler ends, so push late in the handler (or all at once).
   */
  push(records: DatasetRecord | readonly DatasetRecord[]): Promise<void>;
  /** Fires when the crawl is being stopped. */
  readonly signal: AbortSignal;
}
