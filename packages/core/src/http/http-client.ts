// One HTTP GET, one hop, with every limit a crawler needs. Shared by the robots gate's default
// fetch and the crawler's page fetch, so both speak HTTP the same way. Redirects are never
// followed here: callers follow them by hand, so each hop passes robots.txt, scope and politeness.

import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { PolitelyError } from '../errors.js';
import { optionChecks } from '../options/option-checks.js';
import { lowercased } from '../text/lowercased.js';
import { type AddressBook, pinnedLookup } from './address-book.js';
import {
  type AddressLookup,
  type AddressPolicy,
  answerLookup,
  blockedAddressError,
  checkHostAllowed,
  createAddressPolicy,
  createGuardedLookup,
} from './address-guard.js';
import { startDeadline } from './deadline.js';
import { sendObservingDispatcher } from './forwarding-handler.js';
import { createProxyAgent, parseProxyUrl } from './proxy.js';
import { type BodyLimit, readBody } from './read-body.js';
import { Agent } from './undici-dispatchers.js';
import { capturingDispatcher, WireCapture } from './wire-capture.js';

/**
 * Options of `createHttpClient`: the connect deadline, the header cap, connections, the private-network
 * guard, a proxy and the address book.
 */
export interface HttpClientOptions {
  /**
   * Deadline for connecting (DNS, TCP, TLS).
   * @default 10000
   */
  readonly connectTimeoutMs?: number;
  /**
   * Largest response head (status line and headers) accepted, in bytes.
   * @default 65536
   */
  readonly maxHeaderBytes?: number;
  /**
   * Connections kept per origin.
   * @default 4
   */
  readonly connectionsPerOrigin?: number;
  /**
   * How long an idle keep-alive connection is kept.
   * @default 4000
   */
  readonly keepAliveTimeoutMs?: number;
  /**
   * A dispatcher to send requests through instead of the client's own keep-alive Agent (the
   * SSRF guard's DNS check then is the dispatcher's business; IP literals are still checked).
   * @default a new undici Agent
   */
  readonly dispatcher?: Dispatcher;
  /**
   * Refuse to connect to loopback, private, link-local (169.254.169.254), unique-local IPv6,
   * unspecified and other non-public addresses, checked after DNS resolution on every
   * connection, connecting to the address that was checked.
   * @default false (the crawler turns it on)
   */
  readonly blockPrivateNetworks?: boolean;
  /**
   * Networks allowed despite `blockPrivateNetworks` (CIDR or single addresses), e.g. `['127.0.0.0/8']`.
   * @default []
   */
  readonly allowNet?: readonly string[];
  /**
   * One egress proxy every request goes through (`http://host:port`, optionally
   * `http://user:password@host:port`), tunnelled with CONNECT by undici's `ProxyAgent`. With
   * `blockPrivateNetworks`, the guard still judges every target: the client resolves the
   * target's name itself and refuses a blocked address before anything is sent (the proxy would
   * otherwise resolve it unchecked); and the proxy's own address must be globally reachable or
   * in `allowNet` (a refused IP literal throws `ERR_INVALID_OPTION` here). Ignored with `dispatcher`.
   * @default undefined (direct connections)
   */
  readonly proxy?: string;
  /**
   * Where names connect: the client's Agent asks this book (`createAddressBook`) instead of DNS,
   * so a connection goes to the address the book pinned for the name (the one politeness per
   * server was keyed by). With `blockPrivateNetworks`, the client's own guard still judges
   * EVERY address of the book's answer, whatever policy the book has (a book without one cannot
   * open the guard). Refused with `proxy` (the proxy resolves names itself) and with
   * `dispatcher` (it connects by itself): `ERR_INVALID_OPTION`.
   * @default undefined (names are resolved through the guarded DNS lookup on each connection)
   */
  readonly addresses?: AddressBook;
}

