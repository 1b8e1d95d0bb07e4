// Cookies, opt-in: a cookie set by one response is sent on the next request to that site, a
// redirect's Set-Cookie counts, robots.txt neither sends nor keeps any, and no cookie crosses to
// another site. Judged by the servers' logs.

import { createCrawler } from '@politely/crawler';
import { CookieJar } from 'tough-cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CookieSites, startCookieSites } from '../../../../test/support/cookie-sites.js';

const UA = 'CookieBot/1.0 (+http://example.invalid/bot)';
let sites: CookieSites;

beforeAll(async () => {
  sites = await startCookieSites();
});
afterAll(async () => {
  await sites.close();
});

const crawl = (cookies: boolean | CookieJar) =>
  createCrawler({
    userAgent: UA,
    seeds: [`${sites.home.base}/`],
    scope: 'any',
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    cookies,
    handler: () => {},
  });

describe('cookies', () => {
  it('sends a cookie set by one response on the next requests to that site, and to no other site', async () => {
    sites.home.log.length = 0;
    sites.other.log.length = 0;
    const stats = await crawl(true).run();
    expect(stats.errors).toBe(0);
    const { home, other } = sites;
    expect(home.cookieOf('/')).toBeUndefined();
    expect(home.cookieOf('/next')).toBe('sid=s1');
    expect(home.cookieOf('/hop')).toBe('sid=s1');
    // The 302's Set-Cookie is sent on the hop it leads to.
    expect(home.cookieOf('/after')).toBe('sid=s1; hop=h1');
    // robots.txt: fetched without cookies, and its own cookie never kept.
    expect(home.cookieOf('/robots.txt')).toBeUndefined();
    expect(home.log.some((entry) => entry.cookie?.includes('robots=') === true)).toBe(false);
    // The other site: nothing, not even the cookie that claimed its domain.
    expect(other.log.map((entry) => entry.path).sort()).toEqual(['/', '/robots.txt']);
    expect(other.log.every((entry) => entry.cookie === undefined)).toBe(true);
  });

  it('sends nothing when cookies are off (the default)', async () => {
    sites.home.log.length = 0;
    await crawl(false).run();
    expect(sites.home.log.length).toBeGreaterThan(3);
    expect(sites.home.log.every((entry) => entry.cookie === undefined)).toBe(true);
  });

  it('uses a jar of your own, pre-filled, and leaves the cookies it got in it', async () => {
    sites.home.log.length = 0;
    const jar = new CookieJar();
    await jar.setCookie('lang=en; Path=/', `${sites.home.base}/`);
    await crawl(jar).run();
    expect(sites.home.cookieOf('/')).toBe('lang=en');
    expect(sites.home.cookieOf('/next')).toBe('lang=en; sid=s1');
    expect(await jar.getCookieString(`${sites.home.base}/`)).toBe('lang=en; sid=s1; hop=h1');
  });
});
