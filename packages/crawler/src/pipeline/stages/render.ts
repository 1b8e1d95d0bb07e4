// The render stage, after the fetch: a fetched HTML page the crawl renders (`render`) is loaded in
// the browser from the crawler's own response — the page is not requested twice — and every request
// it makes is answered through the gates (sub-requests.ts). What goes on to extraction and the
// handler is the rendered DOM, and the live page while the handler runs.

import { createAddressPolicy, type HttpResponse, PolitelyError } from '@politely/core';
import { watchAbort } from '@politely/core/internal';
import type { FrontierEntry } from '@politely/frontier';
import { isHtmlContentType } from '../../extract/content-type.js';
import type { RenderRequest, ResolvedCrawlerOptions } from '../../options.js';
import type { RenderedPage, RenderSession, RenderWaitUntil } from '../../page-renderer.js';
import type { ClockChange } from '../../politeness/index.js';
import { type RenderingPage, SubRequests, settled } from '../../render/sub-requests.js';
import type { StatsRecorder } from '../../stats.js';
import type { UrlOutcome } from '../outcome.js';
import { attemptFailed, skipped } from '../outcome.js';
import type { CrawlServices } from '../services.js';

export interface RenderStageSettings {
  /** Which fetched pages the crawl renders (`render`). */
  readonly choose: (request: RenderRequest) => boolean;
  readonly session: () => Promise<RenderSession>;
  readonly subRequests: SubRequests;
  readonly waitUntil: RenderWaitUntil;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly maxRetries: number;
  readonly stats: StatsRecorder;
  readonly signal: AbortSignal;
}

/** The stage's settings, or undefined when the crawl renders nothing (no `render`). */
export function settingsFrom(
  options: ResolvedCrawlerOptions,
  services: CrawlServices,
): RenderStageSettings | undefined {
  if (options.render === undefined) return undefined;
  return {
    choose: options.render.choose,
    session: services.renderSession,
    subRequests: subRequestsFrom(options, services),
    waitUntil: options.renderWaitUntil,
    timeoutMs: options.renderTimeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    maxRetries: options.maxRetries,
    stats: services.stats,
    signal: services.signal,
  };
}

/** The answers to a rendered page's own requests: through the gates, paced like every request. */
function subRequestsFrom(options: ResolvedCrawlerOptions, services: CrawlServices): SubRequests {
  const { settler } = services;
  return new SubRequests({
    gate: services.gate,
    knownRobots: services.knownRobots,
    userAgent: options.userAgent,
    tokens: options.robotsTokens,
    client: services.client,
    from: options.from,
    headers: options.headers,
    cookies: services.cookies,
    store: services.store,
    politeness: services.politeness,
    keys: services.keys,
    addressPolicy: options.blockPrivateNetworks ? createAddressPolicy(options.allowNet) : undefined,
    perHostConcurrency: options.perHostConcurrency,
    requestTimeoutMs: options.requestTimeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    backoffMaxMs: options.backoffMaxMs,
    blockedTypes: options.renderBlockResourceTypes,
    stats: services.stats,
    reporter: services.reporter,
    emitter: services.emitter,
    signal: services.signal,
    onPace: (hostKey, readyAt) => settler.notePace(hostKey, readyAt, Date.now()),
    paceOf: (hostKey) => settler.paceOf(hostKey, Date.now()),
  });
}

/** A page rendered: the response to extract and handle (its body the rendered HTML), and the live page. */
export interface RenderedResponse {
  readonly kind: 'rendered';
  readonly response: HttpResponse;
  /** The renderer's live page, for the handler (`page.browser`). */
  readonly page: unknown;
  /**
   * Closes the page, waits for its requests in progress to end, and resolves with the host's
   * clock after the page's own requests to it (the document's, then its sub-requests', a
   * handler's clicks' included).
   */
  close(): Promise<ClockChange>;
}

