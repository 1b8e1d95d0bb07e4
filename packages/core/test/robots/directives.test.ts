import { describe, expect, it } from 'vitest';
import { readLine } from '../../src/robots/directives.js';

const directive = (line: string) => readLine(line).directive;

describe('readLine', () => {
  it('rfc9309 2.2: field names are case-insensitive and whitespace around the colon is ignored', () => {
    expect(directive('  DisAllow  :   /x  ')).toMatchObject({ name: 'disallow', value: '/x', typo: false });
    expect(directive('USER-AGENT:FooBot')).toMatchObject({ name: 'user-agent', value: 'FooBot' });
  });

  it('google: accepts the frequent typos of the reference parser', () => {
    for (const key of ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']) {
      expect(directive(`${key}: /a`)).toMatchObject({ name: 'disallow', typo: true });
    }
    expect(directive('useragent: a')).toMatchObject({ name: 'user-agent', typo: true });
    expect(directive('user agent: a')).toMatchObject({ name: 'user-agent', typo: true });
    expect(directive('site-map: http://a/s.xml')).toMatchObject({ name: 'sitemap', typo: true });
  });

  it('google: keys match by prefix, as the reference does', () => {
    expect(directive('allowed: /a')).toMatchObject({ name: 'allow', key: 'allowed' });
    expect(directive('Crawl-delay: 2')).toMatchObject({ name: 'crawl-delay', value: '2' });
  });

  it('google: whitespace stands in for a missing colon only between exactly two tokens', () => {
    expect(directive('disallow /x')).toMatchObject({ name: 'disallow', value: '/x', missingColon: true });
    expect(directive('user-agent \t FooBot')).toMatchObject({ name: 'user-agent', value: 'FooBot' });
    expect(directive('absolutely random line')).toBeNull();
    expect(directive('disallow')).toBeNull();
  });

  it('rfc9309 2.2: comments start anywhere and are dropped', () => {
    expect(readLine('Disallow: /foo/quz#qux')).toMatchObject({ hasComment: true, directive: { value: '/foo/quz' } });
    expect(readLine('# only a comment')).toMatchObject({ isBlank: true, directive: null, hasComment: true });
    expect(readLine('Error #and comment').directive).toBeNull();
  });

  it('google: the first colon separates, so a value may hold colons', () => {
    expect(directive('sitemap: https://a.example/s.xml')).toMatchObject({ value: 'https://a.example/s.xml' });
  });

  it('a NUL byte ends the line, as in the reference', () => {
    expect(readLine('disallow: /a\0/b')).toMatchObject({ hasNul: true, directive: { value: '/a' } });
  });

  it('an empty key is no directive', () => {
    expect(directive(': /x')).toBeNull();
  });
});
