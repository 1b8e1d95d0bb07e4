// The usage web serves exactly what its manifest says (robots.txt, tdmrep.json, usage headers and
// meta tags), and what it serves parses through @politely/core's usage functions to exactly the
// verdicts the manifest states, so the manifest cannot drift from the servers.

import {
  lintRobotsTxt,
  parseRobotsTxt,
  parseTdmrepJson,
  type RobotsTxt,
  type TdmrepFile,
  type UsageMetaTag,
  type UsageReport,
  usageBeforeFetch,
  usageOf,
} from '@politely/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isBeforeFetchKind,
  MANAGED_ROBOTS_TXT,
  startUsageWeb,
  TDMREP_PATH,
  USAGE_HOST_NAMES,
  USAGE_WEB_PURPOSES,
  type UsagePageTruth,
  type UsageWeb,
  usageManifest,
} from '../src/index.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const USAGE_HEADER_NAMES = ['content-usage', 'x-robots-tag', 'tdm-reservation', 'tdm-policy'];
const USAGE_META_NAMES = new Set(['robots', 'tdm-reservation', 'tdm-policy']);

let web: UsageWeb;
const robotsByHost = new Map<string, RobotsTxt>();
const tdmrepByHost = new Map<string, TdmrepFile | null>();

beforeAll(async () => {
  web = await startUsageWeb({ firstAddress: 200 });
  for (const host of web.hosts) {
    const robots = await fetch(`${host.origin}/robots.txt`);
    robotsByHost.set(host.name, parseRobotsTxt(await robots.text()));
    const tdmrep = await fetch(`${host.origin}${TDMREP_PATH}`);
    tdmrepByHost.set(
      host.name,
      tdmrep.status === 200 ? parseTdmrepJson(await tdmrep.text()) : (await tdmrep.arrayBuffer(), null),
    );
  }
});

afterAll(async () => {
  await web.close();
});

/** The `<meta name content>` pairs of a page (the usage web writes name before content). */
function metaTags(html: string): UsageMetaTag[] {
  return [...html.matchAll(/<meta name="([^"]*)" content="([^"]*)">/g)].map((m) => ({
    name: (m[1] ?? '').replace(/&quot;/g, '"').replace(/&amp;/g, '&'),
    content: (m[2] ?? '').replace(/&quot;/g, '"').replace(/&amp;/g, '&'),
  }));
}

interface Served {
  readonly status: number;
  readonly headers: Headers;
  readonly meta: UsageMetaTag[];
  readonly html: string;
}

async function served(page: UsagePageTruth): Promise<Served> {
  const response = await fetch(page.url, { redirect: 'manual', headers: { 'user-agent': UA } });
  const html = await response.text();
  return { status: response.status, headers: response.headers, meta: metaTags(html), html };
}

/** Status and deciding source kinds per purpose, in the manifest's shape. */
function verdictsOf(report: UsageReport) {
  return Object.fromEntries(
    USAGE_WEB_PURPOSES.map((purpose) => {
      const verdict = report.purposes[purpose];
      return [purpose, { status: verdict.status, by: [...new Set(verdict.sources.map((source) => source.kind))] }];
    }),
  );
}

