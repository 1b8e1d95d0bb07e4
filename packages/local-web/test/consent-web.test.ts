import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_ACCEPT_PATH, CONSENT_COOKIE, consentRecipes, type LocalWeb, startConsentWeb } from '../src/index.js';

let web: LocalWeb;
beforeAll(async () => {
  web = await startConsentWeb({ firstAddress: 71 });
});
afterAll(async () => {
  await web.close();
});

const get = (path: string, cookie?: string) =>
  fetch(web.url('consent', path), { redirect: 'manual', headers: cookie === undefined ? {} : { cookie } });

describe('startConsentWeb', () => {
  it('answers every page with the consent wall until the consent cookie is sent', async () => {
    for (const path of ['/', '/recipes/', '/recipes/focaccia', '/nowhere']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html, path).toContain('class="consent-wall"');
      expect(html, path).toContain(`<a href="${CONSENT_ACCEPT_PATH}">`);
      expect(html, path).toContain(`<form action="${CONSENT_ACCEPT_PATH}" method="get">`);
    }
    // The privacy policy and robots.txt are readable without consent.
    expect(await (await get('/privacy')).text()).not.toContain('consent-wall');
    expect(await (await get('/robots.txt')).text()).toBe('User-agent: *\nAllow: /\n');
  });

  it('sets the cookie at the accept URL with a 302 to the recipes, which the cookie opens', async () => {
    const accepted = await get(CONSENT_ACCEPT_PATH);
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get('location')).toBe('/recipes/');
    expect(accepted.headers.get('set-cookie')).toMatch(/^consent=yes; Path=\//);
    const index = await (await get('/recipes/', `other=1; ${CONSENT_COOKIE}`)).text();
    expect(index).not.toContain('consent-wall');
    for (const recipe of consentRecipes()) expect(index).toContain(`<a href="/recipes/${recipe.slug}">`);
    const recipe = await (await get('/recipes/focaccia', CONSENT_COOKIE)).text();
    expect(recipe).toContain('<span class="minutes">150</span>');
    // A cookie that merely contains the name is no consent.
    expect(await (await get('/recipes/', 'consent=yesno')).text()).toContain('consent-wall');
  });

  it('logs the Cookie header and lists what a crawl with cookies fetches', () => {
    const log = web.requestLog();
    expect(log.find((entry) => entry.path === '/recipes/focaccia' && entry.cookie === CONSENT_COOKIE)).toBeDefined();
    expect(log.find((entry) => entry.path === '/')?.cookie).toBeUndefined();
    const host = web.host('consent');
    expect(host.address).toBe('127.0.0.71');
    expect(host.expectedAllowedPaths).toEqual(
      [
        '/',
        '/about',
        '/category/breads',
        '/category/soups',
        CONSENT_ACCEPT_PATH,
        '/privacy',
        '/recipes/',
        ...consentRecipes().map((r) => `/recipes/${r.slug}`),
      ].sort(),
    );
  });
});
