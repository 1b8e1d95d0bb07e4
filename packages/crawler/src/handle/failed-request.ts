// What `onFailed` is given for a URL that failed for good: the request, the last error, and a
// way to push records (an error row, say) that are written before the URL counts as failed.

import type { DatasetRecord } from '../dataset/record-text.js';
import type { ErrorEvent } from '../events.js';
import type { PageRequest } from '../page-context.js';

/** A page that failed for good: its fetch or its handler failed on every attempt (`maxRetries`). */
export interface FailedRequest {
  /** The request, as its handler would have seen it (label, userData, depth, priority). */
  readonly request: PageRequest;
  /** The URL requested last (after redirects). */
  readonly url: string;
  /** The last attempt's error. */
  readonly error: Error;
  /** Where it failed: `fetch` (the request or its render) or `handler`. */
  readonly stage: ErrorEvent['stage'];
  /** Attempts made. */
  readonly attempts: number;
  /**
   * Appends records to the crawl's `outputs` (as `page.push`); they are written before the URL
   * is stored as failed, and a resumed crawl does not write them twice.
   */
  push(records: DatasetRecord | readonly DatasetRecord[]): Promise<void>;
  /** Fires when the crawl is being stopped. */
  readonly signal: AbortSignal;
}

/**
 * Called once for each page that failed for good, before the store records it as failed (see
 * `retryFailed`). What it returns (or resolves with) is ignored; an error it throws is reported as
 * an `error` event (stage `handler`) and the crawl goes on.
 */
export type FailedRequestHandler = (failed: FailedRequest) => unknown;
