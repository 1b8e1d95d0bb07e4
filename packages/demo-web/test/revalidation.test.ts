import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hrefs, type RawResponse, rawGet } from '../../../test/support/raw-http.js';
import { type LocalWeb, LocalWebError, type LoggedRequest, startDemoWeb } from '../src/index.js';

const header = (response: RawResponse, name: string): string => {
  const value = response.headers[name];
  if (typeof value !== 'string') throw new Error(`no ${name} header`);
  return value;
};

/** The log entry of the last request to `url`. */
function lastLogged(web: LocalWeb, url: string): LoggedRequest {
  const { origin, pathname, search } = new URL(url);
  const entry = web
    .requestLog(origin)
    .filter((r) => r.path === pathname + search)
    .at(-1);
  if (entry === undefined) throw new Error(`no request to ${url} logged`);
  return entry;
}

const STRONG_TAG = /^"[A-Za-z0-9_-]{22}"$/;
const httpDate = (ms: number): string => new Date(ms).toUTCString();

let web: LocalWeb;
let startedMs: number;

beforeAll(async () => {
  startedMs = Date.now();
  web = await startDemoWeb();
});

afterAll(async () => {
  await web.close();
});

describe('validators', () => {
  it('gives every 200 a strong ETag of its body and the web start as Last-Modified, the same on every request, and no Cache-Control', async () => {
    const urls = [
      web.url('hub', '/'),
      web.url('shop', '/robots.txt'),
      web.url('shop', '/sitemap_index.xml'),
      web.url('shop', '/sitemaps/pages.xml.gz'),
      web.url('news', '/feed.xml'),
      web.url('news', '/sitemap.txt'),
    ];
    const tags = new Set<string>();
    for (const url of urls) {
      const first = await rawGet(url);
      const again = await rawGet(url);
      expect(first.status).toBe(200);
      const etag = header(first, 'etag');
      expect(etag).toMatch(STRONG_TAG);
      expect(header(again, 'etag')).toBe(etag);
      tags.add(etag);
      const lastModified = header(first, 'last-modified');
      expect(header(again, 'last-modified')).toBe(lastModified);
      expect(Date.parse(lastModified)).toBe(Math.floor(Date.parse(lastModified) / 1000) * 1000);
      expect(Date.parse(lastModified)).toBeGreaterThan(startedMs - 1000);
      expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.now());
      expect(first.headers['cache-control']).toBeUndefined();
    }
    expect(tags.size).toBe(urls.length);
  });

  it('tags the gzip-encoded representation apart from the plain one', async () => {
    const url = web.url('hub', '/');
    const plain = await rawGet(url);
    const gzipped = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(header(gzipped, 'etag')).toBe(header(plain, 'etag').replace(/"$/, '-gzip"'));
    const notModified = await rawGet(url, { 'accept-encoding': 'gzip', 'if-none-match': header(gzipped, 'etag') });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['vary']).toBe('Accept-Encoding');
    // The plain representation's tag does not name the gzip one.
    expect((await rawGet(url, { 'accept-encoding': 'gzip', 'if-none-match': header(plain, 'etag') })).status).toBe(200);
  });

  it('gives 404s, redirects and 503s no validators', async () => {
    for (const url of [
      web.url('news', '/no-such-page'),
      web.url('legacy', '/shop'),
      web.url('status', '/robots.txt'),
    ]) {
      const response = await rawGet(url);
      expect(response.status).not.toBe(200);
      expect(response.headers['etag']).toBeUndefined();
      expect(response.headers['last-modified']).toBeUndefined();
    }
  });
});