describe('startUsageWeb', () => {
  it('puts five hosts on consecutive addresses of one port, entered at the hub', () => {
    expect(web.hosts.map((host) => host.name)).toEqual([...USAGE_HOST_NAMES]);
    expect(web.hosts.map((host) => host.address)).toEqual([
      '127.0.0.200',
      '127.0.0.201',
      '127.0.0.202',
      '127.0.0.203',
      '127.0.0.204',
    ]);
    expect(new Set(web.hosts.map((host) => host.port)).size).toBe(1);
    expect(web.entryUrl).toBe(`${web.host('hub').origin}/`);
  });

  it('defaults to 127.0.0.90–94 and refuses a user agent the managed robots.txt names', async () => {
    const other = await startUsageWeb();
    try {
      expect(other.hosts.map((host) => host.address)).toEqual([
        '127.0.0.90',
        '127.0.0.91',
        '127.0.0.92',
        '127.0.0.93',
        '127.0.0.94',
      ]);
    } finally {
      await other.close();
    }
    await expect(startUsageWeb({ userAgent: 'GPTBot/1.2' })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
    await expect(startUsageWeb({ firstAddress: 252 })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
  });

  it('serves each robots.txt as the manifest has it, and every one lints clean', async () => {
    for (const host of web.hosts) {
      const response = await fetch(`${host.origin}/robots.txt`);
      expect(response.status, host.name).toBe(200);
      expect(await response.text(), host.name).toBe(host.robotsTxt);
      expect(lintRobotsTxt(host.robotsTxt ?? ''), host.name).toEqual([]);
    }
  });

  // That the managed part is Cloudflare's, as in core's fixture, is checked in test/usage/.
  it("managed: Cloudflare's comment block and managed content, then the site's own group", () => {
    const served = web.host('managed').robotsTxt ?? '';
    expect(served).toBe(MANAGED_ROBOTS_TXT);
    const robots = robotsByHost.get('managed') as RobotsTxt;
    expect(robots.isAllowed(web.url('managed', '/blog/'), 'GPTBot/1.2')).toBe(false);
    expect(robots.isAllowed(web.url('managed', '/blog/'), UA)).toBe(true);
    expect(web.host('managed').disallowedKnownPaths).toEqual(['/feedback', '/lp/spring-sale']);
  });

  it('serves /.well-known/tdmrep.json on the tdmrep host only, with its policy document', async () => {
    expect(web.tdmrepFiles.map((file) => file.host)).toEqual(['tdmrep']);
    const [file] = web.tdmrepFiles;
    const response = await fetch(file?.url ?? '');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.text();
    expect(body).toBe(file?.body);
    const parsed = parseTdmrepJson(body);
    expect(parsed.issues).toEqual([]);
    expect(parsed.rules.map((rule) => [rule.location, rule.reservation])).toEqual([
      ['/catalogue/', 'reserved'],
      ['/open/', 'allowed'],
    ]);
    const policy = parsed.rules[0]?.policy ?? '';
    expect(policy).toBe(web.url('tdmrep', '/policies/tdm-policy.json'));
    const document = await fetch(policy);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { profile: string }).profile).toBe('http://www.w3.org/ns/tdmrep');
    for (const name of USAGE_HOST_NAMES.filter((host) => host !== 'tdmrep'))
      expect(tdmrepByHost.get(name), name).toBeNull();
  });

  it('serves every page with exactly the usage headers and meta tags the manifest lists', async () => {
    expect(web.usagePages.length).toBeGreaterThan(30);
    for (const page of web.usagePages) {
      const response = await served(page);
      expect(response.status, page.url).toBe(200);
      const headers = Object.fromEntries(
        USAGE_HEADER_NAMES.flatMap((name) => {
          const value = response.headers.get(name);
          return value === null ? [] : [[name, value]];
        }),
      );
      expect(headers, page.url).toEqual(page.headers);
      expect(
        response.meta.filter((tag) => USAGE_META_NAMES.has(tag.name)),
        page.url,
      ).toEqual(page.meta);
    }
  });

  it('what is served parses to exactly the verdicts the manifest states (robots.txt, tdmrep.json, headers, meta)', async () => {
    for (const page of web.usagePages) {
      const response = await served(page);
      const input = {
        url: page.url,
        tokens: UA,
        robots: robotsByHost.get(page.host) ?? null,
        tdmrep: tdmrepByHost.get(page.host) ?? null,
      };
      expect(verdictsOf(usageOf({ ...input, headers: response.headers, meta: response.meta })), page.url).toEqual(
        page.verdicts,
      );
      // Before fetching, only the robots.txt and tdmrep.json sources are known.
      const before = usageBeforeFetch(input);
      for (const purpose of USAGE_WEB_PURPOSES) {
        const expected = page.verdicts[purpose];
        const reservedBefore = expected.status === 'reserved' && expected.by.some(isBeforeFetchKind);
        expect(before.purposes[purpose].status === 'reserved', `${page.url} ${purpose}`).toBe(reservedBefore);
      }
    }
  });

  it('every page of the four sites is linked from the entry page, and pages link across the sites', async () => {
    const hub = await (await fetch(web.entryUrl)).text();
    for (const page of web.usagePages.filter((p) => p.host !== 'hub'))
      expect(hub, page.url).toContain(`href="${page.url}"`);
    const page = await (await fetch(web.url('scoped', '/research/field-notes'))).text();
    for (const name of USAGE_HOST_NAMES.filter((host) => host !== 'scoped'))
      expect(page).toContain(`href="${web.host(name).origin}/"`);
    // A crawl without purposes fetches every page (and the robots.txt-disallowed ones not).
    const expected = web.hosts
      .flatMap((host) => host.expectedAllowedPaths.map((path) => `${host.origin}${path}`))
      .sort();
    expect(expected).toEqual(web.usagePages.map((p) => p.url).sort());
  });

  it('usageManifest judges a crawl with purposes by the mechanism that reserves each page', () => {
    const none = usageManifest(web, []);
    expect(none.handled).toHaveLength(web.usagePages.length);
    expect(none.neverRequested).toEqual([]);

    const train = usageManifest(web, ['ai-train']);
    const paths = (list: readonly { page: UsagePageTruth }[]) =>
      list.map(({ page }) => `${page.host}${page.path}`).sort();
    expect(paths(train.neverRequested)).toEqual([
      'managed/',
      'managed/blog/',
      'managed/blog/first-light',
      'managed/blog/long-exposure',
      'managed/pricing',
      'scoped/research/',
      'scoped/research/corpus-study',
      'scoped/research/field-notes',
      'tdmrep/catalogue/',
      'tdmrep/catalogue/atlas-1890',
      'tdmrep/catalogue/herbarium',
    ]);
    expect(paths(train.notHandled)).toEqual([
      'headers/articles/no-training',
      'headers/articles/search-only',
      'headers/gallery/mixed',
      'headers/members/essay',
      'tdmrep/articles/header-reserved',
      'tdmrep/articles/meta-noai',
      'tdmrep/articles/meta-reserved',
      'tdmrep/open/embargoed',
    ]);
    expect(train.neverRequested.find(({ page }) => page.host === 'tdmrep')?.by).toEqual(['tdmrep-json']);
    expect(train.notHandled.find(({ page }) => page.path === '/open/embargoed')?.by).toEqual(['tdm-header']);
    expect(train.handled.map((page) => `${page.host}${page.path}`)).toContain('headers/gallery/');
    expect([...train.disallowed].sort()).toEqual([
      web.url('managed', '/feedback'),
      web.url('managed', '/lp/spring-sale'),
      web.url('scoped', '/drafts/next-paper'),
    ]);

    // Search: only the path-scoped rules say anything before fetching, and none reserves it.
    const search = usageManifest(web, ['search']);
    expect(search.neverRequested).toEqual([]);
    expect(search.notHandled).toEqual([]);
  });
});
