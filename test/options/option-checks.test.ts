import { ChromiumRenderer } from '@politely/browser';
import { createAddressBook, createHttpClient, createRobotsGate, createUndiciRobotsFetch } from '@politely/core';
import { checkNetworks, describeValue, optionChecks } from '@politely/core/internal';
import { createCrawler } from '@politely/crawler';
import { startDemoWeb } from '@politely/demo-web';
import { createMemoryFrontierStore } from '@politely/frontier';
import { sitemaps } from '@politely/sitemap';
import { createRedisFrontierStore } from '@politely/store-redis';
import { createSqliteFrontierStore } from '@politely/store-sqlite';
import { describe, expect, it } from 'vitest';

const check = optionChecks('createThing');
const invalid = (fn: () => unknown, message: RegExp): void => {
  expect(fn).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringMatching(message) }));
};

describe('optionChecks', () => {
  it('durations are finite numbers ≥ 0; timeouts > 0', () => {
    expect(check.durationMs('delayMs', undefined, 250)).toBe(250);
    expect(check.durationMs('delayMs', 0, 250)).toBe(0);
    for (const bad of [-1, Number.NaN, Infinity])
      invalid(() => check.durationMs('delayMs', bad, 0), /^createThing: delayMs must be a number of ms ≥ 0/);
    expect(check.timeoutMs('timeoutMs', 1, 10)).toBe(1);
    for (const bad of [0, -5, Infinity])
      invalid(() => check.timeoutMs('timeoutMs', bad, 10), /^createThing: timeoutMs must be a number of ms > 0/);
  });

  it('counts are integers ≥ min; Infinity only where a count may be unbounded', () => {
    expect(check.count('maxPages', undefined, 10, 0)).toBe(10);
    expect(check.count('maxPages', Infinity, 10, 0, { unbounded: true })).toBe(Infinity);
    invalid(() => check.count('maxPages', Infinity, 10, 0), /maxPages must be an integer ≥ 0, got Infinity/);
    invalid(() => check.count('maxPages', 1.5, 10, 0), /maxPages must be an integer ≥ 0/);
    invalid(() => check.count('concurrency', 0, 1, 1), /concurrency must be an integer ≥ 1, got 0/);
  });

  it('unknown keys are refused with the nearest known name, prefixed where nested', () => {
    const known = { maxPages: true, maxDepth: true, minDelayMs: true } as const;
    invalid(
      () => check.knownKeys({ maxPagez: 3 }, known),
      /^createThing: unknown option maxPagez \(did you mean maxPages\?\)$/,
    );
    invalid(() => check.knownKeys({ maxpages: 3 }, known), /did you mean maxPages\?/);
    invalid(() => check.knownKeys({ timeout: 1 }, known), /^createThing: unknown option timeout$/);
    invalid(
      () => check.knownKeys({ maxDeph: 1 }, known, 'render.'),
      /unknown option render\.maxDeph \(did you mean render\.maxDepth\?\)/,
    );
    expect(() => check.knownKeys({ maxPages: 1, minDelayMs: 0 }, known)).not.toThrow();
    expect(() => check.knownKeys(undefined, known)).not.toThrow();
  });

  it('only undefined means "not given": null, NaN and strings are wrong values, never the default', () => {
    for (const bad of [null, Number.NaN, '5', true])
      invalid(() => check.durationMs('delayMs', bad as unknown as number, 250), /delayMs must be a number of ms ≥ 0/);
    invalid(
      () => check.flag('followLinks', null as unknown as boolean, true),
      /followLinks must be true or false, got null/,
    );
    invalid(() => check.count('maxPages', 2 ** 53, 1, 0), /maxPages must be an integer ≥ 0, got 9007199254740992/);
  });

  it('positive numbers, one-of choices, callbacks and options another voids', () => {
    expect(check.positive('targetConcurrency', undefined, 1)).toBe(1);
    expect(check.positive('targetConcurrency', 0.5, 1)).toBe(0.5);
    for (const bad of [0, -3, Number.NaN, Infinity, 'x'])
      invalid(
        () => check.positive('targetConcurrency', bad as number, 1),
        /^createThing: targetConcurrency must be a finite number > 0, got /,
      );
    expect(check.oneOf('mode', undefined, 'a', ['a', 'b'] as const)).toBe('a');
    invalid(() => check.oneOf('mode', 'c' as 'a', 'a', ['a', 'b']), /^createThing: mode must be one of a, b, got "c"$/);
    invalid(() => check.callback('onNotice', 5), /^createThing: onNotice must be a function, got 5$/);
    expect(() => check.conflict('proxy', undefined, 'httpClient', 'why')).not.toThrow();
    invalid(
      () => check.conflict('proxy', 'http://p:1', 'httpClient', 'why'),
      /^createThing: proxy cannot be used with httpClient: why$/,
    );
  });

  it('describeValue shows any value without throwing, and cuts long strings', () => {
    expect(describeValue(Object.create(null))).toBe('an object');
    expect(describeValue(Symbol('s'))).toBe('a symbol');
    expect(describeValue(10n)).toBe('10');
    expect(describeValue([1])).toBe('an array');
    expect(describeValue('x'.repeat(100))).toBe(JSON.stringify(`${'x'.repeat(40)}…`));
  });

  it('networks are CIDR lists; flags are booleans; ordered pairs stay ordered', () => {
    expect(checkNetworks(check, 'allowNet', ['127.0.0.0/8', 'fd00::/8'])).toEqual(['127.0.0.0/8', 'fd00::/8']);
    invalid(() => checkNetworks(check, 'allowNet', ['127.0.0.0/33']), /^createThing: allowNet: /);
    invalid(() => checkNetworks(check, 'allowNet', ['127.0.0.1/8/8']), /^createThing: allowNet: /);
    invalid(() => checkNetworks(check, 'allowNet', [5 as unknown as string]), /^createThing: allowNet: /);
    invalid(() => check.flag('followLinks', 'yes' as unknown as boolean, true), /followLinks must be true or false/);
    invalid(() => check.ordered('minTtlMs', 2, 'maxTtlMs', 1), /minTtlMs \(2\) must not exceed maxTtlMs \(1\)/);
  });
});

