// The fetch stage, once the claim has its turn at the host: one request for a claimed URL, and what
// its answer means for the URL and the host's clock. A response to hand on (final or a redirect),
// or an outcome that ends the turn: a failure to retry (held by backoff and Retry-After), a failure
// for good, a skip.

import { type HttpClient, type HttpResponse, PolitelyError, type RobotsCheck } from '@politely/core';
import type { FrontierEntry } from '@politely/frontier';
import type { CrawlerEmitter } from '../../events.js';
import { fetchPage } from '../../fetch/fetch-page.js';
import type { RequestProfile } from '../../fetch/request-profile.js';
import { conditionalHeaders } from '../../fetch/revalidation.js';
import type { ResolvedCrawlerOptions } from '../../options.js';
import type { ResourceProcessor } from '../../plugin.js';
import {
  type ClockChange,
  clockAfterChallenge,
  clockAfterFailure,
  clockAfterResponse,
  type HostPoliteness,
  isRetryableStatus,
  pacedAfter,
  responseHeadAt,
  retryAfterMs,
} from '../../politeness/index.js';
import type { StatsRecorder } from '../../stats.js';
import type { UrlOutcome } from '../outcome.js';
import { attemptFailed, released, skipped } from '../outcome.js';
import type { CrawlServices } from '../services.js';

export interface FetchStageSettings extends RequestProfile {
  readonly client: HttpClient;
  readonly maxBodyBytes: number;
  readonly requestTimeoutMs: number;
  readonly maxRetries: number;
  /** The longest backoff or Retry-After the crawler waits. */
  readonly backoffMaxMs: number;
  /** Redirect hops a URL may take (`maxRedirects`): the walk follows one through the frontier. */
  readonly maxRedirects: number;
  readonly politeness: HostPoliteness;
  /** The address a request of this key connects to (`politenessKey: 'ip'`), else undefined. */
  readonly connectAddressOf: (hostKey: string) => string | undefined;
  readonly emitter: CrawlerEmitter;
  readonly stats: StatsRecorder;
  readonly signal: AbortSignal;
  /** A signature challenge to an unsigned request (`signing.sign: 'on-challenge'`): retried signed. */
  readonly isSignatureChallenge: (response: HttpResponse) => boolean;
}

export function settingsFrom(options: ResolvedCrawlerOptions, services: CrawlServices): FetchStageSettings {
  return {
    client: services.client,
    userAgent: options.userAgent,
    from: options.from,
    headers: options.headers,
    cookies: services.cookies,
    maxBodyBytes: options.maxBodyBytes,
    requestTimeoutMs: options.requestTimeoutMs,
    maxRetries: options.maxRetries,
    backoffMaxMs: options.backoffMaxMs,
    maxRedirects: options.maxRedirects,
    politeness: services.politeness,
    connectAddressOf: (hostKey) => services.keys.connectAddressOf(hostKey),
    emitter: services.emitter,
    stats: services.stats,
    signal: services.signal,
    isSignatureChallenge: services.isSignatureChallenge,
  };
}

/** A response to hand on: the final one, or a redirect to follow through the frontier. */
export interface FetchedResponse {
  readonly kind: 'fetched';
  readonly response: HttpResponse;
  /** Set when the response is a redirect: its target, as the server wrote it. */
  readonly location?: string;
  /** The host's clock after this response: paced from its head, held by a Retry-After. */
  readonly clock: ClockChange;
}

const PAGE_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8';

