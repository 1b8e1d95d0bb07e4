// The render web serves shells with nothing in them, and the scripts, JSON and pictures that
// make the pages; its manifest agrees with what is served (robots.txt, API data, hosts), and, where
// Chromium is installed, a real browser renders exactly the titles and links the manifest states.

import { createRequire } from 'node:module';
import { lintRobotsTxt, parseRobotsTxt, type RobotsTxt } from '@politely/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawGet, UA } from '../../../test/support/raw-http.js';
import { chromiumMissing, skipWithout } from '../../../test/support/requirements.js';
import {
  RENDER_CATEGORIES,
  RENDER_HOST_NAMES,
  RENDER_PAGE_SIZE,
  RENDER_PRIVATE_URL,
  RENDER_SHELL_TITLE,
  RENDER_SITE_NAME,
  type RenderCrawlTruth,
  type RenderWeb,
  renderManifest,
  renderProducts,
  startRenderWeb,
  violations,
} from '../src/index.js';

let web: RenderWeb;
let truth: RenderCrawlTruth;
const robotsByHost = new Map<string, RobotsTxt>();

beforeAll(async () => {
  web = await startRenderWeb({ firstAddress: 240 });
  truth = renderManifest(web);
  for (const host of web.hosts)
    robotsByHost.set(host.name, parseRobotsTxt((await rawGet(`${host.origin}/robots.txt`)).body.toString('utf8')));
});

afterAll(async () => {
  await web.close();
});

const pathOf = (url: string): string => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

async function getJson(url: string): Promise<unknown> {
  const response = await rawGet(url);
  expect(response.status, url).toBe(200);
  expect(response.headers['content-type'], url).toBe('application/json; charset=utf-8');
  return JSON.parse(response.body.toString('utf8')) as unknown;
}

