// The seam: an HttpClient that signs the requests it sends (Web Bot Auth), each with a fresh
// signature — a retry, a redirect hop, robots.txt, a sitemap, a rendered page's sub-request all
// come through `get` and each gets its own `created`, `expires` and `nonce`. Wrap it in the
// archiving client (not the other way round) so the archive holds the headers as sent.
//
// `sign: 'on-challenge'` sends requests unsigned until a host challenges one: a 401, 403 or 429
// carrying `Accept-Signature`. From then on every request to that host (its authority,
// `host[:port]`) is signed up front, remembered for the client's life: a site that asked once
// for a signature would ask again, and an unsigned request it must refuse is a wasted turn. The
// challenged response itself goes back to the caller, marked (`isChallenge`), so that the caller
// retries it through its own politeness path — this client never waits or retries on its own.

import type { HttpClient, HttpRequest, HttpResponse } from '../http/http-client.js';
import { authorityOf, type RequestSigner, SIGNATURE_HEADER_NAMES } from './sign-request.js';

/** When requests are signed: every one, or only once their host has asked (`Accept-Signature`). */
export type SignMode = 'always' | 'on-challenge';

/** The statuses a signature challenge comes with (401, 403, 429), given `Accept-Signature`. */
export const SIGNATURE_CHALLENGE_STATUSES: readonly number[] = [401, 403, 429];

/** Whether a response asks for a signature: a 401, 403 or 429 carrying `Accept-Signature` (RFC 9421 §5.1). */
export function isSignatureChallenge(response: Pick<HttpResponse, 'status' | 'header'>): boolean {
  return SIGNATURE_CHALLENGE_STATUSES.includes(response.status) && response.header('accept-signature') !== undefined;
}

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
}

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

export function signingClient(
  client: HttpClient,
  signer: RequestSigner,
  options: SigningClientOptions = {},
): SigningClient {
  const sign = options.sign ?? 'always';
  const challengedHosts = new Set<string>();
  const challenges = new WeakSet<HttpResponse>();
  const signsUpFront = (url: string): boolean => sign === 'always' || challengedHosts.has(authorityOf(url));
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
        challengedHosts.add(authorityOf(request.url));
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
