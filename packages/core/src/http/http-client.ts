// One HTTP GET, one hop, with every limit a crawler needs. Shared by the robots gate's default
// fetch and the crawler's page fetch, so both speak HTTP the same way. Redirects are never
// followed here: callers follow them by hand, so each hop passes robots.txt, scope and politeness.

import { Agent, type Dispatcher } from 'undici';
import { PolitelyError } from '../errors.js';
import { isIP } from 'node:net';
import { blockedAddressError, checkHostAllowed, createAddressPolicy, createGuardedLookup, type AddressPolicy } from './address-guard.js';
import { createProxyAgent, parseProxyUrl } from './proxy.js';
import { readBody, type BodyLimit } from './read-body.js';

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
}

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
}

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
}

export interface HttpClient {
  get(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const policy = options.blockPrivateNetworks === true ? createAddressPolicy(options.allowNet ?? []) : undefined;
  const proxy = options.dispatcher === undefined && options.proxy !== undefined ? parseProxyUrl(options.proxy, 'createHttpClient') : undefined;
  const limits = {
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 4_000,
    maxHeaderBytes: options.maxHeaderBytes ?? 65_536,
    connectionsPerOrigin: options.connectionsPerOrigin ?? 4,
  };
  const ownAgent: Dispatcher | undefined =
    options.dispatcher !== undefined
      ? undefined
      : proxy !== undefined
        ? createProxyAgent({ proxy, policy, ...limits })
        : new Agent({
            connect: {
              timeout: limits.connectTimeoutMs,
              ...(policy === undefined ? {} : { lookup: createGuardedLookup(policy) }),
            },
            keepAliveTimeout: limits.keepAliveTimeoutMs,
            maxHeaderSize: limits.maxHeaderBytes,
            connections: limits.connectionsPerOrigin,
          });
  const dispatcher: Dispatcher = options.dispatcher ?? ownAgent!;
  const guard = policy === undefined ? undefined : { policy, resolveTargets: proxy !== undefined };
  return {
    get: (request) => get(dispatcher, request, guard),
    close: () => (ownAgent === undefined ? Promise.resolve() : ownAgent.close()),
  };
}

/** How `get` applies the SSRF guard before sending. */
interface TargetGuard {
  readonly policy: AddressPolicy;
  /** Resolve and judge the target's name here (through a proxy, no lookup of ours sees it). */
  readonly resolveTargets: boolean;
}

async function get(dispatcher: Dispatcher, request: HttpRequest, guard: TargetGuard | undefined): Promise<HttpResponse> {
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal === undefined ? deadline : AbortSignal.any([request.signal, deadline]);
  const started = performance.now();
  try {
    const url = new URL(request.url);
    if (guard?.resolveTargets === true) {
      await checkHostAllowed(url.hostname, guard.policy);
    } else if (guard !== undefined) {
      // An IP literal never goes through DNS, so the guard's lookup would not see it: check it here.
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal) !== 0 && !guard.policy.allows(literal)) throw blockedAddressError(url.hostname, literal);
    }
    const response = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
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
      throw new PolitelyError('ERR_BODY_TOO_LARGE', `body of ${declared} bytes is over the ${request.bodyLimit.maxBytes}-byte limit`);
    }
    const { body, truncated } = await readBody(response.body, headers['content-encoding'], request.bodyLimit);
    return {
      url: request.url,
      status: response.statusCode,
      headers,
      header: (name) => headers[name.toLowerCase()],
      headerValues: (name) => valuesOf(response.headers[name.toLowerCase()]),
      body,
      truncated,
      timing: { headersMs, totalMs: performance.now() - started },
    };
  } catch (error) {
    throw toHttpError(error, request, deadline);
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function valuesOf(raw: string | string[] | undefined): readonly string[] {
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
}

const UNDICI_TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function toHttpError(error: unknown, request: HttpRequest, deadline: AbortSignal): PolitelyError {
  if (error instanceof PolitelyError) {
    const prefix = `GET ${request.url}: `;
    return error.message.startsWith(prefix) ? error : new PolitelyError(error.code, prefix + error.message, { cause: error.cause });
  }
  if (request.signal?.aborted === true) {
    return new PolitelyError('ERR_ABORTED', `GET ${request.url}: aborted`, { cause: request.signal.reason ?? error });
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (deadline.aborted || (typeof code === 'string' && UNDICI_TIMEOUT_CODES.has(code))) {
    return new PolitelyError('ERR_TIMEOUT', `GET ${request.url}: timed out after ${request.timeoutMs} ms`, { cause: error });
  }
  if ((error as { name?: unknown } | null)?.name === 'HTTPParserError') {
    const message = error instanceof Error ? error.message : String(error);
    return new PolitelyError('ERR_PROTOCOL', `GET ${request.url}: the answer is not valid HTTP/1.1: ${message}`, { cause: error });
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new PolitelyError('ERR_HEADERS_TOO_LARGE', `GET ${request.url}: response headers too large`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PolitelyError('ERR_FETCH_FAILED', `GET ${request.url}: ${message}`, { cause: error });
}
