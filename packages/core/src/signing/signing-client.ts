// The seam: an HttpClient that signs every request it sends (Web Bot Auth), each with a fresh
// signature — a retry, a redirect hop, robots.txt, a sitemap, a rendered page's sub-request all
// come through `get` and each gets its own `created`, `expires` and `nonce`. Wrap it in the
// archiving client (not the other way round) so the archive holds the headers as sent.

import type { HttpClient } from '../http/http-client.js';
import { type RequestSigner, SIGNATURE_HEADER_NAMES } from './sign-request.js';

export function signingClient(client: HttpClient, signer: RequestSigner): HttpClient {
  return {
    get(request) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (!SIGNATURE_HEADER_NAMES.includes(name.toLowerCase())) headers[name] = value;
      Object.assign(headers, signer.sign(request.url).headers);
      return client.get({ ...request, headers });
    },
    close: () => client.close(),
  };
}
