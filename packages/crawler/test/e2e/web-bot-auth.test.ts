// Web Bot Auth on the wire: a loopback site that verifies every request it receives with its own
// RFC 9421 verifier, written here from the RFC's signature-base rules (its own parsing of
// Signature-Input and Signature-Agent, its own base, node:crypto's verify with the public key) —
// never the project's signing code. A request that does not verify is answered 401, so the
// crawl itself depends on every signature. The crawl covers robots.txt, a sitemap, a redirect hop
// and a 503 answered with a retry; the WARC request records carry the headers as sent.

import type { JsonWebKey, KeyObject } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCrawler } from '@politely/crawler';
import { sitemaps } from '@politely/sitemap';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testKey, type Verified, verifyRequest } from '../../../../test/support/rfc9421-verify.js';
import { readWarcFile } from '../../../../test/support/warc-reader.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'SignedBot/1.0 (+http://example.invalid/bot)';
const AGENT = 'https://bot.example/.well-known/http-message-signatures-directory';

interface SignedSite {
  readonly base: string;
  readonly verified: Verified[];
  close(): Promise<void>;
}

async function startSignedSite(publicKey: KeyObject): Promise<SignedSite> {
  const verified: Verified[] = [];
  let flakyCalls = 0;
  let base = '';
  const pages: Record<string, (res: import('node:http').ServerResponse) => void> = {
    '/robots.txt': (res) => res.end(`User-agent: *\nAllow: /\nSitemap: ${base}/sitemap.xml\n`),
    '/sitemap.xml': (res) =>
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/listed</loc></url></urlset>`,
        ),
    '/': (res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<a href="/a">a</a> <a href="/old">old</a> <a href="/flaky">flaky</a>'),
    '/a': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a</p>'),
    '/listed': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>listed</p>'),
    '/old': (res) => res.writeHead(301, { location: '/new' }).end(),
    '/new': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>new</p>'),
    '/flaky': (res) => {
      flakyCalls += 1;
      if (flakyCalls === 1) res.writeHead(503, { 'retry-after': '0' }).end('busy');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>flaky, then fine</p>');
    },
  };
  const server: Server = createServer((req, res) => {
    const check = verifyRequest(
      { path: req.url ?? '', authority: req.headers.host ?? '', headers: req.headers },
      publicKey,
    );
    verified.push(check);
    if (!check.ok) {
      res.writeHead(401).end(check.why);
      return;
    }
    const page = pages[req.url ?? ''];
    if (page === undefined) res.writeHead(404).end();
    else page(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    verified,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'politely-wba-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('Web Bot Auth signing, verified by the site', () => {
  it.each([
    { draft: undefined, agentForm: `"${AGENT}"`, covers: '"signature-agent")', warned: false },
    { draft: 'ietf-01' as const, agentForm: `sig1="${AGENT}"`, covers: '"signature-agent";key="sig1"', warned: true },
    { draft: 'meunier' as const, agentForm: `"${AGENT}"`, covers: '"signature-agent")', warned: false },
  ])('signs every request of a crawl (draft $draft)', async ({ draft, agentForm, covers, warned }) => {
    const key = testKey();
    const site = await startSignedSite(key.publicKey);
    const warcPath = join(dir, 'crawl.warc');
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      backoffBaseMs: 10,
      maxRetries: 2,
      plugins: [sitemaps()],
      outputs: [{ path: warcPath }],
      signing: { key: key.jwk, signatureAgent: AGENT, ...(draft === undefined ? {} : { draft }) },
    });
    const warnings: string[] = [];
    crawler.on('warning', (event) => warnings.push(`${event.kind}: ${event.message}`));
    const stats = await crawler.run().finally(() => site.close());
    // AGENT has a path: verifiers of the ietf-01 form ignore it, and the crawl says so once.
    expect(warnings).toEqual(
      warned
        ? [
            `signing: signing.signatureAgent "${AGENT}" is not an origin: under draft 'ietf-01' a verifier ignores ` +
              'a Signature-Agent member with a path and looks for keys at ' +
              'https://bot.example/.well-known/http-message-signatures-directory; give "https://bot.example"',
          ]
        : [],
    );

    const paths = site.verified.map((v) => v.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/robots.txt', '/sitemap.xml', '/', '/a', '/listed', '/old', '/new', '/flaky']),
    );
    expect(paths.filter((p) => p === '/flaky')).toHaveLength(2);
    expect(site.verified.filter((v) => !v.ok)).toEqual([]);
    expect(stats.retries).toBe(1);
    expect(stats.signedRequests).toBe(site.verified.length);
    // Pages by final status: /, /a, /listed, /old → /new, /flaky after its retry.
    expect(stats.byStatus).toEqual({ 200: 5 });

    const nonces = site.verified.map((v) => v.nonce);
    expect(new Set(nonces).size).toBe(site.verified.length);
    for (const v of site.verified) {
      expect(v.keyid).toBe(key.thumbprint);
      expect(v.expires).toBeGreaterThan(v.created);
      expect(v.expires - v.created).toBeLessThanOrEqual(300);
      expect(Math.abs(v.created - Date.now() / 1000)).toBeLessThan(120);
      expect(v.agentHeader).toBe(agentForm);
      expect(v.signatureInput).toContain(covers);
      expect(v.signatureInput).toContain('tag="web-bot-auth"');
      expect(v.signatureInput).toContain('"@authority"');
    }

    // The archive's request records hold the signature headers exactly as the site received them.
    const files = readdirSync(dir).filter((name) => name.endsWith('.warc'));
    const records = (await Promise.all(files.map((file) => readWarcFile(join(dir, file))))).flatMap((f) => f.records);
    const archived = records
      .filter((record) => record.type === 'request')
      .map((record) => ({
        input: record.http?.header('signature-input'),
        signature: record.http?.header('signature'),
        agent: record.http?.header('signature-agent'),
      }));
    const received = site.verified.map((v) => ({
      input: v.signatureInput,
      signature: v.signature,
      agent: v.agentHeader,
    }));
    expect(archived.length).toBe(received.length);
    expect(new Set(archived.map((a) => JSON.stringify(a)))).toEqual(new Set(received.map((r) => JSON.stringify(r))));
  });

  it('refuses a bad key at createCrawler without quoting its private part', () => {
    const key = testKey();
    const other = testKey();
    const d = key.jwk.d as string;
    const bad: JsonWebKey[] = [
      { ...key.jwk, x: other.jwk.x as string },
      { ...key.jwk, d: `${d}A` },
      { ...key.jwk, crv: 'Ed448' },
      { ...key.jwk, kid: 'wrong' },
    ];
    for (const jwk of bad) {
      let message = '';
      try {
        createCrawler({ userAgent: UA, signing: { key: jwk, signatureAgent: AGENT } });
      } catch (error) {
        message = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack ?? ''}`;
      }
      expect(message).toContain('createCrawler: signing.key');
      expect(message).not.toContain(d.slice(0, 10));
    }
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, signing: { key: key.jwk, signatureAgent: 'http://bot.example/' } }),
      'signing.signatureAgent must be an https URL',
    );
    expectInvalidOption(
      () =>
        createCrawler({ userAgent: UA, signing: { key: key.jwk, signatureAgent: AGENT, sign: 'never' as 'always' } }),
      "signing.sign must be 'always'",
    );
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, signing: { key: key.jwk, signatureAgent: AGENT, keyId: 'x' } as never }),
      'signing.keyId',
    );
  });
});