/** Whether the crawl renders this fetched page (`render`): a 2xx HTML page its choice picks. */
export function rendersPage(
  entry: FrontierEntry,
  response: HttpResponse,
  settings: RenderStageSettings | undefined,
): boolean {
  if (settings === undefined || !isRenderable(response)) return false;
  return settings.choose({ url: entry.url, label: entry.label, userData: entry.userData ?? {}, depth: entry.depth });
}

/** Whether a fetched response is a page to render: HTML, 2xx (an error page is handled as served). */
function isRenderable(response: HttpResponse): boolean {
  return response.status >= 200 && response.status < 300 && isHtmlContentType(response.header('content-type'));
}

export async function renderStage(
  entry: FrontierEntry,
  response: HttpResponse,
  fetchedClock: ClockChange,
  settings: RenderStageSettings,
): Promise<RenderedResponse | UrlOutcome> {
  const pageStop = new AbortController();
  const stopPage = (): void => pageStop.abort();
  const unwatchStop = watchAbort(settings.signal, stopPage);
  const rendering: RenderingPage = { entry, ownHostReadyAt: undefined, signal: pageStop.signal, pending: new Set() };
  // The page's settle must not set its host's clock before the last of its own requests there.
  const clockNow = (): ClockChange => paceAfter(fetchedClock, rendering.ownHostReadyAt);
  let rendered: RenderedPage;
  try {
    const session = await settings.session();
    settings.stats.renderPageLoad(entry.hostKey);
    rendered = await session.render({
      url: response.url,
      status: response.status,
      headers: Object.keys(response.headers).flatMap((name) =>
        response.headerValues(name).map((value) => [name, value] as const),
      ),
      body: Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength),
      waitUntil: settings.waitUntil,
      timeoutMs: settings.timeoutMs,
      answer: (request) => settings.subRequests.answer(rendering, request),
      refused: (url, why) => settings.subRequests.refusedByRenderer(rendering, url, why),
      signal: pageStop.signal,
    });
  } catch (error) {
    stopPage();
    unwatchStop();
    await settled(rendering);
    if (settings.signal.aborted) throw error;
    const failure =
      error instanceof PolitelyError
        ? error
        : new PolitelyError('ERR_RENDER_FAILED', `${entry.url}: ${String(error)}`, { cause: error });
    return attemptFailed(entry, failure, 'fetch', clockNow(), settings.maxRetries);
  }
  const html = Buffer.from(rendered.html, 'utf8');
  const close = async (): Promise<ClockChange> => {
    stopPage();
    unwatchStop();
    await rendered.close().catch(() => {});
    await settled(rendering);
    return clockNow();
  };
  if (html.length > settings.maxBodyBytes) {
    return skipped(
      {
        reason: 'too-large',
        detail: `rendered HTML of ${html.length} bytes is past maxBodyBytes (${settings.maxBodyBytes})`,
      },
      await close(),
    );
  }
  return { kind: 'rendered', response: renderedResponse(response, html), page: rendered.page, close };
}

/** The pace after the document's own: never before the page's last request at its host. */
function paceAfter(fetched: ClockChange, ownHostReadyAt: number | undefined): ClockChange {
  if (ownHostReadyAt === undefined) return fetched;
  return { ...fetched, readyAt: Math.max(fetched.readyAt ?? 0, ownHostReadyAt) };
}

/** The fetched response with the rendered HTML as its body (UTF-8, as the content type now says). */
function renderedResponse(response: HttpResponse, html: Uint8Array): HttpResponse {
  const contentType = 'text/html; charset=utf-8';
  const headers = { ...response.headers, 'content-type': contentType };
  return {
    url: response.url,
    status: response.status,
    headers,
    header: (name) => (name.toLowerCase() === 'content-type' ? contentType : response.header(name)),
    headerValues: (name) => (name.toLowerCase() === 'content-type' ? [contentType] : response.headerValues(name)),
    body: html,
    truncated: false,
    timing: response.timing,
  };
}