/** One GET request of an `HttpClient`: URL, headers, deadline, body cap, and whether to capture the exchange. */
export interface HttpRequest {
  /** Absolute http(s) URL. */
  readonly url: string;
  /** Request headers (`user-agent` should always be among them). */
  readonly headers: Readonly<Record<string, string>>;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
  /** Deadline for the whole exchange, first byte to last: a trickling server is cut off. */
  readonly timeoutMs: number;
  /** Cap on the decoded body and what to do at the cap. */
  readonly bodyLimit: BodyLimit;
  /**
   * Connect to exactly this IP address (already pinned, say by an address book) instead of
   * resolving the URL's host; the Host header, TLS SNI and certificate check stay the URL's host
   * name. The SSRF guard judges the address. For an IP-literal URL it must be that address.
   * Refused with the client's `proxy` or `dispatcher`: `ERR_INVALID_INPUT`.
   * @default undefined (the host is resolved)
   */
  readonly connectAddress?: string;
  /**
   * Keep what went over the wire (`HttpResponse.exchange`): the request head as written, the
   * response head as received and the body before content decoding, for an archive (WARC). When
   * the request fails after the response head arrived (the body cap with `atLimit: 'fail'`, a
   * timeout or a reset mid-body), `exchangeOfError(error)` gives what was received.
   * @default false
   */
  readonly capture?: boolean;
  /**
   * Called with the time (ms since the epoch) the request's head is about to be written to its
   * socket: after any wait for a connection, so the closest this process sees to the moment the
   * server gets it. Not called for a request never written (a refused connection, an abort).
   * Politeness paces overlapping requests to one host from it.
   * @default undefined
   */
  readonly onSent?: (at: number) => void;
}

/**
 * One request and its response as they went over the wire (`HttpRequest.capture`). Heads are
 * binary strings: each character one byte (latin1), so header bytes outside ASCII survive.
 */
export interface HttpExchange {
  /**
   * When the request head was written to the socket (ms since the epoch); when the request was
   * dispatched if no head was seen (`requestHead` empty).
   */
  readonly sentAt: number;
  /** The IP address of the socket the request went out on; undefined through a proxy or a custom dispatcher. */
  readonly remoteAddress: string | undefined;
  /**
   * The request head exactly as written to the socket: request line, header lines, the empty
   * line. Empty when the dispatcher wrote no HTTP/1.1 head the client could see (a custom
   * dispatcher that does not send through undici's HTTP/1.1 client, such as a mock).
   */
  readonly requestHead: string;
  /** The response's status code and reason phrase (`statusText`, possibly empty). */
  readonly status: number;
  readonly statusText: string;
  /**
   * The response's header fields as received, in order, names as the server wrote them, repeated
   * fields as separate entries (`Transfer-Encoding: chunked` included, though `payload` is de-chunked).
   */
  readonly rawHeaders: readonly (readonly [name: string, value: string])[];
  /** The body as the server sent it: content codings kept, the chunked transfer coding removed. */
  readonly payload: Uint8Array;
  /**
   * Why `payload` is not the whole body (WARC-Truncated): `length`, cut at the body cap (or not
   * read at all, its declared length over a failing cap); `time`, the deadline passed mid-body;
   * `disconnect`, the connection failed mid-body. Undefined when whole.
   */
  readonly truncated?: 'length' | 'time' | 'disconnect';
}

/**
 * An `HttpClient`'s response: status, headers and the decoded body (up to its cap), and what went
 * over the wire when asked for.
 */
export interface HttpResponse {
  readonly url: string;
  readonly status: number;
  /** Header by case-insensitive name; repeated headers joined with ", ". */
  header(name: string): string | undefined;
  /** All headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Every value of a header as received, unjoined, by case-insensitive name (`Set-Cookie`, whose
   * values cannot be joined with commas); empty when the header is absent.
   */
  headerValues(name: string): readonly string[];
  readonly body: Uint8Array;
  readonly truncated: boolean;
  /** Milliseconds from sending to the response head, and to the last body byte. */
  readonly timing: { readonly headersMs: number; readonly totalMs: number };
  /** What went over the wire, when the request asked for it (`capture`). */
  readonly exchange?: HttpExchange;
}

/**
 * The HTTP client the crawler and the robots gate share: `get` one URL (no redirects followed),
 * `close` its connections. Made by `createHttpClient`; decorators (signing, archiving) wrap it.
 */
export interface HttpClient {
  /** Sends one GET request; a redirect is returned as a response, not followed. */
  get(request: HttpRequest): Promise<HttpResponse>;
  /** Closes the client's connections. */
  close(): Promise<void>;
}

/** Every option `createHttpClient` knows: a key missing here, or one too many, is a type error. */
const HTTP_CLIENT_OPTION_KEYS: Record<keyof HttpClientOptions, true> = {
  connectTimeoutMs: true,
  maxHeaderBytes: true,
  connectionsPerOrigin: true,
  keepAliveTimeoutMs: true,
  dispatcher: true,
  blockPrivateNetworks: true,
  allowNet: true,
  proxy: true,
  addresses: true,
};

