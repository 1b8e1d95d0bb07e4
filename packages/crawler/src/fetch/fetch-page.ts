// One page request, one hop, classified: a final response, a redirect to follow by hand, or a
// failure (retryable or a skip). The HTTP work itself is core's shared client.

import { type BodyLimit, type HttpClient, type HttpResponse, PolitelyError } from '@politely/core';
import type { SkipReason } from '../skip-reasons.js';
import { outgoingHeaders, type RequestProfile } from './request-profile.js';

export type PageFetchOutcome =
  | { readonly kind: 'response'; readonly response: HttpResponse }
  | { readonly kind: 'redirect'; readonly response: HttpResponse; readonly location: string }
  /** Not worth retrying: reported as a skip. */
  | { readonly kind: 'skip'; readonly reason: SkipReason; readonly error: PolitelyError }
  /** A network failure or timeout (retryable: retry with backoff), or an answer that is not HTTP (not retryable). */
  | { readonly kind: 'failure'; readonly error: PolitelyError; readonly retryable: boolean };

export interface PageFetchSettings extends RequestProfile {
  readonly client: HttpClient;
  readonly bodyLimit: BodyLimit;
  readonly accept: string;
  readonly timeoutMs: number;
  /** A revisit's `If-None-Match` / `If-Modified-Since` (revalidation.ts). */
  readonly conditional?: Readonly<Record<string, string>>;
  /** Connect to this address (`politenessKey: 'ip'`: the one the URL is keyed by), not a new lookup's. */
  readonly connectAddress?: string | undefined;
  /** Told when the request's head is written (`HttpRequest.onSent`). */
  readonly onSent?: ((at: number) => void) | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches `url` with the crawl's headers and the request's own (`ownHeaders`); with cookies on,
 * sends the jar's cookies for the URL and stores what the response sets (a redirect's too).
 */
export async function fetchPage(
  url: string,
  settings: PageFetchSettings,
  signal: AbortSignal,
  ownHeaders?: Readonly<Record<string, string>>,
): Promise<PageFetchOutcome> {
  let response: HttpResponse;
  try {
    const cookie = settings.cookies === undefined ? '' : await settings.cookies.cookieFor(url);
    response = await settings.client.get({
      url,
      headers: outgoingHeaders(
        settings,
        settings.conditional === undefined
          ? { accept: settings.accept }
          : { accept: settings.accept, ...settings.conditional },
        ownHeaders,
        cookie,
      ),
      signal,
      timeoutMs: settings.timeoutMs,
      bodyLimit: settings.bodyLimit,
      ...(settings.connectAddress === undefined ? {} : { connectAddress: settings.connectAddress }),
      ...(settings.onSent === undefined ? {} : { onSent: settings.onSent }),
    });
  } catch (error) {
    const failure =
      error instanceof PolitelyError
        ? error
        : new PolitelyError('ERR_FETCH_FAILED', `GET ${url}: ${String(error)}`, { cause: error });
    if (failure.code === 'ERR_BODY_TOO_LARGE') return { kind: 'skip', reason: 'too-large', error: failure };
    if (failure.code === 'ERR_HEADERS_TOO_LARGE') return { kind: 'skip', reason: 'headers-too-large', error: failure };
    if (failure.code === 'ERR_ADDRESS_BLOCKED') return { kind: 'skip', reason: 'blocked-address', error: failure };
    // A stop, or an archive that could not be written (the crawl stops): not this URL's failure.
    if (failure.code === 'ERR_ABORTED' || failure.code === 'ERR_OUTPUT') throw failure;
    return { kind: 'failure', error: failure, retryable: failure.code !== 'ERR_PROTOCOL' };
  }
  await settings.cookies?.remember(url, response.headerValues('set-cookie'));
  const location = response.header('location');
  if (REDIRECT_STATUSES.has(response.status) && location !== undefined && location.trim() !== '') {
    return { kind: 'redirect', response, location: location.trim() };
  }
  return { kind: 'response', response };
}
