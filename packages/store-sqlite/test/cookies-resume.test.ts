// The crawler's cookie jar in a SQLite crawl file: a resumed crawl keeps its session.

import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectCookiesSurviveResume, expectJarSavedDuringCrawl } from '../../../test/support/cookie-resume.js';
import { type CookieSites, startCookieSites } from '../../../test/support/cookie-sites.js';
import { createSqliteFrontierStore } from '../src/index.js';
import { createTempDir } from './helpers.js';

const temp = createTempDir('cookies');
let sites: CookieSites;

beforeAll(async () => {
  sites = await startCookieSites();
});
afterAll(async () => {
  await sites.close();
  temp.remove();
});

describe('cookies with createSqliteFrontierStore', () => {
  it('keeps the jar in the crawl file: a resumed crawl sends the cookies of the earlier run', async () => {
    const path = temp.file();
    await expectCookiesSurviveResume(sites, () => createSqliteFrontierStore({ path }));
  });

  it('saves the jar while the crawl runs, not only at its end', async () => {
    const store = createSqliteFrontierStore({ path: temp.file() });
    try {
      await expectJarSavedDuringCrawl(sites, store);
    } finally {
      await store.close();
    }
  });
});
