// The consent site: a recipe site that, like many real ones, answers every page with a cookie
// consent wall until the consent cookie is set. The wall links to (and has a form for)
// /consent/accept, which sets the cookie with a 302 to the recipe index; with the cookie, the real
// pages are served. A crawler without cookies sees nothing but walls; one with a jar gets in.

import type { IncomingHttpHeaders } from 'node:http';
import {
  a,
  escapeHtml,
  type HostSpec,
  htmlResource,
  linkList,
  type Resource,
  redirectResource,
  renderPage,
} from '@politely/demo-web/internal';
import { type ConsentRecipe, consentRecipes } from './recipes.js';

const SITE = 'Loopback Recipes';
/** The cookie the accept URL sets and every real page needs. */
export const CONSENT_COOKIE = 'consent=yes';
/** Where consent is given: a GET (link or form), answered by a 302 that sets the cookie. */
export const CONSENT_ACCEPT_PATH = '/consent/accept';
/** Where the accept URL sends the visitor, cookie in hand. */
const AFTER_CONSENT = '/recipes/';
/** Readable without consent, as a privacy policy must be. */
const PRIVACY_PATH = '/privacy';

const NAV: readonly (readonly [string, string])[] = [
  ['/recipes/', 'All recipes'],
  ['/category/soups', 'Soups'],
  ['/category/breads', 'Breads'],
  ['/about', 'About'],
];

const page = (title: string, main: string): Resource =>
  htmlResource(renderPage({ siteName: SITE, title, nav: NAV, main }));

function recipePage(recipe: ConsentRecipe): Resource {
  const main =
    `<article class="recipe" data-slug="${escapeHtml(recipe.slug)}">` +
    `<p class="category">${a(`/category/${recipe.category}`, recipe.category)}</p>` +
    `<p class="time"><span class="minutes">${recipe.minutes}</span> minutes</p>` +
    `<ul class="ingredients">${recipe.ingredients.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>` +
    `</article>`;
  return page(recipe.name, main);
}

function wall(): Resource {
  const main =
    '<section class="consent-wall"><p>We use cookies to remember your choices. Accept them to see our recipes.</p>' +
    `<form action="${CONSENT_ACCEPT_PATH}" method="get"><button type="submit">Accept all cookies</button></form>` +
    `<p>${a(CONSENT_ACCEPT_PATH, 'Accept and continue')} · ${a(PRIVACY_PATH, 'Privacy policy')}</p></section>`;
  return htmlResource(renderPage({ siteName: SITE, title: 'Before you continue', nav: [], main }));
}

function hasConsent(headers: IncomingHttpHeaders): boolean {
  return (headers.cookie ?? '').split(';').some((pair) => pair.trim() === CONSENT_COOKIE);
}

export function buildConsentSite(): HostSpec {
  const recipes = consentRecipes();
  const resources = new Map<string, Resource>();
  const listing = (list: readonly ConsentRecipe[]): string =>
    linkList(
      list.map((recipe) => [`/recipes/${recipe.slug}`, recipe.name] as const),
      'recipes',
    );
  resources.set('/', page('Welcome', `<p>Simple recipes, tested at home.</p>${linkList(NAV)}`));
  resources.set('/recipes/', page('All recipes', listing(recipes)));
  for (const category of ['soups', 'breads'] as const) {
    resources.set(
      `/category/${category}`,
      page(
        `${category[0]!.toUpperCase()}${category.slice(1)}`,
        listing(recipes.filter((r) => r.category === category)),
      ),
    );
  }
  for (const recipe of recipes) resources.set(`/recipes/${recipe.slug}`, recipePage(recipe));
  resources.set('/about', page('About', '<p>A small site that asks for cookie consent before anything else.</p>'));
  resources.set(PRIVACY_PATH, page('Privacy policy', '<p>We keep one cookie: your consent.</p>'));

  const walled = wall();
  const accept: Resource = (() => {
    const moved = redirectResource(302, AFTER_CONSENT);
    return {
      ...moved,
      headers: { ...moved.headers, 'set-cookie': `${CONSENT_COOKIE}; Path=/; Max-Age=31536000; SameSite=Lax` },
    };
  })();
  return {
    name: 'consent',
    description: `Answers every page with a cookie consent wall until the ${CONSENT_COOKIE} cookie is set by ${CONSENT_ACCEPT_PATH} (a 302 with Set-Cookie); crawl it with cookies on.`,
    robotsStatus: 200,
    robotsTxt: 'User-agent: *\nAllow: /\n',
    resources,
    answer: (path, headers) => {
      const pathname = path.split('?')[0];
      if (pathname === CONSENT_ACCEPT_PATH) return accept;
      if (pathname === PRIVACY_PATH || hasConsent(headers)) return undefined;
      return walled;
    },
  };
}

/** Every path a crawl with cookies from `/` requests (the manifest's expectedAllowedPaths). */
export function consentSitePaths(spec: HostSpec): string[] {
  return [...new Set(['/', CONSENT_ACCEPT_PATH, ...spec.resources.keys()])].sort();
}