/**
 * The guarded HTTP client (undici): deadlines and body caps on every request, redirects returned
 * not followed, and, with `blockPrivateNetworks`, no connection to an address `allowNet` does not
 * allow.
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  optionChecks('createHttpClient').knownKeys(options, HTTP_CLIENT_OPTION_KEYS);
  const policy = options.blockPrivateNetworks === true ? createAddressPolicy(options.allowNet ?? []) : undefined;
  const proxy =
    options.dispatcher === undefined && options.proxy !== undefined
      ? parseProxyUrl(options.proxy, 'createHttpClient')
      : undefined;
  const book = options.addresses;
  if (book !== undefined && options.dispatcher !== undefined) {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      'createHttpClient: addresses cannot be used with dispatcher: it makes its own connections',
    );
  }
  if (book !== undefined && proxy !== undefined) {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      'createHttpClient: addresses cannot be used with proxy: the proxy resolves target names itself',
    );
  }
  const limits = {
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 4_000,
    maxHeaderBytes: options.maxHeaderBytes ?? 65_536,
    connectionsPerOrigin: options.connectionsPerOrigin ?? 4,
  };
  const lookup =
    book !== undefined ? pinnedLookup(book, policy) : policy !== undefined ? createGuardedLookup(policy) : undefined;
  const ownAgent: Dispatcher | undefined =
    options.dispatcher !== undefined
      ? undefined
      : proxy !== undefined
        ? createProxyAgent({ proxy, policy, ...limits })
        : createAgent(limits, lookup);
  const dispatcher: Dispatcher = options.dispatcher ?? ownAgent!;
  const guard = policy === undefined ? undefined : { policy, resolveTargets: proxy !== undefined };
  // connectAddress needs connections the client opens itself.
  const ownConnections = options.dispatcher === undefined && proxy === undefined;
  const pinned = ownConnections ? createPinnedAgents(limits, policy, dispatcher) : undefined;
  return {
    get: (request) => get({ dispatcher, guard, pinned, ownConnections }, request),
    close: async () => {
      await Promise.all([ownAgent?.close(), pinned?.close()]);
    },
  };
}

interface Limits {
  readonly connectTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxHeaderBytes: number;
  readonly connectionsPerOrigin: number;
}

function createAgent(limits: Limits, lookup: AddressLookup | undefined): Agent {
  return new Agent({
    connect: { timeout: limits.connectTimeoutMs, ...(lookup === undefined ? {} : { lookup }) },
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: limits.maxHeaderBytes,
    connections: limits.connectionsPerOrigin,
  });
}

/** Addresses with an Agent of their own for `connectAddress`, at most; the least recently used is closed. */
const MAX_PINNED_AGENTS = 256;

interface PinnedAgents {
  /** The Agent whose every connection goes to `address` (after the guard's check). */
  agentFor(address: string): Dispatcher;
  close(): Promise<void>;
}

/**
 * One Agent per connect address, its lookup answering that address whatever the name: undici's
 * `connect.lookup` only swaps the IP, so Host, SNI and the certificate check keep the URL's name.
 * After `close`, requests go to the closed main dispatcher and fail as every other one does.
 */
function createPinnedAgents(
  limits: Limits,
  policy: AddressPolicy | undefined,
  closedFallback: Dispatcher,
): PinnedAgents {
  const agents = new Map<string, Agent>();
  let closed = false;
  return {
    agentFor(address) {
      const known = agents.get(address);
      if (known !== undefined) {
        agents.delete(address);
        agents.set(address, known);
        return known;
      }
      if (closed) return closedFallback;
      if (agents.size >= MAX_PINNED_AGENTS) {
        const [oldest, agent] = agents.entries().next().value!;
        agents.delete(oldest);
        // Graceful: requests already dispatched to it finish first.
        agent.close().catch(() => {});
      }
      const family = isIP(address);
      const lookup: AddressLookup = (hostname, options, callback) => {
        const answer =
          policy !== undefined && !policy.allows(address)
            ? Promise.reject(blockedAddressError(hostname, address))
            : Promise.resolve([{ address, family }]);
        answerLookup(hostname, answer, options.all, callback);
      };
      const agent = createAgent(limits, lookup);
      agents.set(address, agent);
      return agent;
    },
    async close() {
      closed = true;
      const all = [...agents.values()];
      agents.clear();
      await Promise.all(all.map((agent) => agent.close()));
    },
  };
}

