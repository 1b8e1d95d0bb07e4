import { PolitelyError } from '@politely/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CanonicalUrlOptions,
  canonicalizeUrl,
  compileGlob,
  resolveCanonicalUrlOptions,
  TRACKING_QUERY_PARAMS,
} from '../../src/frontier/canonical-url.js';

/** The canonical URL, failing the test when there is none. */
function canonical(input: string | URL, options?: CanonicalUrlOptions): string {
  const result = canonicalizeUrl(input, options);
  if (!result.ok) throw new Error(`expected a canonical URL for ${String(input)}: ${result.message}`);
  return result.url;
}

describe('canonicalizeUrl', () => {
  it('lower-cases scheme and host, keeps path case', () => {
    expect(canonical('HTTP://WWW.Example.COM/Path/To')).toBe('http://www.example.com/Path/To');
    expect(canonical('HtTpS://EXAMPLE.com')).toBe('https://example.com/');
  });

  it('drops default ports and keeps others', () => {
    expect(canonical('http://example.com:80/a')).toBe('http://example.com/a');
    expect(canonical('https://example.com:443/a')).toBe('https://example.com/a');
    expect(canonical('http://example.com:443/a')).toBe('http://example.com:443/a');
    expect(canonical('https://example.com:8443/a')).toBe('https://example.com:8443/a');
  });

  it('drops the fragment, also an empty one', () => {
    expect(canonical('http://example.com/a?q=1#section')).toBe('http://example.com/a?q=1');
    expect(canonical('http://example.com/a#')).toBe('http://example.com/a');
    expect(canonical('http://example.com/a#x?y')).toBe('http://example.com/a');
  });

  it('resolves dot segments, also escaped ones, and gives an empty path as /', () => {
    expect(canonical('http://example.com/a/./b/../c')).toBe('http://example.com/a/c');
    expect(canonical('http://example.com/a/%2e%2E/c')).toBe('http://example.com/c');
    expect(canonical('http://example.com')).toBe('http://example.com/');
  });

  it('upper-cases percent-encoding hex, in path and query', () => {
    expect(canonical('http://example.com/a%c3%a9?q=%c3%a9')).toBe('http://example.com/a%C3%A9?q=%C3%A9');
    expect(canonical('http://example.com/a%C3%A9?q=%C3%A9')).toBe('http://example.com/a%C3%A9?q=%C3%A9');
  });

  it('decodes escapes of unreserved characters, in path and query', () => {
    expect(canonical('http://example.com/%7euser/%41%62%2D%2e%5F%30')).toBe('http://example.com/~user/Ab-._0');
    expect(canonical('http://example.com/p?%6Bey=%76alue%7E')).toBe('http://example.com/p?key=value~');
  });

  it('keeps escapes of reserved characters, and malformed escapes, as they are', () => {
    expect(canonical('http://example.com/a%2fb%3f%26%3d')).toBe('http://example.com/a%2Fb%3F%26%3D');
    expect(canonical('http://example.com/p?a=%2f%3F%26%3D%2B')).toBe('http://example.com/p?a=%2F%3F%26%3D%2B');
    expect(canonical('http://example.com/%zz%4?x=%')).toBe('http://example.com/%zz%4?x=%');
  });

  it('gives a URL already canonical as it is, however its escapes sit against ? and #', () => {
    const plain = 'http://example.com/p?url=http%3A%2F%2Fa.example%2Fb&t=a%20b';
    expect(canonical(plain)).toBe(plain);
    expect(canonical(`${plain}#top`)).toBe(plain);
    expect(canonical('http://example.com/a%4?41')).toBe('http://example.com/a%4?41');
    expect(canonical('http://example.com/a%2?f#%41')).toBe('http://example.com/a%2?f');
    expect(canonical('http://example.com/a?b%2f#x')).toBe('http://example.com/a?b%2F');
    expect(canonical('http://example.com/a%7e?b')).toBe('http://example.com/a~?b');
    expect(canonical('http://example.com/a?', { removeEmptyQuery: false })).toBe('http://example.com/a?');
    expect(canonical('http://example.com/a?#x', { removeEmptyQuery: false })).toBe('http://example.com/a?');
    expect(canonical('https://user:pa%3as@example.com:8080/a')).toBe('https://user:pa%3as@example.com:8080/a');
  });

  it('encodes non-ASCII characters as UTF-8 (WHATWG), so raw and escaped forms agree', () => {
    expect(canonical('http://example.com/ツ?q=é')).toBe(canonical('http://example.com/%E3%83%84?q=%c3%a9'));
  });

  it('maps an IDN host to punycode: http://müller.eu/ ≡ http://xn--mller-kva.eu/', () => {
    expect(canonical('http://müller.eu/')).toBe('http://xn--mller-kva.eu/');
    expect(canonical('http://MÜLLER.eu/')).toBe(canonical('http://xn--mller-kva.eu/'));
  });

  it('normalises IP hosts as WHATWG does', () => {
    expect(canonical('http://0x7f.1:8080/')).toBe('http://127.0.0.1:8080/');
    expect(canonical('http://[0:0:0:0:0:0:0:1]:80/')).toBe('http://[::1]/');
  });

  it('removes a bare trailing ? by default, and keeps it when removeEmptyQuery is false', () => {
    expect(canonical('http://example.com/p?')).toBe('http://example.com/p');
    expect(canonical('http://example.com/p?#top')).toBe('http://example.com/p');
    expect(canonical('http://example.com/p?', { removeEmptyQuery: false })).toBe('http://example.com/p?');
  });

  it('keeps query parameters and their order by default', () => {
    expect(canonical('http://example.com/p?utm_source=x&b=2&a=1&&')).toBe(
      'http://example.com/p?utm_source=x&b=2&a=1&&',
    );
  });

  it('drops configured query parameters: exact names, globs and RegExps', () => {
    const options = { dropQueryParams: ['utm_*', 'fbclid', /^ref$/i] };
    expect(canonical('http://example.com/p?utm_source=a&id=7&utm_medium=b&fbclid=z&REF=q', options)).toBe(
      'http://example.com/p?id=7',
    );
    expect(canonical('http://example.com/p?xutm_source=a&utm=b', options)).toBe(
      'http://example.com/p?xutm_source=a&utm=b',
    );
  });

  it('matches dropped names after percent-decoding and + as space', () => {
    expect(canonical('http://example.com/p?utm%5Fsource=a&id=1', { dropQueryParams: ['utm_*'] })).toBe(
      'http://example.com/p?id=1',
    );
    expect(canonical('http://example.com/p?a+b=1&c%20d=2&e=3', { dropQueryParams: ['a b', 'c d'] })).toBe(
      'http://example.com/p?e=3',
    );
    expect(canonical('http://example.com/p?%E9=1&x=2', { dropQueryParams: ['%E9'] })).toBe('http://example.com/p?x=2');
  });

  it('removes the ? of a query emptied by dropping, even when removeEmptyQuery is false', () => {
    const options = { dropQueryParams: TRACKING_QUERY_PARAMS, removeEmptyQuery: false };
    expect(canonical('http://example.com/p?utm_source=a&gclid=b', options)).toBe('http://example.com/p');
    expect(canonical('http://example.com/p?', options)).toBe('http://example.com/p?');
  });

  it('TRACKING_QUERY_PARAMS drops the common tracking tags', () => {
    expect(
      canonical('https://example.com/?utm_campaign=x&fbclid=1&gclid=2&msclkid=3&page=2', {
        dropQueryParams: TRACKING_QUERY_PARAMS,
      }),
    ).toBe('https://example.com/?page=2');
  });

  it('sorts query parameters by name when asked, stably, dropping empty pairs', () => {
    const options = { sortQueryParams: true };
    expect(canonical('http://example.com/p?b=2&a=1&c', options)).toBe('http://example.com/p?a=1&b=2&c');
    expect(canonical('http://example.com/p?b=1&a=2&b=0&a=1', options)).toBe('http://example.com/p?a=2&a=1&b=1&b=0');
    expect(canonical('http://example.com/p?&b=1&&a=2&', options)).toBe('http://example.com/p?a=2&b=1');
    expect(canonical('http://example.com/p?b=2&a=1')).toBe('http://example.com/p?b=2&a=1');
  });

  it('strips leading www. labels only when stripWww is set, leaving at least two labels', () => {
    expect(canonical('http://www.example.com/')).toBe('http://www.example.com/');
    expect(canonical('http://WWW.example.com:8080/a', { stripWww: true })).toBe('http://example.com:8080/a');
    expect(canonical('http://www.www.example.com/', { stripWww: true })).toBe('http://example.com/');
    expect(canonical('http://user:pw@www.example.com/', { stripWww: true })).toBe('http://user:pw@example.com/');
    expect(canonical('http://www.com/', { stripWww: true })).toBe('http://www.com/');
    expect(canonical('http://www2.example.com/', { stripWww: true })).toBe('http://www2.example.com/');
  });

  it('removes trailing slashes only when removeTrailingSlash is set, keeping the root /', () => {
    expect(canonical('http://example.com/a/')).toBe('http://example.com/a/');
    expect(canonical('http://example.com/a//?q=1', { removeTrailingSlash: true })).toBe('http://example.com/a?q=1');
    expect(canonical('http://example.com/', { removeTrailingSlash: true })).toBe('http://example.com/');
    expect(canonical('http://example.com//', { removeTrailingSlash: true })).toBe('http://example.com/');
  });

  it('accepts a URL object and leaves it unchanged', () => {
    const url = new URL('HTTP://Example.com:80/%7ea?#frag');
    const before = url.href;
    expect(canonical(url)).toBe('http://example.com/~a');
    expect(url.href).toBe(before);
  });

  it('reports too-long when the final string is over maxLength (2048 by default)', () => {
    const base = 'http://example.com/';
    expect(canonical(base + 'a'.repeat(2048 - base.length))).toHaveLength(2048);
    const result = canonicalizeUrl(base + 'a'.repeat(2049 - base.length));
    expect(result).toMatchObject({ ok: false, reason: 'too-long' });
    expect(canonical(base + 'a'.repeat(5000), { maxLength: Number.POSITIVE_INFINITY })).toHaveLength(
      base.length + 5000,
    );
  });

  it('measures the length after canonicalisation (fragment and dropped parameters do not count)', () => {
    const options = { maxLength: 30, dropQueryParams: ['utm_*'] };
    expect(canonical('http://example.com/p?utm_source=a-long-campaign-name#and-a-long-fragment', options)).toBe(
      'http://example.com/p',
    );
    expect(canonicalizeUrl('http://example.com/%7e%7e%7e%7e%7e', { maxLength: 24 })).toEqual({
      ok: true,
      url: 'http://example.com/~~~~~',
    });
  });

  it('reports invalid-url, naming the input, for strings that are not absolute URLs', () => {
    for (const input of ['', 'not a url', '/relative/path', 'http://', 'http://exa mple.com/']) {
      const result = canonicalizeUrl(input);
      expect(result).toMatchObject({ ok: false, reason: 'invalid-url' });
      if (!result.ok) expect(result.message).toContain(JSON.stringify(input));
    }
  });

  it('reports unsupported-scheme, naming the input, for anything but http and https', () => {
    for (const input of [
      'ftp://example.com/f',
      'mailto:a@example.com',
      'javascript:void(0)',
      'file:///etc/passwd',
      'data:text/plain,x',
      'ws://example.com/',
    ]) {
      const result = canonicalizeUrl(input);
      expect(result).toMatchObject({ ok: false, reason: 'unsupported-scheme' });
      if (!result.ok) expect(result.message).toContain(input.slice(0, 6));
    }
  });

  it('truncates a very long input in its message', () => {
    const result = canonicalizeUrl('x'.repeat(10_000));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeLessThan(300);
  });

  it('is idempotent on web URLs, with default and with every option (fast-check)', () => {
    const everything = resolveCanonicalUrlOptions({
      dropQueryParams: TRACKING_QUERY_PARAMS,
      sortQueryParams: true,
      stripWww: true,
      removeTrailingSlash: true,
      removeEmptyQuery: false,
      maxLength: Number.POSITIVE_INFINITY,
    });
    // Web URLs, plus escapes, case, tracking parameters and dot segments spliced into them.
    const noise = fc.constantFrom(
      '',
      '%7e',
      '%2f',
      '%2F',
      '%c3%a9',
      '%41',
      '/./',
      '/../',
      '//',
      '?',
      '&',
      '&utm_source=x',
      '#f',
      'WWW.',
      'ツ',
      '%zz',
      '+',
    );
    const url = fc
      .tuple(fc.webUrl({ withQueryParameters: true, withFragments: true }), noise, fc.nat(), fc.boolean())
      .map(([u, extra, at, upper]) => {
        const i = at % (u.length + 1);
        const spliced = u.slice(0, i) + extra + u.slice(i);
        return upper ? spliced.toUpperCase() : spliced;
      });
    fc.assert(
      fc.property(url, (input) => {
        for (const options of [undefined, everything]) {
          const once = canonicalizeUrl(input, options);
          if (!once.ok) continue;
          expect(canonicalizeUrl(once.url, options)).toEqual(once);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same result for a string and its parsed URL (fast-check)', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (input) => {
        expect(canonicalizeUrl(new URL(input))).toEqual(canonicalizeUrl(input));
      }),
      { numRuns: 500 },
    );
  });
});

describe('resolveCanonicalUrlOptions', () => {
  it('fills every default', () => {
    expect(resolveCanonicalUrlOptions()).toMatchObject({
      dropQueryParams: [],
      sortQueryParams: false,
      removeEmptyQuery: true,
      stripWww: false,
      removeTrailingSlash: false,
      maxLength: 2048,
      isDroppedQueryParam: null,
    });
  });

  it('returns the same frozen object for the same options, and for resolved options', () => {
    const options = { dropQueryParams: ['utm_*'] };
    const resolved = resolveCanonicalUrlOptions(options);
    expect(resolveCanonicalUrlOptions(options)).toBe(resolved);
    expect(resolveCanonicalUrlOptions(resolved)).toBe(resolved);
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(Object.isFrozen(resolved.dropQueryParams)).toBe(true);
  });

  it('compiles dropQueryParams into one matcher, ignoring g and y flags', () => {
    const matches = resolveCanonicalUrlOptions({ dropQueryParams: ['utm_*', 'ref', /^x\d$/gy] }).isDroppedQueryParam;
    expect(matches).not.toBeNull();
    expect(['utm_source', 'utm_', 'ref', 'x1', 'x1', 'x2'].map((n) => matches?.(n))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['utm', 'Utm_source', 'refs', 'x12'].map((n) => matches?.(n))).toEqual([false, false, false, false]);
  });

  it('throws ERR_INVALID_OPTION for invalid options', () => {
    const bad: unknown[] = [
      { maxLength: 0 },
      { maxLength: -1 },
      { maxLength: 1.5 },
      { maxLength: Number.NaN },
      { sortQueryParams: 'yes' },
      { stripWww: 1 },
      { dropQueryParams: [42] },
    ];
    for (const options of bad) {
      expect(() => resolveCanonicalUrlOptions(options as CanonicalUrlOptions)).toThrow(PolitelyError);
      try {
        resolveCanonicalUrlOptions(options as CanonicalUrlOptions);
      } catch (error) {
        expect((error as PolitelyError).code).toBe('ERR_INVALID_OPTION');
      }
    }
  });
});

describe('compileGlob', () => {
  it('matches the whole subject, * matching any run of characters (also none)', () => {
    const glob = compileGlob('https://example.com/*/page-*.html');
    expect(glob('https://example.com/a/page-1.html')).toBe(true);
    expect(glob('https://example.com/a/b/page-.html')).toBe(true);
    expect(glob('https://example.com/page-1.html')).toBe(false);
    expect(glob('https://example.com/a/page-1.html?x')).toBe(false);
    expect(compileGlob('a*a')('a')).toBe(false);
    expect(compileGlob('a*a')('aa')).toBe(true);
    expect(compileGlob('*')('')).toBe(true);
    expect(compileGlob('**b**')('abc')).toBe(true);
  });

  it('treats every other character literally, ? and . included', () => {
    expect(compileGlob('/p?q=1')('/p?q=1')).toBe(true);
    expect(compileGlob('/p?q=1')('/pxq=1')).toBe(false);
    expect(compileGlob('a.c')('abc')).toBe(false);
  });

  it('agrees with the equivalent anchored RegExp (fast-check)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '*'), maxLength: 8 });
    fc.assert(
      fc.property(text, fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 12 }), (glob, subject) => {
        const re = new RegExp('^' + glob.split('*').join('.*') + '$');
        expect(compileGlob(glob)(subject)).toBe(re.test(subject));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers a pathological subject without backtracking (as ^.*a.*a…b$ would, for ages)', () => {
    expect(compileGlob('*a*a*a*a*a*a*b')('a'.repeat(2048))).toBe(false);
    expect(compileGlob('*a*a*a*a*a*a*b')('a'.repeat(2048) + 'b')).toBe(true);
  });
});
