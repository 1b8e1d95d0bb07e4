import { describe, expect, it } from 'vitest';
import { createScope, DEFAULT_SCOPE, type ScopeOption } from '../../src/frontier/scope.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

/** Which of `urls` the scope lets through. */
function inScope(scope: ScopeOption, seeds: readonly string[], urls: readonly string[]): string[] {
  const check = createScope(scope, seeds);
  return urls.filter((url) => check(new URL(url)));
}

describe('createScope', () => {
  it("defaults to 'same-domain'", () => {
    expect(DEFAULT_SCOPE).toBe('same-domain');
  });

  it("'same-origin' keeps scheme, host and port of any seed", () => {
    const urls = [
      'https://example.com/a',
      'https://example.com:443/b',
      'http://example.com/a',
      'https://example.com:8443/a',
      'https://www.example.com/a',
      'http://other.test:8080/x',
      'http://other.test/x',
    ];
    expect(inScope('same-origin', ['https://example.com/', 'http://other.test:8080/start'], urls)).toEqual([
      'https://example.com/a',
      'https://example.com:443/b',
      'http://other.test:8080/x',
    ]);
  });

  it("'same-host' keeps the hostname of any seed, whatever the scheme and port", () => {
    const urls = [
      'https://example.com/a',
      'http://example.com:8080/b',
      'https://www.example.com/a',
      'https://sub.example.com/',
    ];
    expect(inScope('same-host', ['https://example.com/'], urls)).toEqual([
      'https://example.com/a',
      'http://example.com:8080/b',
    ]);
  });

  it("'same-domain' keeps the registrable domain: apex, www and other subdomains", () => {
    const urls = [
      'https://example.com/',
      'http://www.example.com:8080/a',
      'https://a.b.example.com/',
      'https://example.com.evil.test/',
      'https://notexample.com/',
      'https://example.org/',
    ];
    expect(inScope('same-domain', ['https://www.example.com/'], urls)).toEqual([
      'https://example.com/',
      'http://www.example.com:8080/a',
      'https://a.b.example.com/',
    ]);
  });

  it("'same-domain' knows multi-label public suffixes: a.example.co.uk ~ b.example.co.uk, not other.co.uk", () => {
    const urls = ['https://b.example.co.uk/', 'https://example.co.uk/', 'https://other.co.uk/', 'https://co.uk/'];
    expect(inScope('same-domain', ['https://a.example.co.uk/'], urls)).toEqual([
      'https://b.example.co.uk/',
      'https://example.co.uk/',
    ]);
  });

  it("'same-domain' treats private suffixes as suffixes: a.github.io and b.github.io are different sites", () => {
    const urls = [
      'https://a.github.io/other-repo',
      'https://docs.a.github.io/',
      'https://b.github.io/',
      'https://github.io/',
    ];
    expect(inScope('same-domain', ['https://a.github.io/repo'], urls)).toEqual([
      'https://a.github.io/other-repo',
      'https://docs.a.github.io/',
    ]);
  });

  it("'same-domain' with a bare public suffix as seed keeps only that host, not its tenants", () => {
    expect(
      inScope(
        'same-domain',
        ['https://github.io/'],
        ['https://github.io/x', 'https://a.github.io/', 'https://x.a.github.io/'],
      ),
    ).toEqual(['https://github.io/x']);
  });

  it("'same-domain' decides by the public-suffix list even with several seed domains that nest", () => {
    const seeds = ['https://github.io/', 'https://foo.github.io/'];
    expect(inScope('same-domain', seeds, ['https://x.foo.github.io/', 'https://bar.github.io/'])).toEqual([
      'https://x.foo.github.io/',
    ]);
  });

  it("'same-domain' compares IP addresses as themselves", () => {
    const urls = [
      'http://127.0.0.1:9000/',
      'https://127.0.0.1/',
      'http://127.0.0.2:8080/',
      'http://0.0.1/',
      'http://[::1]:8080/',
      'http://[::2]/',
    ];
    expect(inScope('same-domain', ['http://127.0.0.1:8080/'], urls)).toEqual([
      'http://127.0.0.1:9000/',
      'https://127.0.0.1/',
    ]);
    expect(inScope('same-domain', ['http://[::1]/'], urls)).toEqual(['http://[::1]:8080/']);
  });

  it("'same-domain' compares localhost as itself", () => {
    const urls = ['http://localhost:3000/', 'http://api.localhost/', 'http://localhost.example/'];
    expect(inScope('same-domain', ['http://localhost:8080/'], urls)).toEqual(['http://localhost:3000/']);
  });

  it("'same-domain' ignores a trailing dot on the host", () => {
    expect(
      inScope('same-domain', ['https://example.com/'], ['https://www.example.com./', 'https://example.com./']),
    ).toEqual(['https://www.example.com./', 'https://example.com./']);
  });

  it("'same-domain' matches IDN seeds and punycode URLs alike", () => {
    expect(
      inScope('same-domain', ['http://müller.eu/'], ['http://www.xn--mller-kva.eu/', 'http://mueller.eu/']),
    ).toEqual(['http://www.xn--mller-kva.eu/']);
  });

  it('gives the same answer for a host asked again (remembered answers)', () => {
    const check = createScope('same-domain', ['https://example.co.uk/']);
    for (let i = 0; i < 3; i++) {
      expect(check(new URL('https://www.example.co.uk/'))).toBe(true);
      expect(check(new URL('https://www.other.co.uk/'))).toBe(false);
    }
  });

  it("'any' keeps every http(s) URL, and seeds are optional", () => {
    const check = createScope('any', []);
    expect(check(new URL('https://anything.test/'))).toBe(true);
    expect(check(new URL('http://127.0.0.1:1/'))).toBe(true);
  });

  it('built-in modes keep only http and https URLs', () => {
    for (const mode of ['same-origin', 'same-host', 'same-domain', 'any'] as const) {
      const check = createScope(mode, ['https://example.com/']);
      expect(check(new URL('ftp://example.com/'))).toBe(false);
      expect(check(new URL('mailto:me@example.com'))).toBe(false);
    }
  });

  it('include globs match the full href, * matching any run of characters', () => {
    const scope = { include: ['https://example.com/blog/*', 'https://*.example.org/*.html'] };
    const urls = [
      'https://example.com/blog/',
      'https://example.com/blog/2024/post?id=1',
      'https://example.com/about',
      'http://example.com/blog/x',
      'https://docs.example.org/a/b.html',
      'https://docs.example.org/a/b.html?x',
    ];
    expect(inScope(scope, [], urls)).toEqual([
      'https://example.com/blog/',
      'https://example.com/blog/2024/post?id=1',
      'https://docs.example.org/a/b.html',
    ]);
  });

  it('include RegExps are tested against the href as written, g and y flags ignored', () => {
    const scope = { include: [/^https:\/\/example\.com\/docs\//gy] };
    const urls = ['https://example.com/docs/a', 'https://example.com/docs/b', 'https://example.com/other'];
    expect(inScope(scope, [], urls)).toEqual(['https://example.com/docs/a', 'https://example.com/docs/b']);
  });

  it('exclude wins over include', () => {
    const scope = { include: ['https://example.com/*'], exclude: ['*/logout*', /[?&]sort=/] };
    const urls = [
      'https://example.com/a',
      'https://example.com/logout',
      'https://example.com/x/logout?next=/',
      'https://example.com/list?page=2&sort=asc',
    ];
    expect(inScope(scope, [], urls)).toEqual(['https://example.com/a']);
  });

  it("without include, exclude narrows the seeds' registrable domains", () => {
    const scope = { exclude: ['*/private/*'] };
    const urls = ['https://www.example.com/a', 'https://example.com/private/x', 'https://other.test/a'];
    expect(inScope(scope, ['https://example.com/'], urls)).toEqual(['https://www.example.com/a']);
  });

  it('a predicate decides alone, and only true counts as in scope', () => {
    const seen: string[] = [];
    const predicate = (url: URL): boolean => {
      seen.push(url.href);
      return url.pathname.startsWith('/keep');
    };
    expect(
      inScope(predicate, ['https://example.com/'], ['https://elsewhere.test/keep', 'https://example.com/drop']),
    ).toEqual(['https://elsewhere.test/keep']);
    expect(seen).toEqual(['https://elsewhere.test/keep', 'https://example.com/drop']);
    const truthy = ((): unknown => 1) as unknown as (url: URL) => boolean;
    expect(createScope(truthy, [])(new URL('https://example.com/'))).toBe(false);
  });

  it('accepts URL objects as seeds', () => {
    expect(createScope('same-host', [new URL('https://example.com/')])(new URL('http://example.com/x'))).toBe(true);
  });

  it('throws ERR_INVALID_OPTION naming an invalid or non-http(s) seed, whatever the mode', () => {
    expectInvalidOption(() => createScope('same-domain', ['https://ok.test/', 'not a url']), '"not a url"');
    expectInvalidOption(() => createScope('any', ['/relative']), '"/relative"');
    expectInvalidOption(() => createScope('same-origin', ['ftp://example.com/']), 'ftp://example.com/');
  });

  it('puts nothing in scope for a seed-based mode without seeds', () => {
    for (const scope of ['same-origin', 'same-host', 'same-domain', { exclude: ['*/private/*'] }] as const) {
      const check = createScope(scope, []);
      expect(check(new URL('https://example.com/'))).toBe(false);
      expect(check(new URL('http://127.0.0.1/'))).toBe(false);
    }
  });

  it('throws ERR_INVALID_OPTION for an unknown mode, an empty include or a bad pattern', () => {
    expectInvalidOption(() => createScope('same-site' as ScopeOption, ['https://example.com/']), 'same-site');
    expectInvalidOption(() => createScope({ include: [] }, ['https://example.com/']), 'include');
    expectInvalidOption(() => createScope(/example/ as unknown as ScopeOption, []), '{ include: [...] }');
    expectInvalidOption(
      () => createScope(['https://example.com/*'] as unknown as ScopeOption, []),
      '{ include: [...] }',
    );
    expectInvalidOption(() => createScope({ include: [42 as unknown as string] }, []), 'include');
    expectInvalidOption(
      () => createScope({ exclude: [null as unknown as string] }, ['https://example.com/']),
      'exclude',
    );
  });
});
