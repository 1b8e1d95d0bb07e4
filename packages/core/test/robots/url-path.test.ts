import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lenientPathQuery, matchPathOf } from '../../src/robots/url-path.js';

describe('matchPathOf', () => {
  it('conformance rule 2: the URL as it goes on the wire, fragment dropped, empty ? kept', () => {
    expect(matchPathOf('http://a.example/x/y#frag')).toBe('/x/y');
    expect(matchPathOf('http://a.example/api?')).toBe('/api?');
    expect(matchPathOf('http://a.example')).toBe('/');
    expect(matchPathOf('http://a.example?q=1')).toBe('/?q=1');
    expect(matchPathOf('')).toBe('/');
  });

  it('conformance rule 2: non-ASCII and unsafe characters are percent-encoded, dot segments resolved', () => {
    expect(matchPathOf('http://a.example/foo/bar/ツ')).toBe('/foo/bar/%E3%83%84');
    expect(matchPathOf('http://a.example/a b')).toBe('/a%20b');
    expect(matchPathOf('http://a.example/a/./b/../c')).toBe('/a/c');
    expect(matchPathOf('http://a.example/a/%2e%2E/c')).toBe('/c');
    expect(matchPathOf("http://a.example/it's?q='x'")).toBe("/it's?q=%27x%27");
  });

  it('conformance rule 3: %xx is upper-cased and unreserved escapes are decoded', () => {
    expect(matchPathOf('http://a.example/%7euser/%2fx')).toBe('/~user/%2Fx');
    expect(matchPathOf('http://a.example/foo/bar/%62%61%7A')).toBe('/foo/bar/baz');
    expect(matchPathOf('http://a.example/%zz')).toBe('/%zz');
  });

  it('accepts URL objects', () => {
    expect(matchPathOf(new URL('https://a.example:8443/p?q#h'))).toBe('/p?q');
  });

  it('google: strings that are not absolute URLs use the reference extraction', () => {
    expect(matchPathOf('example.com/a/b?c=d#e')).toBe('/a/b?c=d');
    expect(matchPathOf('/a')).toBe('/a');
    expect(matchPathOf('a//b/c')).toBe('//b/c');
    expect(matchPathOf(' //')).toBe('//');
    expect(matchPathOf('x//a b/c')).toBe('//a%20b/c');
  });

  it('the fast path agrees with the WHATWG parser on any http(s) URL', () => {
    const char = fc.constantFrom(
      ...'abcXYZ019-._~!$&\'()*+,;=:@/%?#[]|^"<>`{} \\é'.split(''),
      '%41',
      '%2f',
      '/./',
      '/../',
    );
    const url = fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'HTTP://'),
        fc.constantFrom('a.example', 'A.Example:8080', 'b.example:'),
        fc.array(char, { maxLength: 30 }),
      )
      .map(([scheme, host, rest]) => `${scheme}${host}/${rest.join('')}`);
    fc.assert(
      fc.property(url, (u) => {
        let parsed: URL;
        try {
          parsed = new URL(u);
        } catch {
          return true;
        }
        expect(matchPathOf(u)).toBe(matchPathOf(parsed));
        return true;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('lenientPathQuery', () => {
  it('google: GetPathParamsQuery cases of the reference', () => {
    const cases: [string, string][] = [
      ['', '/'],
      ['http://www.example.com', '/'],
      ['http://www.example.com/', '/'],
      ['http://www.example.com/a', '/a'],
      ['http://www.example.com/a/', '/a/'],
      ['http://www.example.com/a/b?c=http://d.e/', '/a/b?c=http://d.e/'],
      ['http://www.example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['example.com', '/'],
      ['example.com/', '/'],
      ['example.com/a', '/a'],
      ['example.com/a/', '/a/'],
      ['example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['a', '/'],
      ['a/', '/'],
      ['/a', '/a'],
      ['a/b', '/b'],
      ['example.com?a', '/?a'],
      ['example.com/a;b#c', '/a;b'],
      ['//a/b/c', '/b/c'],
    ];
    for (const [url, path] of cases) expect(lenientPathQuery(url), url).toBe(path);
  });
});
