// A site behind a cookie consent wall: every page answers "Before you continue" until a consent
// cookie is set. With `cookies: true` the crawler keeps what the site sets (RFC 6265, with
// tough-cookie) and sends it back to that site only: the crawl follows the wall's "Accept" link,
// whose 302 sets the cookie, and from then on gets the real pages. Prints each recipe.
//
//   node packages/local-web/dist/serve.js --consent    # the consent web, in another terminal
//   node examples/consent-crawl.mjs [SEED] [--no-cookies]
//
// SEED defaults to $SEED, then the consent web (http://127.0.0.70:8080/). With --no-cookies the
// crawl sees nothing but consent walls.

import { createCrawler } from '@politely/crawler';

const args = process.argv.slice(2);
const cookies = !args.includes('--no-cookies');
const seed = args.find((arg) => !arg.startsWith('--')) ?? process.env.SEED ?? 'http://127.0.0.70:8080/';
let walls = 0;
const recipes = [];

const crawler = createCrawler({
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  // Who to write to about this crawl: sent as From with every request.
  from: 'crawler-ops@example.invalid',
  seeds: [seed],
  // The demo web lives on loopback, which the SSRF guard refuses unless allowed.
  allowNet: ['127.0.0.0/8'],
  cookies,
  maxPages: 50,
  handler: (page) => {
    if (page.$('.consent-wall').length > 0) {
      walls++;
      console.log(`consent wall at ${page.url}`);
      return;
    }
    const recipe = page.$('article.recipe');
    if (recipe.length === 0) return;
    const name = page.$('h1').first().text().trim();
    const minutes = Number(recipe.find('.minutes').text());
    const ingredients = recipe
      .find('.ingredients li')
      .map((_, li) => page.$(li).text())
      .get();
    recipes.push(name);
    console.log(`recipe: ${name} (${minutes} min): ${ingredients.join(', ')}`);
  },
});

const stats = await crawler.run();
console.log(
  `done: ${recipes.length} recipes, ${walls} consent wall(s), ${stats.pages} pages, cookies ${cookies ? 'on' : 'off'}`,
);