describe('startRenderWeb', () => {
  it('puts the app and the cdn on consecutive addresses of one port, entered at the app', async () => {
    expect(web.hosts.map((host) => host.name)).toEqual([...RENDER_HOST_NAMES]);
    expect(web.hosts.map((host) => host.address)).toEqual(['127.0.0.240', '127.0.0.241']);
    expect(new Set(web.hosts.map((host) => host.port)).size).toBe(1);
    expect(web.entryUrl).toBe(`${web.host('app').origin}/`);
    expect(truth.entryUrl).toBe(web.entryUrl);
    const other = await startRenderWeb();
    try {
      expect(other.hosts.map((host) => host.address)).toEqual(['127.0.0.100', '127.0.0.101']);
    } finally {
      await other.close();
    }
    await expect(startRenderWeb({ firstAddress: 254 })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
    await expect(startRenderWeb({ userAgent: ' ' })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
  });

  it('serves every page as the same shell: titled Loading…, no link, no product, only the scripts', async () => {
    expect(web.renderPages).toHaveLength(1 + RENDER_CATEGORIES.length * 2 + renderProducts().length);
    const bodies = new Set<string>();
    for (const page of web.renderPages) {
      const response = await rawGet(page.url);
      expect(response.status, page.url).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['etag']).toMatch(/^"[\w-]{22}"$/);
      bodies.add(response.body.toString('utf8'));
    }
    expect(bodies.size).toBe(1);
    const [shell = ''] = bodies;
    expect(shell).toContain(`<title>${RENDER_SHELL_TITLE}</title>`);
    expect(shell).toContain('<div id="app"></div>');
    expect(shell).not.toMatch(/<a[\s>]/i);
    for (const product of renderProducts()) {
      expect(shell).not.toContain(product.id);
      expect(shell).not.toContain(product.name);
    }
    expect([...shell.matchAll(/<script src="([^"]*)"><\/script>/g)].map((m) => m[1])).toEqual([
      '/static/app.js',
      `${web.host('cdn').origin}/lib/widget.js`,
    ]);
    expect((await rawGet(web.url('app', '/products/no-such-thing'))).status).toBe(404);
  });

  it('serves the scripts as JavaScript with validators; app.js asks for what a polite renderer refuses', async () => {
    const scripts = [
      web.url('app', '/static/app.js'),
      web.url('cdn', '/lib/widget.js'),
      web.url('cdn', '/lib/analytics.js'),
    ];
    const sources = new Map<string, string>();
    for (const url of scripts) {
      const response = await rawGet(url);
      expect(response.status, url).toBe(200);
      expect(response.headers['content-type'], url).toBe('text/javascript; charset=utf-8');
      expect(response.headers['etag'], url).toMatch(/^"[\w-]{22}"$/);
      expect(response.headers['last-modified'], url).toBeDefined();
      expect((await rawGet(url, { 'if-none-match': String(response.headers['etag']) })).status, url).toBe(304);
      sources.set(url, response.body.toString('utf8'));
    }
    const app = sources.get(scripts[0] ?? '') ?? '';
    expect(app).toContain(`fetch('/api/tracking?page='`);
    expect(app).toContain(`fetch(${JSON.stringify(RENDER_PRIVATE_URL)}`);
    expect(app).toContain("new WebSocket('ws://' + location.host + '/live')");
    expect(sources.get(scripts[1] ?? '')).toContain("new URL('analytics.js', self.src)");
  });

  it('serves the JSON API and the pictures every rendered page fetches, with their types', async () => {
    for (const page of web.renderPages) {
      for (const sub of page.subrequests.filter(
        (s) => s.type === 'fetch' && s.url.startsWith(web.host('app').origin),
      )) {
        if (pathOf(sub.url).startsWith('/api/tracking')) continue;
        await getJson(sub.url);
      }
      for (const sub of page.subrequests.filter((s) => s.type === 'image')) {
        const response = await rawGet(sub.url);
        expect(response.status, sub.url).toBe(200);
        expect(response.headers['content-type']).toBe('image/png');
        expect(response.headers['etag']).toMatch(/^"[\w-]{22}"$/);
        expect(response.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        expect([response.body.readUInt32BE(16), response.body.readUInt32BE(20)]).toEqual([16, 16]);
      }
    }
    // The tracking beacon answers too, so a browser without rules gets through.
    expect(await getJson(web.url('app', '/api/tracking?page=%2F'))).toEqual({ ok: true });
    // Requests for scripts, JSON and pictures are logged like pages.
    const logged = web.requestLog().filter((entry) => /\.(?:js|png)$|^\/api\//.test(entry.path));
    expect(logged.length).toBeGreaterThan(30);
    for (const entry of logged) expect(entry.userAgent).toBe(UA);
    expect(logged.find((entry) => entry.path === '/api/catalogue')).toMatchObject({
      host: 'app',
      method: 'GET',
      status: 200,
    });
  });

  it('serves each robots.txt as the manifest has it: tracking and /private/ disallowed on the app, analytics.js on the cdn', async () => {
    for (const host of web.hosts) {
      const response = await rawGet(`${host.origin}/robots.txt`);
      expect(response.status, host.name).toBe(200);
      expect(response.body.toString('utf8'), host.name).toBe(host.robotsTxt);
      expect(lintRobotsTxt(host.robotsTxt ?? ''), host.name).toEqual([]);
    }
    const app = web.host('app');
    const cdn = web.host('cdn');
    expect(app.crawlDelaySeconds).toBeUndefined();
    expect(app.disallowedPrefixes).toEqual(['/api/tracking', '/private/']);
    expect(cdn.crawlDelaySeconds).toBe(0.2);
    expect(cdn.disallowedPrefixes).toEqual(['/lib/analytics.js']);
    // What the manifest says is decided by the robots.txt files as served.
    const robots = (url: string) => robotsByHost.get(url.startsWith(cdn.origin) ? 'cdn' : 'app') as RobotsTxt;
    for (const request of truth.requested)
      expect(robots(request.url).isAllowed(request.url, UA), request.url).toBe(true);
    const disallowed = truth.neverRequested.filter((request) => request.reason === 'robots-disallowed');
    for (const request of disallowed) expect(robots(request.url).isAllowed(request.url, UA), request.url).toBe(false);
    expect(
      disallowed.map((request) => pathOf(request.url)).filter((path) => !path.startsWith('/api/tracking?')),
    ).toEqual(['/private/orders', '/lib/analytics.js']);
  });

  it('states rendered titles and links that follow from the API data', async () => {
    const products = renderProducts();
    expect(products).toHaveLength(12);
    const catalogue = (await getJson(web.url('app', '/api/catalogue'))) as {
      products: number;
      categories: { slug: string; name: string }[];
    };
    expect(truth.renderedTitles[web.entryUrl]).toBe(`Catalogue — ${catalogue.products} products`);
    for (const category of catalogue.categories) {
      for (let page = 1; ; page++) {
        const data = (await getJson(web.url('app', `/api/categories/${category.slug}?page=${page}`))) as {
          name: string;
          pages: number;
          products: { id: string }[];
        };
        const url = web.url(
          'app',
          page === 1 ? `/category/${category.slug}` : `/category/${category.slug}?page=${page}`,
        );
        expect(truth.renderedTitles[url]).toBe(
          page === 1 ? `${data.name} — ${RENDER_SITE_NAME}` : `${data.name}, page ${page} — ${RENDER_SITE_NAME}`,
        );
        expect(data.products.length).toBeLessThanOrEqual(RENDER_PAGE_SIZE);
        const links = truth.pages.find((p) => p.url === url)?.links ?? [];
        for (const product of data.products) expect(links).toContain(web.url('app', `/products/${product.id}`));
        if (page === data.pages) break;
      }
    }
    for (const product of products) {
      const data = (await getJson(web.url('app', `/api/products/${product.id}`))) as { name: string; image: string };
      expect(truth.renderedTitles[web.url('app', `/products/${product.id}`)]).toBe(
        `${data.name} — ${RENDER_SITE_NAME}`,
      );
      expect(data.image).toBe(`/images/${product.id}.png`);
    }
    expect(Object.keys(truth.renderedTitles)).toHaveLength(web.renderPages.length);
    expect(new Set(Object.values(truth.renderedTitles)).size).toBe(web.renderPages.length);
  });

  it('has a manifest consistent with the hosts: what to request, what never, robots.txt first', () => {
    const app = web.host('app');
    const cdn = web.host('cdn');
    // Every page is reached only through rendered links, and all of them are loaded.
    expect(truth.pages.map((page) => page.url).sort()).toEqual(web.renderPages.map((page) => page.url).sort());
    for (const page of web.renderPages) expect(truth.renderedOnlyLinks).toContain(page.url);
    expect(truth.renderedOnlyLinks).toContain(web.url('app', '/private/orders'));
    expect(truth.robotsFirst).toEqual([app.origin, cdn.origin]);
    expect(truth.requested.filter((request) => request.type === 'robots').map((request) => request.url)).toEqual([
      `${app.origin}/robots.txt`,
      `${cdn.origin}/robots.txt`,
    ]);
    const byType = (type: string) =>
      truth.requested.filter((request) => request.type === type).map((request) => pathOf(request.url));
    expect(byType('script')).toEqual(['/static/app.js', '/lib/widget.js']);
    expect(byType('image')).toHaveLength(12);
    expect(byType('fetch')).toHaveLength(1 + 6 + 12);
    for (const host of web.hosts) {
      const on = truth.requested.filter((request) => request.host === host.name && request.type !== 'robots');
      expect(on.map((request) => pathOf(request.url)).sort(), host.name).toEqual(host.expectedAllowedPaths);
    }
    expect(cdn.expectedAllowedPaths).toEqual(['/lib/widget.js']);
    expect(cdn.disallowedKnownPaths).toEqual(['/lib/analytics.js']);
    expect(app.disallowedKnownPaths).toEqual(
      [
        ...web.renderPages.map((page) => `/api/tracking?page=${encodeURIComponent(page.path)}`),
        '/private/orders',
      ].sort(),
    );
    const never = new Map(truth.neverRequested.map((request) => [request.url, request]));
    expect(never.get(RENDER_PRIVATE_URL)).toMatchObject({ reason: 'address-not-allowed', type: 'fetch' });
    expect(never.get(`ws://${app.address}:${app.port}/live`)).toMatchObject({ reason: 'websocket', type: 'websocket' });
    expect(never.get(`${cdn.origin}/lib/analytics.js`)).toMatchObject({ reason: 'robots-disallowed', type: 'script' });
    expect(never.get(`${app.origin}/private/orders`)?.from).toHaveLength(web.renderPages.length);
    // Only `*` groups: any user agent gets the same manifest.
    expect(renderManifest(web, 'OtherBot/2.0').requested).toEqual(truth.requested);
  });

  it('serves every request of the manifest, and a log of exactly those requests is polite', async () => {
    web.resetLogs();
    for (const request of truth.requested) expect((await rawGet(request.url)).status, request.url).toBe(200);
    expect(violations(web, UA)).toEqual([]);
    const logged = web.requestLog().map((entry) => `${entry.origin}${entry.path}`);
    expect(logged).toEqual(truth.requested.map((request) => request.url));
  });
});

const CHROMIUM = '/usr/bin/chromium';

function resolvable(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}

const HAS_BROWSER =
  !skipWithout('Chromium', chromiumMissing(CHROMIUM)) &&
  !skipWithout('playwright-core', resolvable('playwright-core') ? null : 'playwright-core does not resolve');

describe.skipIf(!HAS_BROWSER)(
  `the render web in Chromium${HAS_BROWSER ? '' : ' (skipped: needs /usr/bin/chromium and playwright-core)'}`,
  () => {
    it("renders every page to the manifest's title and links, and asks for everything a polite renderer refuses", async () => {
      const { chromium } = await import('playwright-core');
      const own = await startRenderWeb({ firstAddress: 243 });
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        // Tests connect to loopback only: a request elsewhere (the beacon to a private address) is
        // recorded and aborted here, so it is shown to be asked for without ever leaving the machine.
        const offLoopback: string[] = [];
        await page.route('**/*', (route) => {
          const { hostname } = new URL(route.request().url());
          if (/^127\./.test(hostname)) return route.continue();
          offLoopback.push(route.request().url());
          return route.abort('blockedbyclient');
        });
        for (const expected of own.renderPages) {
          await page.goto(expected.url);
          // Rendered, and the widget's analytics loaded (a browser without rules lets it in). Strings, not
          // functions: the tests compile without the DOM's types.
          await page.waitForFunction(
            `document.title !== ${JSON.stringify(RENDER_SHELL_TITLE)} && 'loopbackAnalytics' in window`,
          );
          expect(await page.title(), expected.url).toBe(expected.title);
          const links = (await page.evaluate('[...document.querySelectorAll("a")].map((a) => a.href)')) as string[];
          expect([...new Set(links)], expected.url).toEqual(expected.links);
          if (expected.subrequests.some((sub) => sub.type === 'image')) {
            await page.waitForFunction('document.querySelector("img")?.complete === true');
            expect(await page.evaluate('document.querySelector("img").naturalWidth')).toBe(16);
          }
        }
        expect(errors).toEqual([]);
        expect(new Set(offLoopback)).toEqual(new Set([RENDER_PRIVATE_URL]));
        // The server saw every request rendering makes: those a polite renderer makes, and those it must refuse.
        const ownTruth = renderManifest(own);
        const seen = (): Set<string> => new Set(own.requestLog().map((entry) => `${entry.origin}${entry.path}`));
        const wanted = [
          ...ownTruth.requested.filter((request) => request.type !== 'robots').map((request) => request.url),
          ...ownTruth.neverRequested
            .filter((request) => request.reason === 'robots-disallowed' && request.type !== 'document')
            .map((request) => request.url),
          own.url('app', '/live'),
        ];
        for (let tries = 0; tries < 40 && wanted.some((url) => !seen().has(url)); tries++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(wanted.filter((url) => !seen().has(url))).toEqual([]);
        expect(seen().has(own.url('app', '/robots.txt'))).toBe(false);
      } finally {
        await browser.close();
        await own.close();
      }
    });
  },
);
