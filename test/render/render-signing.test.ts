// Web Bot Auth in a rendered crawl: every request that reaches the render web — robots.txt,
// pages, and the sub-requests Chromium makes (API calls, scripts, the third-party host's) — left
// through the signing client and carries a signature of its own that the independent RFC 9421
// verifier (test/support/rfc9421-verify.ts) accepts. The requests are seen where they leave: a
// recording HttpClient the crawler's signing client wraps.

import { ChromiumRenderer } from '@politely/browser';
import { createHttpClient, type HttpClient, type HttpRequest } from '@politely/core';
import { createCrawler } from '@politely/crawler';
import { type RenderWeb, startRenderWeb } from '@politely/demo-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKey, verifyRequest } from '../support/rfc9421-verify.js';

const UA = 'PolitelyDemo/1.0 (+https://example.test/bot)';
const AGENT = 'https://bot.example/.well-known/http-message-signatures-directory';

let web: RenderWeb;

beforeAll(async () => {
  web = await startRenderWeb({ firstAddress: 40 });
});

afterAll(async () => {
  await web.close();
});

function recordingClient(sent: HttpRequest[]): HttpClient {
  const client = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
  return {
    get: (request) => {
      sent.push(request);
      return client.get(request);
    },
    close: () => client.close(),
  };
}

describe('a signed rendered crawl', () => {
  it('signs every request, sub-requests included, each with its own verifiable signature', async () => {
    const key = testKey();
    const sent: HttpRequest[] = [];
    web.resetLogs();
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [web.entryUrl],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      concurrency: 4,
      render: true,
      renderer: new ChromiumRenderer(),
      httpClient: recordingClient(sent),
      signing: { key: key.jwk, signatureAgent: AGENT },
    });
    const stats = await crawler.run();
    const log = web.requestLog();

    expect(stats.pages).toBeGreaterThan(3);
    // Every request that reached the web was sent by the recording client, signed.
    expect(sent.length).toBe(log.length);
    const pages = new Set(log.filter((entry) => !entry.path.endsWith('robots.txt')).map((e) => `${e.origin}${e.path}`));
    expect(pages.size).toBeGreaterThan(stats.pages); // sub-requests beyond the pages
    const checks = sent.map((request) => {
      const url = new URL(request.url);
      return verifyRequest(
        { path: url.pathname + url.search, authority: url.host, headers: request.headers },
        key.publicKey,
      );
    });
    expect(checks.filter((check) => !check.ok)).toEqual([]);
    expect(new Set(checks.map((check) => check.nonce)).size).toBe(checks.length);
    for (const check of checks) expect(check.keyid).toBe(key.thumbprint);
  }, 120_000);
});
