// The crawl's cache of what rendered pages ask for: fresh answers without a request, stale ones
// revalidated, a 304 answered from the cache, and a bound in bytes.

import type { HttpResponse } from '@politely/core';
import { describe, expect, it } from 'vitest';
import { SubResourceCache } from '../../src/render/sub-resource-cache.js';

const URL_A = 'http://127.0.0.1:9/static/app.js';

function response(
  status: number,
  headers: Record<string, string>,
  body = '',
): { response: HttpResponse; pairs: [string, string][]; body: Buffer } {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    response: {
      url: URL_A,
      status,
      headers: lower,
      header: (name) => lower[name.toLowerCase()],
      headerValues: (name) => (lower[name.toLowerCase()] === undefined ? [] : [lower[name.toLowerCase()]!]),
      body: Buffer.from(body),
      truncated: false,
      timing: { headersMs: 1, totalMs: 1 },
    },
    pairs: Object.entries(lower),
    body: Buffer.from(body),
  };
}

const now = (): string => new Date().toUTCString();

describe('SubResourceCache', () => {
  it('answers a response with max-age from the cache, with the body and status as received', () => {
    const cache = new SubResourceCache(1024 * 1024);
    expect(cache.lookup(URL_A, '*/*').kind).toBe('miss');
    const first = response(
      200,
      { 'cache-control': 'max-age=60', date: now(), 'content-type': 'text/javascript' },
      'console.log(1)',
    );
    expect(cache.received(URL_A, '*/*', first.response, first.pairs, first.body)).toBeUndefined();
    const hit = cache.lookup(URL_A, '*/*');
    expect(hit.kind).toBe('fresh');
    if (hit.kind !== 'fresh') return;
    expect(hit.status).toBe(200);
    expect(hit.body.toString()).toBe('console.log(1)');
    expect(hit.headers).toContainEqual(['content-type', 'text/javascript']);
  });

  it('revalidates what is stale with its validators, and a 304 answers from the cache', () => {
    const cache = new SubResourceCache(1024 * 1024);
    const first = response(200, { 'cache-control': 'no-cache', etag: '"v1"', date: now() }, 'body one');
    cache.received(URL_A, '*/*', first.response, first.pairs, first.body);
    const stale = cache.lookup(URL_A, '*/*');
    expect(stale).toEqual({ kind: 'stale', conditional: { 'if-none-match': '"v1"' } });
    const notModified = response(304, { etag: '"v1"', date: now() });
    const answer = cache.received(URL_A, '*/*', notModified.response, notModified.pairs, notModified.body);
    expect(answer?.kind).toBe('fresh');
    if (answer?.kind === 'fresh') expect(answer.body.toString()).toBe('body one');
  });

  it('keeps nothing the server forbids, or without freshness or validators', () => {
    const cache = new SubResourceCache(1024 * 1024);
    const noStore = response(200, { 'cache-control': 'no-store', etag: '"x"' }, 'secret');
    cache.received(URL_A, '*/*', noStore.response, noStore.pairs, noStore.body);
    expect(cache.lookup(URL_A, '*/*').kind).toBe('miss');
    const bare = response(200, { date: now() }, 'plain');
    cache.received(URL_A, '*/*', bare.response, bare.pairs, bare.body);
    expect(cache.lookup(URL_A, '*/*').kind).toBe('miss');
  });

  it('stays within its bytes: the least recently used goes first', () => {
    const cache = new SubResourceCache(800);
    const keep = (url: string): void => {
      const kept = response(200, { 'cache-control': 'max-age=60', date: now() }, 'x'.repeat(100));
      cache.received(url, '*/*', { ...kept.response, url }, kept.pairs, kept.body);
    };
    for (let i = 0; i < 8; i++) keep(`${URL_A}?v=${i}`);
    expect(cache.lookup(`${URL_A}?v=0`, '*/*').kind).toBe('fresh'); // used: now the most recent
    keep(`${URL_A}?v=8`);
    expect(cache.lookup(`${URL_A}?v=1`, '*/*').kind).toBe('miss');
    expect(cache.lookup(`${URL_A}?v=0`, '*/*').kind).toBe('fresh');
    expect(cache.lookup(`${URL_A}?v=8`, '*/*').kind).toBe('fresh');
    // A body past an eighth of the bound is never kept.
    const big = response(200, { 'cache-control': 'max-age=60', date: now() }, 'y'.repeat(101));
    cache.received(`${URL_A}?big`, '*/*', big.response, big.pairs, big.body);
    expect(cache.lookup(`${URL_A}?big`, '*/*').kind).toBe('miss');
  });
});
