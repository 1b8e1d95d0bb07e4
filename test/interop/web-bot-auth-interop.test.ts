// politely's Web Bot Auth signatures checked by the published verifiers, not by code of ours: a
// loopback site verifies every request of a real crawl with Cloudflare's `web-bot-auth` (0.1.3,
// which builds its base with `http-message-sig` 0.2.0) and with `http-message-sig` 0.3.0, given the
// crawl's public JWK. The crawl covers robots.txt, pages, a redirect hop and a 503 answered with
// a retry; each draft form is crawled once. The site answers every request as if it verified, so
// both crawls send the same requests and the counts compare form with form.
//
// What the verifiers accept, as this test asserts:
// - web-bot-auth 0.1.3 verifies the `meunier` form (`Signature-Agent: "https://…"`, covered as
//   `"signature-agent"`). It refuses every `ietf-01` signature: it rebuilds the line of
//   `"signature-agent";key="sig1"` with the whole header (`sig1="https://…"`) rather than the
//   member's value, so the base differs and the Ed25519 check fails.
// - http-message-sig 0.3.0 verifies both forms: it resolves `;key=` to the dictionary member.

import type { JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCrawler } from '@politely/crawler';
import { type SignatureComponent, verifySignature, webcrypto } from 'http-message-sig';
import { afterEach, describe, expect, it } from 'vitest';
import { verify as webBotAuthVerify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { testKey } from '../support/rfc9421-verify.js';

const UA = 'InteropBot/1.0 (+http://example.invalid/bot)';
const AGENT = 'https://bot.example';

/** One request as the site received it, and what each verifier said. */
interface Checked {
  readonly path: string;
  readonly agentHeader: string | undefined;
  readonly webBotAuth: string;
  readonly httpMessageSig: string;
}

/** Cloudflare's verifier, as its README shows it: a fetch `Request` and a verifier from the public JWK. */
async function checkWithWebBotAuth(req: IncomingMessage, url: string, jwk: JsonWebKey): Promise<string> {
  const publicJwk = { kty: 'OKP', crv: 'Ed25519', x: jwk.x as string };
  const headers = new Headers();
  for (const name of ['signature', 'signature-input', 'signature-agent']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  try {
    await webBotAuthVerify(new Request(url, { headers }), await verifierFromJWK(publicJwk));
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * http-message-sig 0.3.0 with a Web Bot Auth policy: Ed25519, `@authority` and `tag`, `created`,
 * `expires`, `keyid` required, the key found by its thumbprint, and `Signature-Agent` covered in
 * either form (the dictionary member keyed by the label, or the whole field).
 */
async function checkWithHttpMessageSig(
  req: IncomingMessage,
  url: string,
  key: { readonly jwk: JsonWebKey; readonly thumbprint: string },
): Promise<string> {
  const fields: { name: string; value: string }[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    fields.push({ name: req.rawHeaders[i]!, value: req.rawHeaders[i + 1]! });
  const publicKey = await crypto.subtle.importKey(
    'jwk',
    { kty: 'OKP', crv: 'Ed25519', x: key.jwk.x as string },
    { name: 'Ed25519' },
    false,
    ['verify'],
  );
  const required: SignatureComponent[] = ['@authority'];
  try {
    const verified = await verifySignature(
      { kind: 'request', method: req.method ?? 'GET', targetUri: url, fields },
      {
        label: 'sig1',
        policy: {
          algorithms: ['ed25519'],
          requiredComponents: required,
          requiredParameters: ['created', 'expires', 'keyid', 'tag'],
          maxAge: 300,
          clockSkew: 5,
          validate: (signature) =>
            signature.parameters.tag === 'web-bot-auth' &&
            signature.components.some((c) => c.name === 'signature-agent'),
        },
        resolveVerifier: (candidate) => {
          if (candidate.parameters.keyid !== key.thumbprint) throw new Error('unknown keyid');
          return webcrypto.verifier(publicKey);
        },
      },
    );
    const agent = verified.components.find((c) => c.name === 'signature-agent');
    return agent?.parameters.key === undefined ? 'ok' : `ok (key=${String(agent.parameters.key)})`;
  } catch (error) {
    return (error as Error).message;
  }
}

interface InteropSite {
  readonly base: string;
  readonly checked: Checked[];
  close(): Promise<void>;
}

async function startInteropSite(key: ReturnType<typeof testKey>): Promise<InteropSite> {
  const checked: Checked[] = [];
  let flakyCalls = 0;
  const pages: Record<string, (res: ServerResponse) => void> = {
    '/robots.txt': (res) => res.end('User-agent: *\nAllow: /\n'),
    '/': (res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<a href="/a">a</a> <a href="/old">old</a> <a href="/flaky">flaky</a>'),
    '/a': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a</p>'),
    '/old': (res) => res.writeHead(301, { location: '/new' }).end(),
    '/new': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>new</p>'),
    '/flaky': (res) => {
      flakyCalls += 1;
      if (flakyCalls === 1) res.writeHead(503, { 'retry-after': '0' }).end('busy');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>flaky, then fine</p>');
    },
  };
  const server: Server = createServer((req, res) => {
    const url = `http://${req.headers.host ?? ''}${req.url ?? ''}`;
    void Promise.all([checkWithWebBotAuth(req, url, key.jwk), checkWithHttpMessageSig(req, url, key)]).then(
      ([webBotAuth, httpMessageSig]) => {
        const agentHeader = req.headers['signature-agent'];
        checked.push({
          path: req.url ?? '',
          agentHeader: typeof agentHeader === 'string' ? agentHeader : undefined,
          webBotAuth,
          httpMessageSig,
        });
        const page = pages[req.url ?? ''];
        if (page === undefined) res.writeHead(404).end();
        else page(res);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    checked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Crawls the site signed in `draft` (the default when undefined) and returns what it checked. */
async function crawlChecked(draft: 'ietf-01' | 'meunier' | undefined): Promise<Checked[]> {
  const key = testKey();
  const site = await startInteropSite(key);
  sites.push(site);
  const crawler = createCrawler({
    userAgent: UA,
    allowNet: ['127.0.0.0/8'],
    seeds: [`${site.base}/`],
    minDelayMs: 0,
    backoffBaseMs: 10,
    maxRetries: 2,
    signing: { key: key.jwk, signatureAgent: AGENT, ...(draft === undefined ? {} : { draft }) },
  });
  const stats = await crawler.run();
  expect(stats.signedRequests).toBe(site.checked.length);
  const paths = site.checked.map((c) => c.path);
  expect(paths).toEqual(expect.arrayContaining(['/robots.txt', '/', '/a', '/old', '/new', '/flaky']));
  expect(paths.filter((p) => p === '/flaky')).toHaveLength(2);
  return site.checked;
}

const count = (checked: readonly Checked[], verifier: 'webBotAuth' | 'httpMessageSig'): number =>
  checked.filter((c) => c[verifier].startsWith('ok')).length;

const sites: InteropSite[] = [];
afterEach(async () => {
  for (const site of sites.splice(0)) await site.close();
});

describe('Web Bot Auth signatures, verified by published verifiers', () => {
  it('meunier: web-bot-auth 0.1.3 and http-message-sig 0.3.0 verify every request (the quoted-string Signature-Agent)', async () => {
    const checked = await crawlChecked('meunier');
    const n = checked.length;
    expect(n).toBe(7);
    expect(checked.every((c) => c.agentHeader === `"${AGENT}"`)).toBe(true);
    expect({ webBotAuth: count(checked, 'webBotAuth'), httpMessageSig: count(checked, 'httpMessageSig') }).toEqual({
      webBotAuth: n,
      httpMessageSig: n,
    });
  });

  it('ietf-01: http-message-sig 0.3.0 verifies every request, web-bot-auth 0.1.3 none (it does not resolve ;key=)', async () => {
    const checked = await crawlChecked('ietf-01');
    const n = checked.length;
    expect(n).toBe(7);
    expect(checked.every((c) => c.agentHeader === `sig1="${AGENT}"`)).toBe(true);
    expect({ webBotAuth: count(checked, 'webBotAuth'), httpMessageSig: count(checked, 'httpMessageSig') }).toEqual({
      webBotAuth: 0,
      httpMessageSig: n,
    });
    // Refused by the Ed25519 check over a base built with the whole field, not by a parse error.
    expect(new Set(checked.map((c) => c.webBotAuth))).toEqual(new Set(['invalid signature']));
    expect(new Set(checked.map((c) => c.httpMessageSig))).toEqual(new Set(['ok (key=sig1)']));
  });

  it('the default draft is one that both published verifiers accept', async () => {
    const checked = await crawlChecked(undefined);
    const n = checked.length;
    expect(n).toBe(7);
    expect({ webBotAuth: count(checked, 'webBotAuth'), httpMessageSig: count(checked, 'httpMessageSig') }).toEqual({
      webBotAuth: n,
      httpMessageSig: n,
    });
  });
});
