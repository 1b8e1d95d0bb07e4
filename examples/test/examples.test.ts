// Every example, run as a user runs it (node examples/<name>.mjs, in a child process) against
// its own demo web, with its output checked and the servers' logs checked for politeness.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  demoProducts,
  type LocalWeb,
  minGapMsByOrigin,
  renderManifest,
  renderProducts,
  startDemoWeb,
  startRenderWeb,
  startUsageWeb,
  usageManifest,
  violations,
} from '@politely/demo-web';
import { consentRecipes, startConsentWeb } from '@politely/local-web';
import { afterAll, describe, expect, it } from 'vitest';

const EXAMPLES = fileURLToPath(new URL('../', import.meta.url));
const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const webs: LocalWeb[] = [];
const dir = mkdtempSync(join(tmpdir(), 'politely-examples-'));

afterAll(async () => {
  await Promise.all(webs.map((web) => web.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function demoWeb(): Promise<LocalWeb> {
  const web = await startDemoWeb();
  webs.push(web);
  return web;
}

/** Runs `node examples/<file> ...args` and resolves with its output; rejects on a non-zero exit. */
function runExample(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(EXAMPLES, file), ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${file} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** No request robots.txt forbids, and no two requests to a host closer than its delay. */
function expectPolite(web: LocalWeb, minDelayMs: number): void {
  expect(violations(web, UA)).toEqual([]);
  const gaps = minGapMsByOrigin(web.requestLog());
  for (const host of web.hosts) {
    const gap = gaps.get(host.origin);
    if (gap !== undefined)
      expect(gap, host.name).toBeGreaterThanOrEqual(Math.max(minDelayMs, (host.crawlDelaySeconds ?? 0) * 1000));
  }
}

describe.concurrent('examples', () => {
  it('basic-crawl.mjs crawls with a handler: statuses, titles, robots.txt skips', async () => {
    const web = await demoWeb();
    const out = await runExample('basic-crawl.mjs', [web.url('shop', '/'), '12']);
    expect(out).toMatch(new RegExp(`^200 ${web.url('shop', '/')}  Welcome · Loopback Supply Co\\.$`, 'm'));
    expect(out).toMatch(/^skipped \(robots\.txt\) http:\/\/\S+\/cart\S*  line \d+: Disallow: \/cart$/m);
    expect(out).toMatch(
      /^done: 12 pages, \d+ requests \(1 robots\.txt\), [1-9]\d* disallowed by robots\.txt, [\d.]+ s$/m,
    );
    expectPolite(web, 250);
  });

  it('sitemap-crawl.mjs crawls what the sitemaps list, from a sitemap on another host', async () => {
    const web = await demoWeb();
    const out = await runExample('sitemap-crawl.mjs', [web.url('docs', '/')]);
    const sitemap = web.url('cdn', '/sitemaps/docs.xml');
    expect(out).toContain(`robots.txt of ${web.host('docs').origin} lists 1 sitemap(s): ${sitemap}`);
    expect(out).toContain(`sitemap ${sitemap}`);
    expect(out).toContain(`200 ${web.url('docs', '/api/createCrawler')}`);
    const done = /^done: (\d+) URLs listed in sitemaps, (\d+) pages fetched/m.exec(out);
    expect(Number(done?.[1])).toBeGreaterThan(10);
    expect(Number(done?.[2])).toBeGreaterThanOrEqual(Number(done?.[1]));
    // Links were not followed: every page fetched was the seed or listed in the sitemap.
    const docs = web.host('docs');
    const xml = await (await fetch(sitemap)).text();
    const listed = new Set([
      '/',
      ...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname),
    ]);
    for (const entry of web.requestLog(docs.origin))
      if (entry.path !== '/robots.txt') expect(listed.has(entry.path), entry.path).toBe(true);
    expectPolite(web, 250);
  });

  it('collect-products.mjs routes home → categories → products by label, every product through its PRODUCT route (the sitemap-only ones too), and pushes each to its dataset', async () => {
    const web = await demoWeb();
    const file = join(dir, 'products.jsonl');
    const out = await runExample('collect-products.mjs', [web.url('shop', '/'), file]);
    // The truth from the demo web's own catalogue: the products the shop links to from its
    // category pages, and those only its sitemap lists.
    const products = demoProducts();
    const linked = products.filter((product) => !product.sitemapOnly);
    expect(linked.length).toBeGreaterThan(0);
    expect(products.length).toBeGreaterThan(linked.length);
    expect(out).toMatch(
      new RegExp(
        `^${products.length} products written to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ pages crawled in [\\d.]+ s\\)$`,
        'm',
      ),
    );
    const shopOrigin = web.host('shop').origin;
    const shopPaths = web
      .requestLog()
      .filter((entry) => entry.origin === shopOrigin)
      .map((entry) => entry.path);
    const categoryPages = new Set(shopPaths.filter((path) => path.startsWith('/category/')));
    // Each route's count: the PRODUCT route handled every product (each fetched once), the
    // default route nothing.
    const routes = /^pages by route: HOME (\d+), CATEGORY (\d+), PRODUCT (\d+), default (\d+)$/m.exec(out);
    expect(routes?.slice(1).map(Number)).toEqual([1, categoryPages.size, products.length, 0]);
    expect(out).not.toContain('no route asked for');
    expect(shopPaths.filter((path) => path.startsWith('/products/')).sort()).toEqual(
      products.map((product) => product.path).sort(),
    );
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).toHaveLength(products.length);
    const bySku = new Map(rows.map((row) => [row['sku'], row]));
    for (const product of products) {
      expect(bySku.get(product.sku), product.sku).toEqual({
        url: web.url('shop', product.path),
        category: product.category,
        name: product.name,
        sku: product.sku,
        price: product.price,
        currency: 'EUR',
        rating: product.rating,
        reviews: product.reviewCount,
        inStock: product.inStock,
      });
    }
    // Only what the routes enqueue is crawled: no sorted listing, no cart, no account page; every
    // category page, each of its pages.
    expect(shopPaths.filter((path) => /sort=|^\/cart|^\/account|^\/about/.test(path))).toEqual([]);
    const categories = new Set(products.map((product) => `/category/${product.category}`));
    for (const category of categories) expect(categoryPages, category).toContain(category);
    expect(categoryPages.size).toBeGreaterThan(categories.size); // their next pages too
    expectPolite(web, 250);
  }, 90_000);

  it('recrawl-prices.mjs revisits the shop run after run: 304s for the unchanged pages, only a changed product written again', async () => {
    const web = await demoWeb();
    const crawlFile = join(dir, 'prices.db');
    const out = join(dir, 'prices.jsonl');
    const first = await runExample('recrawl-prices.mjs', [web.url('shop', '/'), crawlFile, out]);
    expect(first).toMatch(/revisited 0: 0 not modified/);
    const firstRecords = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; change: string });
    expect(firstRecords.length).toBeGreaterThan(5);
    expect(new Set(firstRecords.map((record) => record.change))).toEqual(new Set(['new']));
    expectPolite(web, 250);

    const product = firstRecords[0]!.url;
    web.changePages([product]);
    web.resetLogs();
    const second = await runExample('recrawl-prices.mjs', [web.url('shop', '/'), crawlFile, out]);
    expectPolite(web, 250);
    expect(second).toContain(`changed ${product}`);
    const pages = web.requestLog().filter((entry) => entry.path !== '/robots.txt');
    expect(pages.filter((entry) => entry.status === 304).length).toBeGreaterThan(5);
    expect(pages.filter((entry) => entry.status === 200).map((entry) => entry.origin + entry.path)).toEqual([product]);
    const records = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; change: string });
    expect(records.slice(firstRecords.length)).toEqual([expect.objectContaining({ url: product, change: 'changed' })]);
  }, 90_000); // two polite crawls of the shop (its Crawl-delay and the 250 ms minimum), about 14 s each

  it('render-catalogue.mjs renders the JavaScript shop in Chromium: every product and price, with nothing robots.txt disallows requested on either host', async () => {
    const web = await startRenderWeb({ firstAddress: 200 });
    webs.push(web);
    const file = join(dir, 'catalogue.jsonl');
    const out = await runExample('render-catalogue.mjs', [web.entryUrl, file]);
    const records = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; name: string; price: string; title: string });
    const products = renderProducts();
    expect(records.map((record) => record.name).sort()).toEqual(products.map((product) => product.name).sort());
    for (const product of products) {
      const record = records.find((candidate) => candidate.name === product.name);
      expect(record?.price, product.name).toBe(`${product.price.toFixed(2)} EUR`);
      expect(record?.url).toBe(web.url('app', `/products/${product.id}`));
    }
    expect(out).toMatch(/^done: \d+ pages rendered, \d+ requests made for them, refused: .*\d+ robots/m);
    const refused = renderManifest(web).neverRequested.filter(
      (request) => request.type !== 'websocket' && request.reason !== 'address-not-allowed',
    );
    const requested = new Set(web.requestLog().map((entry) => `${entry.origin}${entry.path}`));
    for (const request of refused) expect(requested.has(request.url), request.url).toBe(false);
    expect(web.requestLog().filter((entry) => entry.userAgent !== UA)).toEqual([]);
    expectPolite(web, 250);
  }, 120_000);

  it('usage-aware-crawl.mjs collects for AI training what the usage web allows: reserved pages are never requested (robots.txt lines, tdmrep.json) or never handled (headers, meta)', async () => {
    const web = await startUsageWeb();
    webs.push(web);
    const out = await runExample('usage-aware-crawl.mjs', [web.url('hub', '/')]);
    const truth = usageManifest(web, ['ai-train']);
    const lines = out.trim().split('\n');
    const got = new Set(lines.filter((line) => line.startsWith('got ')).map((line) => line.split(/\s+/)[1]));
    const reserved = new Set(lines.filter((line) => line.startsWith('reserved ')).map((line) => line.split(/\s+/)[1]));
    const requested = new Set(web.requestLog().map((entry) => `${entry.origin}${entry.path}`));
    expect(truth.neverRequested.length).toBeGreaterThan(0);
    expect(truth.notHandled.length).toBeGreaterThan(0);
    for (const { page } of truth.neverRequested) {
      expect(requested.has(page.url), `${page.url} was requested`).toBe(false);
      expect(reserved.has(page.url), `${page.url} not reported reserved`).toBe(true);
    }
    for (const { page } of truth.notHandled) {
      expect(got.has(page.url), `${page.url} reached the handler`).toBe(false);
      expect(reserved.has(page.url), `${page.url} not reported reserved`).toBe(true);
    }
    for (const page of truth.handled) expect(got.has(page.url), `${page.url} was not collected`).toBe(true);
    expect(out).toMatch(/^done: \d+ pages for AI training, \d+ reserved for it, \d+ requests, [\d.]+ s$/m);
    expectPolite(web, 250);
  });

  it('custom-politeness.mjs keeps its own minimum delay and scope predicate', async () => {
    const web = await demoWeb();
    const out = await runExample('custom-politeness.mjs', [web.url('news', '/'), web.url('docs', '/')]);
    for (const name of ['news', 'docs'])
      expect(out).toMatch(new RegExp(`^${web.host(name).address}: tightest gap \\d+ ms, delay \\d+ ms ✓$`, 'm'));
    expect(out).toMatch(/^done: 30 pages, skipped \{.*"scope":\d+/m);
    expect(web.requestLog().some((entry) => entry.path.startsWith('/archive'))).toBe(false);
    expectPolite(web, 300);
  });

  it('explain-robots.mjs explains decisions from a file and live, the 503 host included', async () => {
    const web = await demoWeb();
    const live = await runExample('explain-robots.mjs', [
      web.url('shop', '/account/help'),
      web.url('shop', '/account/orders'),
      web.url('status', '/'),
      web.url('cdn', '/x'),
    ]);
    expect(live).toContain(
      `ALLOWED ${web.url('shop', '/account/help')}\n  robots.txt 200 (rules), crawl-delay 0.2 s\n  decided by: line 18: Allow: /account/help`,
    );
    expect(live).toContain(
      `DISALLOWED ${web.url('shop', '/account/orders')}\n  robots.txt 200 (rules), crawl-delay 0.2 s\n  decided by: line 17: Disallow: /account/`,
    );
    expect(live).toContain(`DISALLOWED ${web.url('status', '/')}\n  robots.txt 503 (unreachable)`);
    expect(live).toContain(`ALLOWED ${web.url('cdn', '/x')}\n  robots.txt 404 (unavailable)`);
    expect(web.requestLog().every((entry) => entry.path === '/robots.txt')).toBe(true);
    const file = await runExample('explain-robots.mjs', [
      '--file',
      join(EXAMPLES, 'robots', 'demo-robots.txt'),
      'https://shop.example/private/invoices.html',
    ]);
    expect(file).toBe(
      'DISALLOWED https://shop.example/private/invoices.html\n  group: line 14: user-agent: PolitelyDemo (specific)\n  decided by: line 15: Disallow: /private/\n',
    );
  });

  it('consent-crawl.mjs gets past a cookie consent wall with cookies on, and only with them', async () => {
    const web = await startConsentWeb();
    webs.push(web);
    const origin = web.host('consent').origin;
    const out = await runExample('consent-crawl.mjs', [`${origin}/`]);
    const recipes = consentRecipes();
    for (const recipe of recipes)
      expect(out).toContain(`recipe: ${recipe.name} (${recipe.minutes} min): ${recipe.ingredients.join(', ')}`);
    expect(out).toMatch(
      new RegExp(`^done: ${recipes.length} recipes, 1 consent wall\\(s\\), \\d+ pages, cookies on$`, 'm'),
    );
    const log = web.requestLog();
    // Everything the site has was fetched; the cookie went back on every request after the accept
    // (not on robots.txt, fetched without cookies), and From went with every request.
    expect([...new Set(log.map((entry) => entry.path))].filter((path) => path !== '/robots.txt').sort()).toEqual([
      ...web.host('consent').expectedAllowedPaths,
    ]);
    const accepted = log.findIndex((entry) => entry.path === '/consent/accept');
    expect(accepted).toBeGreaterThan(0);
    for (const entry of log.slice(accepted + 1))
      if (entry.path !== '/robots.txt') expect(entry.cookie, entry.path).toBe('consent=yes');
    expect(log.filter((entry) => entry.path === '/robots.txt').every((entry) => entry.cookie === undefined)).toBe(true);
    expectPolite(web, 250);

    web.resetLogs();
    const without = await runExample('consent-crawl.mjs', [`${origin}/`, '--no-cookies']);
    expect(without).toMatch(/^done: 0 recipes, [2-9] consent wall\(s\), \d+ pages, cookies off$/m);
    expect(web.requestLog().every((entry) => entry.cookie === undefined)).toBe(true);
  });
});