/** How `get` applies the SSRF guard before sending. */
interface TargetGuard {
  readonly policy: AddressPolicy;
  /** Resolve and judge the target's name here (through a proxy, no lookup of ours sees it). */
  readonly resolveTargets: boolean;
}

interface Sending {
  readonly dispatcher: Dispatcher;
  readonly guard: TargetGuard | undefined;
  /** Undefined with a proxy or a custom dispatcher: connectAddress is refused there. */
  readonly pinned: PinnedAgents | undefined;
  /** The sockets are the client's own, to the target (no proxy, no custom dispatcher): their address is the server's. */
  readonly ownConnections: boolean;
}

/** An IP literal in one spelling (`::FFFF:7f00:1` and `::ffff:127.0.0.1` are one address). */
function canonicalAddress(address: string): string {
  try {
    return new URL(`http://${isIP(address) === 6 ? `[${address}]` : address}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return address.toLowerCase(); // an IPv6 zone id, which URLs cannot hold
  }
}

/** The connect address of `request`, checked, or undefined to resolve the URL's host as usual. */
function connectAddressOf(request: HttpRequest, url: URL, sending: Sending): string | undefined {
  if (request.connectAddress === undefined) return undefined;
  if (sending.pinned === undefined) {
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      'connectAddress needs connections the client opens itself: not with a proxy or a custom dispatcher',
    );
  }
  const address = String(request.connectAddress).replace(/^\[|\]$/g, '');
  if (isIP(address) === 0)
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      `connectAddress must be an IP address, got ${JSON.stringify(request.connectAddress)}`,
    );
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0) {
    if (canonicalAddress(literal) === canonicalAddress(address)) return undefined;
    throw new PolitelyError('ERR_INVALID_INPUT', `connectAddress ${address} is not the URL's own address ${literal}`);
  }
  if (sending.guard !== undefined && !sending.guard.policy.allows(address))
    throw blockedAddressError(url.hostname, address);
  return address;
}

async function get(sending: Sending, request: HttpRequest): Promise<HttpResponse> {
  const { guard } = sending;
  const deadline = startDeadline(request.timeoutMs, request.signal);
  const { signal } = deadline;
  const started = performance.now();
  // Only a captured request pays for capturing: no handler wrapper, no copy of raw bytes otherwise.
  let capture: WireCapture | undefined;
  try {
    const url = new URL(request.url);
    const path = `${url.pathname}${url.search}`;
    const connectAddress = connectAddressOf(request, url, sending);
    if (guard?.resolveTargets === true) {
      await checkHostAllowed(url.hostname, guard.policy);
    } else if (guard !== undefined) {
      // An IP literal never goes through DNS, so the guard's lookup would not see it: check it here.
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal) !== 0 && !guard.policy.allows(literal)) throw blockedAddressError(url.hostname, literal);
    }
    if (request.capture === true) capture = new WireCapture('GET', url.origin, path);
    // No await between choosing the Agent and dispatching: an evicted Agent finishes what it holds.
    const chosen = connectAddress === undefined ? sending.dispatcher : sending.pinned!.agentFor(connectAddress);
    const observed = request.onSent === undefined ? chosen : sendObservingDispatcher(chosen, request.onSent);
    const dispatcher = capture === undefined ? observed : capturingDispatcher(observed, capture);
    const response = await dispatcher.request({
      origin: url.origin,
      path,
      method: 'GET',
      headers: { 'accept-encoding': 'gzip, deflate, br', ...request.headers },
      signal,
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    });
    const headersMs = performance.now() - started;
    const headers = flattenHeaders(response.headers);
    const declared = Number(headers['content-length']);
    const encoded = headers['content-encoding'] !== undefined;
    if (request.bodyLimit.atLimit === 'fail' && !encoded && declared > request.bodyLimit.maxBytes) {
      // Destroying a body undici is still reading makes it emit 'error' ("Request aborted"):
      // nobody reads it any more, so that error is expected and must not go unhandled.
      response.body.on('error', () => {});
      response.body.destroy();
      throw new PolitelyError(
        'ERR_BODY_TOO_LARGE',
        `body of ${declared} bytes is over the ${request.bodyLimit.maxBytes}-byte limit`,
      );
    }
    const read = await readBody(
      response.body,
      headers['content-encoding'],
      request.bodyLimit,
      capture === undefined ? {} : { onRawChunk: capture.received.add },
    );
    const { body, truncated } = read;
    const answer: HttpResponse = {
      url: request.url,
      status: response.statusCode,
      headers,
      header: (name) => headers[lowercased(name)],
      headerValues: (name) => valuesOf(response.headers[lowercased(name)]),
      body,
      truncated,
      timing: { headersMs, totalMs: performance.now() - started },
    };
    // Set only when captured: spreading `{}` into the literal would copy an object per response.
    if (capture === undefined) return answer;
    // Undecoded, the body is the payload as received: no second copy of it.
    const payload = read.decoded ? capture.received.bytes() : body;
    return { ...answer, exchange: exchangeOf(capture, sending, payload, truncated ? 'length' : undefined) };
  } catch (error) {
    const thrown = toHttpError(error, request, deadline.passed);
    // Before the response head there is nothing received to archive (DNS, refused, blocked…).
    if (capture?.answered === true)
      exchangesOfErrors.set(thrown, exchangeOf(capture, sending, capture.received.bytes(), truncationOf(thrown)));
    throw thrown;
  } finally {
    deadline.dispose();
  }
}

