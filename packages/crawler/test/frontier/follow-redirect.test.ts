// followRedirect (frontier/follow-redirect.ts) with a real frontier over a real memory store: the
// target is queued like any URL (scope, dedupe) carrying only the hop count and the origin of the
// chain; a hop too many or a bad Location is a skip to report.

import { createMemoryFrontierStore, type FrontierEntry, type FrontierStore } from '@politely/frontier';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPolitenessKeys } from '../../src/politeness/index.js';

const hostKeys = createPolitenessKeys('host', undefined);

import { followRedirect } from '../../src/frontier/follow-redirect.js';
import { createFrontier, type Frontier } from '../../src/frontier/frontier.js';
import { createScope } from '../../src/frontier/scope.js';
import type { SkipDetail } from '../../src/skip-reasons.js';
import { entryFor } from '../pipeline/pipeline-helpers.js';

const SEED = 'http://site.test/';
const MAX_REDIRECTS = 5;

interface Skip {
  readonly url: string;
  readonly skip: SkipDetail;
  readonly referrer: string | undefined;
}

let store: FrontierStore;
let frontier: Frontier;
let skips: Skip[];

beforeEach(() => {
  store = createMemoryFrontierStore();
  skips = [];
  frontier = createFrontier({
    store,
    inScope: createScope('same-domain', [SEED]),
    canonicalUrl: {},
    maxDepth: 10,
    maxPagesPerHost: 1000,
    hostKeyOf: hostKeys.keyOf,
    onSkip: (url, skip, referrer) => void skips.push({ url, skip, referrer }),
  });
});

/** Every entry the store holds, in claim order. */
async function queued(): Promise<FrontierEntry[]> {
  const entries: FrontierEntry[] = [];
  for (let now = 0; entries.length < 50; now += 1) {
    const claimed = await store.claim({ now, leaseMs: 1 });
    if (claimed.lease === null) break;
    entries.push(claimed.lease.entry);
    await store.complete(claimed.lease.id);
  }
  return entries;
}

const page = entryFor('http://site.test/dir/old', { depth: 3, priority: 7, referrer: 'http://site.test/list' });

describe('followRedirect: the target is queued', () => {
  it('keeps depth, priority and referrer; records the first URL and one hop', async () => {
    expect(await followRedirect(page, 'http://www.site.test/new', MAX_REDIRECTS, frontier)).toBeUndefined();
    expect(await queued()).toEqual([
      {
        url: 'http://www.site.test/new',
        hostKey: 'www.site.test',
        depth: 3,
        priority: 7,
        referrer: 'http://site.test/list',
        redirectedFrom: 'http://site.test/dir/old',
        redirectHops: 1,
      },
    ]);
    expect(skips).toEqual([]);
  });

  it('along a chain, keeps the URL first requested and counts the hops', async () => {
    const hop = { ...page, url: 'http://site.test/second', redirectedFrom: 'http://site.test/first', redirectHops: 2 };
    await followRedirect(hop, '/third', MAX_REDIRECTS, frontier);
    expect(await queued()).toMatchObject([
      { url: 'http://site.test/third', redirectedFrom: 'http://site.test/first', redirectHops: 3 },
    ]);
  });

  it('resolves a relative Location against the URL that answered', async () => {
    await followRedirect(page, '../other/page?q=1#frag', MAX_REDIRECTS, frontier);
    expect((await queued()).map((e) => e.url)).toEqual(['http://site.test/other/page?q=1']);
  });

  it('a plugin resource keeps its kind and data, and its scope exemption (a cross-site target)', async () => {
    const sitemap = entryFor('http://site.test/sitemap.xml', { kind: 'sitemap', data: { index: true, n: 2 } });
    await followRedirect(sitemap, 'https://cdn.elsewhere.example/maps/sitemap.xml', MAX_REDIRECTS, frontier);
    expect(await queued()).toEqual([
      {
        url: 'https://cdn.elsewhere.example/maps/sitemap.xml',
        hostKey: 'cdn.elsewhere.example',
        depth: 0,
        priority: 0,
        kind: 'sitemap',
        data: { index: true, n: 2 },
        redirectedFrom: 'http://site.test/sitemap.xml',
        redirectHops: 1,
      },
    ]);
    expect(skips).toEqual([]);
  });

  it('a page’s target passes the scope like any link: off-site, it is skipped and nothing queued', async () => {
    await followRedirect(page, 'https://elsewhere.example/', MAX_REDIRECTS, frontier);
    expect(await queued()).toEqual([]);
    expect(skips).toEqual([
      { url: 'https://elsewhere.example/', skip: { reason: 'scope' }, referrer: 'http://site.test/list' },
    ]);
  });

  it('a target already queued is a duplicate, not a second entry', async () => {
    await frontier.add([{ url: 'http://site.test/known', depth: 0 }]);
    await followRedirect(page, '/known', MAX_REDIRECTS, frontier);
    expect((await queued()).map((e) => e.url)).toEqual(['http://site.test/known']);
    expect(skips).toEqual([
      { url: 'http://site.test/known', skip: { reason: 'duplicate' }, referrer: 'http://site.test/list' },
    ]);
  });
});

describe('followRedirect: a hop that cannot be followed', () => {
  it('more than maxRedirects: too-many-redirects for the URL that answered, with its referrer', async () => {
    const last = { ...page, redirectHops: MAX_REDIRECTS };
    expect(await followRedirect(last, '/next', MAX_REDIRECTS, frontier)).toEqual({
      url: 'http://site.test/dir/old',
      skip: { reason: 'too-many-redirects', detail: 'more than 5 redirects' },
      referrer: 'http://site.test/list',
    });
    expect(await queued()).toEqual([]);
  });

  it('maxRedirects 0 follows none; the last allowed hop is still followed', async () => {
    expect(await followRedirect(page, '/next', 0, frontier)).toMatchObject({
      skip: { reason: 'too-many-redirects', detail: 'more than 0 redirects' },
    });
    expect(
      await followRedirect({ ...page, redirectHops: MAX_REDIRECTS - 1 }, '/next', MAX_REDIRECTS, frontier),
    ).toBeUndefined();
    expect(await queued()).toMatchObject([{ url: 'http://site.test/next', redirectHops: MAX_REDIRECTS }]);
  });

  it('an invalid Location: invalid-url naming the location, the redirecting URL as referrer', async () => {
    expect(await followRedirect(page, 'http://[::1', MAX_REDIRECTS, frontier)).toEqual({
      url: 'http://[::1',
      skip: { reason: 'invalid-url', detail: 'redirect from http://site.test/dir/old to an invalid URL' },
      referrer: 'http://site.test/dir/old',
    });
    expect(await queued()).toEqual([]);
  });

  it('a Location with an unsupported scheme is queued through the frontier, which skips it', async () => {
    expect(await followRedirect(page, 'ftp://site.test/file', MAX_REDIRECTS, frontier)).toBeUndefined();
    expect(await queued()).toEqual([]);
    expect(skips).toMatchObject([
      { url: 'ftp://site.test/file', skip: { reason: 'unsupported-scheme' }, referrer: 'http://site.test/list' },
    ]);
  });
});
