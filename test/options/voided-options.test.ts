// An option that another option makes void is refused, naming both: `createCrawler({ httpClient,
// allowNet })` would otherwise drop the SSRF allowance without a word. The pairs come from the
// crawler's own table (VOIDED_OPTIONS); each needs a valid value here, so a pair added there
// without one fails.

import { type CrawlerOptions, createCrawler } from '@politely/crawler';
import { VOIDED_OPTIONS } from '@politely/crawler/internal';
import { createRedisFrontierStore } from '@politely/store-redis';
import { describe, expect, it } from 'vitest';

const client = { get: () => Promise.reject(new Error('unused')), close: () => Promise.resolve() };
const gate = { check: () => Promise.reject(new Error('unused')), close: () => Promise.resolve() };
const renderer = { start: () => Promise.reject(new Error('unused')) };

/** A value each voidable option would take if nothing voided it, and the option that voids it. */
const VALID: Readonly<Record<string, Partial<CrawlerOptions>>> = {
  proxy: { proxy: 'http://proxy.example:3128', httpClient: client },
  connectTimeoutMs: { connectTimeoutMs: 5000, httpClient: client },
  maxHeaderBytes: { maxHeaderBytes: 32_768, httpClient: client },
  blockPrivateNetworks: { blockPrivateNetworks: false, httpClient: client },
  allowNet: { allowNet: ['127.0.0.0/8'], httpClient: client },
  resolver: { resolver: async () => [{ address: '127.0.0.1', family: 4 }], httpClient: client },
  robotsCache: {
    robotsCache: { get: async () => undefined, set: async () => {}, delete: async () => {} },
    gate: gate as unknown as CrawlerOptions['gate'] & object,
  },
  tdmrepCacheMs: { tdmrepCacheMs: 3_600_000, purposes: ['search'] },
  renderer: { renderer },
  renderWaitUntil: { renderWaitUntil: 'load' },
  renderTimeoutMs: { renderTimeoutMs: 5000 },
  renderBlockResourceTypes: { renderBlockResourceTypes: ['image'] },
};

const crawlerWith = (options: Partial<CrawlerOptions>) =>
  createCrawler({ userAgent: 'Bot/1.0', ...options } as CrawlerOptions);

describe('createCrawler: options that cannot take effect', () => {
  it('every pair of the table has a case here', () => {
    expect(VOIDED_OPTIONS.map((pair) => pair.option).filter((option) => !Object.hasOwn(VALID, option))).toEqual([]);
  });

  it('refuses each, naming the option and the one that voids it', () => {
    for (const { option, by } of VOIDED_OPTIONS) {
      expect(() => crawlerWith(VALID[option] as Partial<CrawlerOptions>), option).toThrow(
        expect.objectContaining({
          code: 'ERR_INVALID_OPTION',
          message: expect.stringMatching(new RegExp(`^createCrawler: ${option} cannot take effect with ${by}\\b`)),
        }),
      );
    }
  });

  it('takes the same options where they do take effect', () => {
    // The guard of a given client's crawl still judges what politenessKey 'ip' or a resolver resolves.
    const keyed = crawlerWith({ allowNet: ['127.0.0.0/8'], httpClient: client as never, politenessKey: 'ip' });
    expect(keyed).toBeDefined();
    expect(crawlerWith({ tdmrepCacheMs: 3_600_000, purposes: ['ai-train'] })).toBeDefined();
    // Without a client of its own, every client option takes effect.
    expect(crawlerWith({ allowNet: ['127.0.0.0/8'], connectTimeoutMs: 5000, maxHeaderBytes: 32_768 })).toBeDefined();
    // Rendering: the render options take effect, and the guard judges the sub-requests' addresses.
    expect(
      crawlerWith({
        render: true,
        renderer,
        renderWaitUntil: 'load',
        allowNet: ['127.0.0.0/8'],
        httpClient: client as never,
      }),
    ).toBeDefined();
  });
});

describe('createRedisFrontierStore: options that cannot take effect', () => {
  const link = { defineCommand: () => {}, options: {} } as unknown as Parameters<
    typeof createRedisFrontierStore
  >[0]['redis'];

  it('refuses the options of a connection it does not open, naming both', () => {
    for (const option of ['connectTimeoutMs', 'maxOutageMs', 'onNotice'] as const) {
      const value = option === 'onNotice' ? () => {} : 1000;
      expect(() => createRedisFrontierStore({ redis: link, crawlId: 'voided', [option]: value }), option).toThrow(
        expect.objectContaining({
          code: 'ERR_INVALID_OPTION',
          message: expect.stringMatching(
            new RegExp(`^createRedisFrontierStore: ${option} cannot be used with a RedisLink or an ioredis client`),
          ),
        }),
      );
    }
  });

  it('refuses crawlId beside keyPrefix, which names the keys instead', () => {
    expect(() =>
      createRedisFrontierStore({ redis: 'redis://127.0.0.1:6379/0', crawlId: 'a', keyPrefix: 'x:{a}:' }),
    ).toThrow(/^createRedisFrontierStore: crawlId cannot take effect with keyPrefix/);
  });
});