export async function fetchStage(
  entry: FrontierEntry,
  processor: ResourceProcessor | undefined,
  check: RobotsCheck,
  settings: FetchStageSettings,
  /** Told when the request's head is written (`HttpRequest.onSent`). */
  onSent?: (at: number) => void,
): Promise<FetchedResponse | UrlOutcome> {
  const { politeness, emitter } = settings;
  const { hostKey } = entry;
  const startedAt = Date.now();
  settings.stats.request(entry.kind ?? 'page');
  const conditional = entry.revisit === undefined ? undefined : conditionalHeaders(entry.url, entry.revisit);
  if (emitter.listens('request')) {
    emitter.emit('request', {
      url: entry.url,
      hostKey,
      kind: entry.kind ?? 'page',
      at: startedAt,
      delayMs: politeness.delayMs(hostKey),
      robots:
        check.rule === undefined
          ? { reason: check.reason }
          : { reason: check.reason, line: check.rule.line, text: check.rule.text },
      ...(conditional === undefined ? {} : { revisit: { conditional } }),
    });
  }
  const outcome = await fetchPage(
    entry.url,
    {
      client: settings.client,
      userAgent: settings.userAgent,
      from: settings.from,
      headers: settings.headers,
      cookies: settings.cookies,
      bodyLimit: processor?.bodyLimit ?? { maxBytes: settings.maxBodyBytes, atLimit: 'fail' },
      accept: processor === undefined ? PAGE_ACCEPT : (processor.accept ?? '*/*'),
      timeoutMs: settings.requestTimeoutMs,
      ...(conditional === undefined ? {} : { conditional }),
      connectAddress: settings.connectAddressOf(hostKey),
      ...(onSent === undefined ? {} : { onSent }),
    },
    settings.signal,
    entry.headers,
  );
  const endedAt = Date.now();
  const latencyMs = endedAt - startedAt;
  if (outcome.kind === 'failure' && !outcome.retryable) {
    // A server that does not speak HTTP at this URL will not start to on a retry; nor is it a
    // sign of overload, so the host keeps its pace.
    return {
      kind: 'failed',
      error: outcome.error,
      stage: 'fetch',
      clock: pacedAfter(endedAt, politeness.delayMs(hostKey)),
    };
  }
  if (outcome.kind === 'failure') {
    const clock = clockAfterFailure({
      at: endedAt,
      backoffMs: politeness.failed(hostKey, latencyMs, null),
      retryAfterMs: undefined,
      maxWaitMs: settings.backoffMaxMs,
    });
    return failedAttempt(entry, outcome.error, clock, settings.maxRetries);
  }
  if (outcome.kind === 'skip')
    return skipped(
      { reason: outcome.reason, detail: outcome.error.message },
      pacedAfter(endedAt, politeness.delayMs(hostKey)),
    );

  const { response } = outcome;
  const headAt = responseHeadAt(Date.now(), response.timing);
  if (emitter.listens('response'))
    emitter.emit('response', {
      url: entry.url,
      status: response.status,
      durationMs: latencyMs,
      bytes: response.body.length,
      contentType: response.header('content-type'),
    });
  // Read against the head: an HTTP-date is a moment, and delay-seconds count from no earlier
  // than when the server sent the response.
  const asked = retryAfterMs(response.header('retry-after'), headAt);
  // Asked for a signature: the URL goes back, for one signed retry at the host's pace (its host
  // is now signed up front). No attempt is counted: the server refused the request, not the URL.
  const challenge = settings.isSignatureChallenge(response)
    ? clockAfterChallenge({
        headAt,
        delayMs: politeness.delayMs(hostKey),
        retryAfterMs: asked,
        maxWaitMs: settings.backoffMaxMs,
      })
    : undefined;
  if (challenge !== undefined) return released('signature-challenge', challenge);
  if (isRetryableStatus(response.status) && (entry.retries ?? 0) < settings.maxRetries) {
    const backoff = politeness.failed(hostKey, latencyMs, response.status);
    const clock = clockAfterFailure({
      at: headAt,
      backoffMs: backoff,
      retryAfterMs: asked,
      maxWaitMs: settings.backoffMaxMs,
    });
    return failedAttempt(
      entry,
      new PolitelyError('ERR_FETCH_FAILED', `GET ${entry.url}: HTTP ${response.status}`),
      clock,
      settings.maxRetries,
    );
  }
  politeness.succeeded(hostKey, latencyMs, response.status);
  const clock = clockAfterResponse({
    headAt,
    delayMs: politeness.delayMs(hostKey),
    status: response.status,
    retryAfterMs: asked,
    maxWaitMs: settings.backoffMaxMs,
  });
  if (outcome.kind === 'redirect') return { kind: 'fetched', response, location: outcome.location, clock };
  return { kind: 'fetched', response, clock };
}

/** A failed attempt: retried while attempts are left, else a failure for good; held either way. */
function failedAttempt(entry: FrontierEntry, error: PolitelyError, clock: ClockChange, maxRetries: number): UrlOutcome {
  return attemptFailed(entry, error, 'fetch', clock, maxRetries);
}
