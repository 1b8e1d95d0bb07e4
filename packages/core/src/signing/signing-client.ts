// The seam: an HttpClient that signs the requests it sends (Web Bot Auth), each with a fresh
// signature — a retry, a redirect hop, robots.txt, a sitemap, a rendered page's sub-request all
// come through `get` and each gets its own `created`, `expires` and `nonce`. Wrap it in the
// archiving client (not the other way round) so the archive holds the headers as sent.
//
// `sign: 'on-challenge'` sends requests unsigned until a host challenges one: a 401, 403 or 429
// carrying `Accept-Signature`. From then on every request to that host (its authority,
// `host[:port]`) is signed up front: a site that asked once for a signature would ask again, and
// an unsigned request it must refuse is a wasted turn. The hosts are remembered in a bounded LRU
// (`maxChallengedHosts`), so a crawl of many challenging hosts holds a fixed amount; a host
// forgotten challenges again and is learned again. The
// challenged response itself goes back to the caller, marked (`isChallenge`), so that the caller
// retries it through its own politeness path — this client never waits or retries on its own.

import { PolitelyError } from '../errors.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/http-client.js';
import { LruMap } from '../lru-map.js';
import { authorityOf, type RequestSigner, SIGNATURE_HEADER_NAMES } from './sign-request.js';

/** When requests are signed: every one, or only once their host has asked (`Accept-Signature`). */
export type SignMode = 'always' | 'on-challenge';

/** The statuses a signature challenge comes with (401, 403, 429), given `Accept-Signature`. */
export const SIGNATURE_CHALLENGE_STATUSES: readonly number[] = [401, 403, 429];

/** Whether a response asks for a signature: a 401, 403 or 429 carrying `Accept-Signature` (RFC 9421 §5.1). */
export function isSignatureChallenge(response: Pick<HttpResponse, 'status' | 'header'>): boolean {
  return SIGNATURE_CHALLENGE_STATUSES.includes(response.status) && response.header('accept-signature') !== undefined;
}

/**
 * Options of `signingClient`: sign every request, or a host's requests only once it has asked with
 * a signature challenge.
 */
export interface SigningClientOptions {
  /**
   * `'always'`: every request is signed. `'on-challenge'`: requests go unsigned until their host
   * answers one with a signature challenge (`isSignatureChallenge`); that host's requests are
   * signed from then on.
   * @default 'always'
   */
  readonly sign?: SignMode;
  /** Called as each request goes out signed (to count them). */
  readonly onSigned?: () => void;
  /**
   * With `'on-challenge'`: how many challenging hosts are remembered (signed up front); past
   * that, the host that has gone longest without a request is forgotten. A whole number, 1 or more.
   * @default 10000
   */
  readonly maxChallengedHosts?: number;
}

const DEFAULT_MAX_CHALLENGED_HOSTS = 10_000;

/** A signing HttpClient that also says which responses were challenges to an unsigned request. */
export interface SigningClient extends HttpClient {
  readonly sign: SignMode;
  /**
   * True for a response that challenged a request this client sent unsigned (`'on-challenge'`):
   * retry that request once; it will be signed. False for everything else, a challenge to a
   * signed request included (retrying it would not help).
   */
  isChallenge(response: HttpResponse): boolean;
  /** Whether the next request to `url` goes signed: always, or its host has challenged. */
  signsUpFront(url: string): boolean;
}

/**
 * Wraps an `HttpClient` so that requests are signed by `signer` at the last moment before they are
 * sent: every retry and redirect hop gets a fresh signature.
 */
export function signingClient(
  client: HttpClient,
  signer: RequestSigner,
  options: SigningClientOptions = {},
): SigningClient {
  const sign = options.sign ?? 'always';
  const maxHosts = options.maxChallengedHosts ?? DEFAULT_MAX_CHALLENGED_HOSTS;
  if (!Number.isSafeInteger(maxHosts) || maxHosts < 1)
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `signingClient: maxChallengedHosts must be a whole number, 1 or more, got ${String(maxHosts)}`,
    );
  // Reading a host marks it recently used: a host the crawl keeps visiting stays remembered.
  const challengedHosts = new LruMap<string, true>(maxHosts);
  const challenges = new WeakSet<HttpResponse>();
  const signsUpFront = (url: string): boolean =>
    sign === 'always' || challengedHosts.get(authorityOf(url)) !== undefined;
  return {
    sign,
    async get(request) {
      if (signsUpFront(request.url)) {
        const sent = signed(request, signer);
        options.onSigned?.();
        return client.get(sent);
      }
      const response = await client.get(request);
      if (isSignatureChallenge(response)) {
        challengedHosts.set(authorityOf(request.url), true);
        challenges.add(response);
      }
      return response;
    },
    isChallenge: (response) => challenges.has(response),
    signsUpFront,
    close: () => client.close(),
  };
}

/** The request with a fresh signature, in place of any signature headers it already had. */
function signed(request: HttpRequest, signer: RequestSigner): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (!SIGNATURE_HEADER_NAMES.includes(name.toLowerCase())) headers[name] = value;
  Object.assign(headers, signer.sign(request.url).headers);
  return { ...request, headers };
}