/** Each failed captured request's error, to what was received before it failed. */
const exchangesOfErrors = new WeakMap<object, HttpExchange>();

/**
 * What was received of a captured request (`HttpRequest.capture`) that failed after its response
 * head arrived, `error` being what `get` threw: the response head and the body up to the failure.
 * Its `truncated` says why: `length` for the body cap (`ERR_BODY_TOO_LARGE`), `time` for the
 * deadline (`ERR_TIMEOUT`), `disconnect` for anything else mid-body (a broken connection, an
 * abort, a content coding that cannot be decoded: the exchange was cut off). Undefined for a
 * request that failed before the response head (DNS, refused, blocked) or was not captured.
 */
export function exchangeOfError(error: unknown): HttpExchange | undefined {
  return typeof error === 'object' && error !== null ? exchangesOfErrors.get(error) : undefined;
}

function exchangeOf(
  capture: WireCapture,
  sending: Sending,
  payload: Uint8Array,
  truncated: HttpExchange['truncated'],
): HttpExchange {
  return {
    sentAt: capture.sentAt,
    // Through a proxy or someone else's dispatcher the socket's peer is not the server.
    remoteAddress: sending.ownConnections ? capture.remoteAddress : undefined,
    requestHead: capture.requestHead,
    status: capture.status,
    statusText: capture.statusText,
    rawHeaders: capture.rawHeaders,
    payload,
    ...(truncated === undefined ? {} : { truncated }),
  };
}

/** Why a request that failed mid-body has only part of it: the WARC-Truncated reason. */
function truncationOf(error: PolitelyError): NonNullable<HttpExchange['truncated']> {
  if (error.code === 'ERR_BODY_TOO_LARGE') return 'length';
  if (error.code === 'ERR_TIMEOUT') return 'time';
  return 'disconnect';
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  // for...in over own keys, not Object.entries: no array of [name, value] pairs for each response.
  for (const name in raw) {
    if (!Object.hasOwn(raw, name)) continue;
    const value = raw[name];
    if (value !== undefined) headers[lowercased(name)] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function valuesOf(raw: string | string[] | undefined): readonly string[] {
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
}

const UNDICI_TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function toHttpError(error: unknown, request: HttpRequest, deadlinePassed: boolean): PolitelyError {
  if (error instanceof PolitelyError) {
    const prefix = `GET ${request.url}: `;
    return error.message.startsWith(prefix)
      ? error
      : new PolitelyError(error.code, prefix + error.message, { cause: error.cause });
  }
  if (request.signal?.aborted === true) {
    return new PolitelyError('ERR_ABORTED', `GET ${request.url}: aborted`, { cause: request.signal.reason ?? error });
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (deadlinePassed || (typeof code === 'string' && UNDICI_TIMEOUT_CODES.has(code))) {
    return new PolitelyError('ERR_TIMEOUT', `GET ${request.url}: timed out after ${request.timeoutMs} ms`, {
      cause: error,
    });
  }
  if ((error as { name?: unknown } | null)?.name === 'HTTPParserError') {
    const message = error instanceof Error ? error.message : String(error);
    return new PolitelyError('ERR_PROTOCOL', `GET ${request.url}: the answer is not valid HTTP/1.1: ${message}`, {
      cause: error,
    });
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new PolitelyError('ERR_HEADERS_TOO_LARGE', `GET ${request.url}: response headers too large`, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PolitelyError('ERR_FETCH_FAILED', `GET ${request.url}: ${message}`, { cause: error });
}