describe('one rule for one kind of option across entry points', () => {
  it('a timeout of 0 is refused alike by the crawler, the gate and the robots fetch', () => {
    invalid(
      () => createCrawler({ userAgent: 'Bot', requestTimeoutMs: 0 }),
      /^createCrawler: requestTimeoutMs must be a number of ms > 0, got 0$/,
    );
    invalid(
      () => createRobotsGate({ timeoutMs: 0 }),
      /^createRobotsGate: timeoutMs must be a number of ms > 0, got 0$/,
    );
    invalid(
      () => createUndiciRobotsFetch({ timeoutMs: 0 }),
      /^createUndiciRobotsFetch: timeoutMs must be a number of ms > 0, got 0$/,
    );
  });

  it('createCrawler refuses an unknown option before anything runs, naming the nearest', () => {
    const typo = { userAgent: 'Bot', maxPagez: 3 } as unknown as Parameters<typeof createCrawler>[0];
    invalid(() => createCrawler(typo), /^createCrawler: unknown option maxPagez \(did you mean maxPages\?\)$/);
    const stray = { userAgent: 'Bot', seed: ['http://127.0.0.1/'] } as unknown as Parameters<typeof createCrawler>[0];
    invalid(() => createCrawler(stray), /^createCrawler: unknown option seed \(did you mean seeds\?\)$/);
  });

  it("every package's entry point refuses an unknown option, naming the nearest, before any I/O", () => {
    // Plain JavaScript, as a user without TypeScript writes it: the casts stand for that.
    const loose = <T>(options: object): T => options as T;
    const cases: [string, () => unknown, string][] = [
      ['createRobotsGate', () => createRobotsGate(loose({ timeoutMss: 1 })), 'timeoutMs'],
      ['createUndiciRobotsFetch', () => createUndiciRobotsFetch(loose({ alowNet: [] })), 'allowNet'],
      ['createAddressBook', () => createAddressBook(loose({ maxTTLms: 1 })), 'maxTtlMs'],
      [
        'createCrawler',
        () => createCrawler(loose({ userAgent: 'Bot', adaptiveDelay: { maxDelay: 5 } })),
        'adaptiveDelay\\.maxDelayMs',
      ],
      [
        'createCrawler',
        () => createCrawler(loose({ userAgent: 'Bot', trapDetection: { maxPathSegment: 5 } })),
        'trapDetection\\.maxPathSegments',
      ],
      [
        'createCrawler',
        () => createCrawler(loose({ userAgent: 'Bot', trapDetection: { calendar: { yearsAhaed: 1 } } })),
        'trapDetection\\.calendar\\.yearsAhead',
      ],
      [
        'createCrawler',
        () => createCrawler(loose({ userAgent: 'Bot', canonicalUrl: { stripWWW: true } })),
        'canonicalUrl\\.stripWww',
      ],
      [
        'createCrawler',
        () => createCrawler(loose({ userAgent: 'Bot', outputs: [{ path: 'out.jsonl', overwite: true }] })),
        'outputs\\[0\\]\\.overwrite',
      ],
      ['createHttpClient', () => createHttpClient(loose({ connectTimeout: 5 })), 'connectTimeoutMs'],
      ['sitemaps', () => sitemaps(loose({ maxDeph: 1 })), 'maxDepth'],
      ['createMemoryFrontierStore', () => createMemoryFrontierStore(loose({ rememberFetch: true })), 'rememberFetches'],
      ['ChromiumRenderer', () => new ChromiumRenderer(loose({ pagesPerContxt: 5 })), 'pagesPerContext'],
      // No file is created and no connection opened: the option is refused first.
      [
        'createSqliteFrontierStore',
        () => createSqliteFrontierStore(loose({ path: '/nonexistent-dir/crawl.db', idlePolMs: 5 })),
        'idlePollMs',
      ],
      [
        'createRedisFrontierStore',
        () => createRedisFrontierStore(loose({ redis: 'redis://127.0.0.1:1', crawlID: 'x' })),
        'crawlId',
      ],
    ];
    for (const [entryPoint, make, nearest] of cases) {
      invalid(make, new RegExp(`^${entryPoint}: unknown option [\\w.[\\]]+ \\(did you mean ${nearest}\\?\\)$`));
    }
  });

  it('startDemoWeb refuses an unknown option before it listens, naming the nearest', async () => {
    await expect(startDemoWeb({ gzipp: false } as unknown as Parameters<typeof startDemoWeb>[0])).rejects.toMatchObject(
      {
        code: 'ERR_INVALID_OPTION',
        message: 'startDemoWeb: unknown option gzipp (did you mean gzip?)',
      },
    );
  });

  it('a bad allowNet entry is refused alike by all three', () => {
    for (const [name, make] of [
      ['createCrawler', () => createCrawler({ userAgent: 'Bot', allowNet: ['10.0.0.0/40'] })],
      ['createRobotsGate', () => createRobotsGate({ allowNet: ['10.0.0.0/40'] })],
      ['createUndiciRobotsFetch', () => createUndiciRobotsFetch({ allowNet: ['10.0.0.0/40'] })],
    ] as const) {
      invalid(make, new RegExp(`^${name}: allowNet: `));
    }
  });
});
