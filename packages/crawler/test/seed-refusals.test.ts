// The tally of a run's seeds and the fix each refusal names. PURE: no crawl here (the crawl's own
// behaviour is in e2e/recoverable-mistakes.test.ts).

import { describe, expect, it } from 'vitest';
import { fixFor, SeedRefusals, SeedsRefusedError } from '../src/seed-refusals.js';

describe('fixFor', () => {
  it('names the allowNet block of a refused address, and the CLI flag', () => {
    const cases: [string, string][] = [
      ['http://127.0.0.5:8080/', '127.0.0.0/8'],
      ['http://10.1.2.3/', '10.0.0.0/8'],
      ['http://192.168.1.9/', '192.168.0.0/16'],
      ['http://172.20.0.1/', '172.16.0.0/12'],
      ['http://[::1]:80/', '::1/128'],
      ['http://100.64.0.1/', '100.64.0.1/32'],
    ];
    for (const [url, network] of cases) {
      expect(fixFor(url, 'blocked-address')).toContain(`allowNet: ["${network}"] (CLI: --allow-net ${network})`);
    }
  });

  it('says to write the scheme of a seed without one, and nothing of the kind for a URL that has one', () => {
    expect(fixFor('shop.example/catalogue', 'invalid-url')).toBe(
      'a seed needs its scheme: write https://shop.example/catalogue',
    );
    expect(fixFor('http://exa mple/', 'invalid-url')).toBe('it is not a URL');
    expect(fixFor('http://a/', 'duplicate')).toBeUndefined();
  });
});

describe('SeedRefusals', () => {
  const canonical = {};

  it('is an error only when every seed offered was refused and no page was fetched', () => {
    const seeds = new SeedRefusals(canonical);
    seeds.offer(['http://a.test/', 'http://b.test']);
    seeds.refuse('http://a.test/', { reason: 'robots', detail: 'line 2: Disallow: /' });
    expect(seeds.errorIfAllRefused(0)).toBeUndefined();
    // The same seed in its canonical form (a trailing slash added) counts as the one offered.
    seeds.fail('http://b.test/', new Error('connect ECONNREFUSED'));
    const error = seeds.errorIfAllRefused(0);
    expect(error).toBeInstanceOf(SeedsRefusedError);
    expect(error?.seeds.map((s) => [s.url, s.reason])).toEqual([
      ['http://a.test/', 'robots'],
      ['http://b.test/', 'fetch'],
    ]);
    expect(seeds.errorIfAllRefused(1)).toBeUndefined();
  });

  it('ignores refusals of URLs this run did not offer as seeds, and a run with no seeds', () => {
    const seeds = new SeedRefusals(canonical);
    expect(seeds.errorIfAllRefused(0)).toBeUndefined();
    seeds.refuse('http://other.test/', { reason: 'robots' });
    expect(seeds.errorIfAllRefused(0)).toBeUndefined();
  });
});
