import { describe, expect, it } from 'vitest';
import { resolveSitemapPluginOptions } from '../src/options.js';
import { sitemapScopeOf } from '../src/sitemap-scope.js';
import { frontierPriorityOf, matchGlob } from '../src/url-filter.js';

describe('matchGlob', () => {
  it('matches the whole URL, * standing for any run of characters (slashes too), everything else literal', () => {
    expect(matchGlob('https://a.test/blog/*', 'https://a.test/blog/2024/post?x=1')).toBe(true);
    expect(matchGlob('https://a.test/blog/*', 'https://a.test/shop/blog/x')).toBe(false);
    expect(matchGlob('*/blog/*', 'https://a.test/shop/blog/x')).toBe(true);
    expect(matchGlob('*.pdf', 'https://a.test/doc.pdf')).toBe(true);
    expect(matchGlob('*.pdf', 'https://a.test/doc.pdf?x')).toBe(false);
    expect(matchGlob('https://a.test/?.html', 'https://a.test/a.html')).toBe(false);
    expect(matchGlob('https://a.test/?.html', 'https://a.test/?.html')).toBe(true);
    expect(matchGlob('*', '')).toBe(true);
    expect(matchGlob('**a*b*c', 'xxaxxbxxc')).toBe(true);
  });

  it('stays fast on a pattern with many stars against a long URL', () => {
    const started = performance.now();
    expect(matchGlob('*a*a*a*a*a*a*a*b', `http://h/${'a'.repeat(5000)}`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('frontierPriorityOf', () => {
  it('maps sitemap priority p to round(p × scale); an absent priority counts as 0.5', () => {
    expect([0, 0.1, 0.5, 0.84, 1].map((p) => frontierPriorityOf(p, 10))).toEqual([0, 1, 5, 8, 10]);
    expect(frontierPriorityOf(undefined, 10)).toBe(5);
    expect(frontierPriorityOf(0.7, 100)).toBe(70);
    expect(frontierPriorityOf(0.7, 0)).toBe(0);
  });
});

describe('sitemapScopeOf', () => {
  it('sitemaps.org: a sitemap may list URLs under its own directory, on its own scheme, host and port', () => {
    const scope = sitemapScopeOf('http://a.test/catalog/sitemap.xml', []);
    expect(scope.allows(new URL('http://a.test/catalog/shoes'))).toBe(true);
    expect(scope.allows(new URL('http://a.test/catalog/'))).toBe(true);
    expect(scope.allows(new URL('http://a.test/about'))).toBe(false);
    expect(scope.allows(new URL('https://a.test/catalog/shoes'))).toBe(false);
    expect(scope.allows(new URL('http://a.test:8080/catalog/shoes'))).toBe(false);
    expect(scope.allows(new URL('http://www.a.test/catalog/shoes'))).toBe(false);
  });

  it("sitemaps.org: a sitemap declared in an origin's robots.txt may list any URL of that origin", () => {
    const scope = sitemapScopeOf('http://cdn.test/maps/a.xml', ['http://a.test']);
    expect(scope.allows(new URL('http://a.test/anything'))).toBe(true);
    expect(scope.allows(new URL('http://cdn.test/maps/x'))).toBe(true);
    expect(scope.allows(new URL('http://b.test/x'))).toBe(false);
  });
});

describe('resolveSitemapPluginOptions', () => {
  it('fills every default', () => {
    expect(resolveSitemapPluginOptions()).toMatchObject({
      origins: undefined,
      sitemapUrls: [],
      guessSitemapXml: false,
      maxDepth: 3,
      maxUrlsPerFile: 50_000,
      maxBytesPerFile: 50 * 1024 * 1024,
      lastmodSinceMs: undefined,
      include: undefined,
      exclude: [],
      enqueuePages: true,
      priorityScale: 10,
      sitemapPriority: 11,
    });
  });

  it('refuses invalid options with ERR_INVALID_OPTION', () => {
    const bad = [
      { maxDepth: -1 },
      { maxUrlsPerFile: 0 },
      { maxBytesPerFile: 1.5 },
      { priorityScale: -1 },
      { lastmodSince: new Date('nope') },
      { origins: ['not a url'] },
      { sitemapUrls: ['ftp://a.test/sitemap.xml'] },
      { include: [''] },
    ];
    for (const options of bad)
      expect(() => resolveSitemapPluginOptions(options)).toThrow(
        expect.objectContaining({ code: 'ERR_INVALID_OPTION' }),
      );
  });

  it('keeps origins as origins, whatever path was given', () => {
    expect(resolveSitemapPluginOptions({ origins: ['https://A.test/x/y', 'https://a.test'] }).origins).toEqual([
      'https://a.test',
    ]);
  });
});