describe('conditional requests', () => {
  it('answers a matching If-None-Match with a bodiless 304 and logs the header and bodyBytes 0', async () => {
    const url = web.url('shop', '/');
    const full = await rawGet(url);
    expect(lastLogged(web, url)).toMatchObject({ status: 200, bodyBytes: full.body.length });
    expect(lastLogged(web, url).ifNoneMatch).toBeUndefined();
    const etag = header(full, 'etag');
    const response = await rawGet(url, { 'if-none-match': etag });
    expect(response.status).toBe(304);
    expect(response.body.length).toBe(0);
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['content-type']).toBeUndefined();
    expect(header(response, 'etag')).toBe(etag);
    expect(header(response, 'last-modified')).toBe(header(full, 'last-modified'));
    expect(lastLogged(web, url)).toMatchObject({ status: 304, bodyBytes: 0, ifNoneMatch: etag });
  });

  it('matches lists of tags, weak tags (weak comparison) and *, and not other tags', async () => {
    const url = web.url('news', '/');
    const etag = header(await rawGet(url), 'etag');
    expect((await rawGet(url, { 'if-none-match': `"nope", W/${etag}` })).status).toBe(304);
    expect((await rawGet(url, { 'if-none-match': `"a",${etag} , "b"` })).status).toBe(304);
    expect((await rawGet(url, { 'if-none-match': '*' })).status).toBe(304);
    expect((await rawGet(url, { 'if-none-match': '"nope", W/"nope"' })).status).toBe(200);
    expect((await rawGet(url, { 'if-none-match': etag.slice(1, -1) })).status).toBe(200);
  });

  it('answers If-Modified-Since at or after Last-Modified with 304, before it (or unparsable) with 200', async () => {
    const url = web.url('docs', '/');
    const lastModifiedMs = Date.parse(header(await rawGet(url), 'last-modified'));
    expect((await rawGet(url, { 'if-modified-since': httpDate(lastModifiedMs) })).status).toBe(304);
    expect(lastLogged(web, url)).toMatchObject({
      status: 304,
      bodyBytes: 0,
      ifModifiedSince: httpDate(lastModifiedMs),
    });
    expect((await rawGet(url, { 'if-modified-since': httpDate(lastModifiedMs + 60_000) })).status).toBe(304);
    expect((await rawGet(url, { 'if-modified-since': httpDate(lastModifiedMs - 1000) })).status).toBe(200);
    expect((await rawGet(url, { 'if-modified-since': 'yesterday-ish' })).status).toBe(200);
  });

  it('lets If-None-Match decide when both are sent', async () => {
    const url = web.url('events', '/');
    const full = await rawGet(url);
    const etag = header(full, 'etag');
    const lastModifiedMs = Date.parse(header(full, 'last-modified'));
    const later = httpDate(lastModifiedMs + 60_000);
    const earlier = httpDate(lastModifiedMs - 60_000);
    expect((await rawGet(url, { 'if-none-match': '"other"', 'if-modified-since': later })).status).toBe(200);
    expect((await rawGet(url, { 'if-none-match': etag, 'if-modified-since': earlier })).status).toBe(304);
  });

  it('answers HEAD conditionally too, and logs HEAD with bodyBytes 0', async () => {
    const url = web.url('hub', '/about');
    const head = await rawGet(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(lastLogged(web, url)).toMatchObject({ method: 'HEAD', status: 200, bodyBytes: 0 });
    expect((await rawGet(url, { 'if-none-match': header(head, 'etag') }, 'HEAD')).status).toBe(304);
  });

  it('revalidates robots.txt like any resource', async () => {
    const url = web.url('shop', '/robots.txt');
    const full = await rawGet(url);
    const response = await rawGet(url, { 'if-none-match': header(full, 'etag') });
    expect(response.status).toBe(304);
    expect(response.body.length).toBe(0);
    expect((await rawGet(url, { 'if-modified-since': header(full, 'last-modified') })).status).toBe(304);
  });

  it('never answers 304 for a 404, a redirect or a 503', async () => {
    const conditions = { 'if-none-match': '*', 'if-modified-since': httpDate(Date.now() + 3_600_000) };
    const missing = await rawGet(web.url('news', '/no-such-page'), conditions);
    expect(missing.status).toBe(404);
    expect(missing.body.length).toBeGreaterThan(0);
    expect((await rawGet(web.url('legacy', '/shop'), conditions)).status).toBe(301);
    expect((await rawGet(web.url('status', '/robots.txt'), conditions)).status).toBe(503);
  });

  it('answers a whole recrawl of a host with 304s: under 5% of the first crawl’s bytes', async () => {
    const shop = web.host('shop');
    const urls = ['/robots.txt', ...shop.expectedAllowedPaths].map((path) => `${shop.origin}${path}`);
    const tags = new Map<string, string>();
    for (const url of urls) {
      const response = await rawGet(url, { 'accept-encoding': 'gzip' });
      if (response.status === 200) tags.set(url, header(response, 'etag'));
    }
    expect(tags.size).toBeGreaterThan(20);
    web.resetLogs();
    for (const [url, etag] of tags) await rawGet(url, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    const log = web.requestLog(shop.origin);
    expect(log).toHaveLength(tags.size);
    for (const entry of log) expect(entry).toMatchObject({ status: 304, bodyBytes: 0 });
  });
});

describe('changing pages between crawls', () => {
  it('serves a changed page with a revision marker, a new ETag, a later Last-Modified, and the same links', async () => {
    const url = web.url('news', '/about');
    const before = await rawGet(url);
    const oldTag = header(before, 'etag');
    const oldModified = header(before, 'last-modified');
    expect(web.revisionOf(url)).toBe(0);

    web.changePages([url]);
    expect(web.revisionOf(url)).toBe(1);
    const after = await rawGet(url, { 'if-none-match': oldTag });
    expect(after.status).toBe(200);
    const text = after.body.toString('utf8');
    expect(text).toContain('<p class="revision">revision 1</p>');
    expect(text.replace('<p class="revision">revision 1</p>\n', '')).toBe(before.body.toString('utf8'));
    expect(hrefs(text, url)).toEqual(hrefs(before.body.toString('utf8'), url));
    const newTag = header(after, 'etag');
    expect(newTag).toMatch(STRONG_TAG);
    expect(newTag).not.toBe(oldTag);
    expect(Date.parse(header(after, 'last-modified'))).toBeGreaterThan(Date.parse(oldModified));
    expect(lastLogged(web, url)).toMatchObject({ status: 200, bodyBytes: after.body.length, ifNoneMatch: oldTag });
    expect((await rawGet(url, { 'if-modified-since': oldModified })).status).toBe(200);
    expect((await rawGet(url, { 'if-none-match': newTag })).status).toBe(304);
    expect((await rawGet(url, { 'if-modified-since': header(after, 'last-modified') })).status).toBe(304);

    // A second change within the same second still moves Last-Modified on.
    web.changePages([url]);
    const again = await rawGet(url);
    expect(web.revisionOf(url)).toBe(2);
    expect(again.body.toString('utf8')).toContain('<p class="revision">revision 2</p>');
    expect(again.body.toString('utf8')).not.toContain('revision 1');
    expect(Date.parse(header(again, 'last-modified'))).toBeGreaterThan(Date.parse(header(after, 'last-modified')));
    expect((await rawGet(url, { 'if-none-match': newTag })).status).toBe(200);
  });

  it('leaves other pages alone, and takes paths on the entry host', async () => {
    const untouched = web.url('hub', '/');
    const etag = header(await rawGet(untouched), 'etag');
    web.changePages(['/about']);
    expect(web.revisionOf(web.url('hub', '/about'))).toBe(1);
    expect(web.revisionOf('/about')).toBe(1);
    expect(web.revisionOf(web.url('shop', '/about'))).toBe(0);
    expect((await rawGet(untouched, { 'if-none-match': etag })).status).toBe(304);
    expect((await rawGet(web.url('hub', '/about'))).body.toString('utf8')).toContain('revision 1');
  });

  it('changes feeds, sitemaps and robots.txt with a comment', async () => {
    const feed = web.url('news', '/atom.xml');
    const robots = web.url('docs', '/robots.txt');
    const robotsBefore = await rawGet(robots);
    web.changePages([feed, robots]);
    expect((await rawGet(feed)).body.toString('utf8')).toMatch(/<\/feed>\s*<!-- revision 1 -->\n$/);
    const robotsAfter = await rawGet(robots, { 'if-none-match': header(robotsBefore, 'etag') });
    expect(robotsAfter.status).toBe(200);
    expect(robotsAfter.body.toString('utf8')).toBe(`${web.host('docs').robotsTxt ?? ''}# revision 1\n`);
  });

  it('refuses unknown pages and pages that cannot change, and then changes none', () => {
    const ok = web.url('docs', '/');
    const refused = (urls: string[]): unknown => {
      try {
        web.changePages(urls);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    for (const url of [
      web.url('news', '/no-such-page'),
      'http://127.0.0.1:1/',
      web.url('legacy', '/shop'),
      'not a url ::',
    ]) {
      const error = refused([ok, url]);
      expect(error).toBeInstanceOf(LocalWebError);
      expect(error).toMatchObject({ code: 'ERR_UNKNOWN_PAGE' });
    }
    expect(refused([ok, web.url('shop', '/sitemaps/pages.xml.gz')])).toMatchObject({ code: 'ERR_UNCHANGEABLE_PAGE' });
    expect(refused([ok, web.url('news', '/sitemap.txt')])).toMatchObject({ code: 'ERR_UNCHANGEABLE_PAGE' });
    expect(web.revisionOf(ok)).toBe(0);
    expect(() => web.revisionOf('http://127.0.0.1:1/')).toThrow(/on no host of this web/);
  });
});
