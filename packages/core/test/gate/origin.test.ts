import { PolitelyError, robotsOriginOf, robotsTxtUrlOf } from '@politely/core';
import { describe, expect, it } from 'vitest';
import { robotsTxtUrlOfOrigin } from '../../src/gate/origin.js';

describe('robotsOriginOf', () => {
  it('rfc9309 2.3: keeps scheme, host and port, and drops the rest', () => {
    expect(robotsOriginOf('https://user:pw@example.com:8443/a/b?c=d#e')).toBe('https://example.com:8443');
  });

  it('rfc9309 2.3: tells apart scheme, port and subdomain', () => {
    const origins = ['http://a.example/', 'https://a.example/', 'http://a.example:8080/', 'http://www.a.example/'].map(
      (url) => robotsOriginOf(url),
    );
    expect(new Set(origins).size).toBe(4);
  });

  it('folds default ports', () => {
    expect(robotsOriginOf('http://a.example:80/x')).toBe('http://a.example');
    expect(robotsOriginOf('https://a.example:443/x')).toBe('https://a.example');
    expect(robotsOriginOf('http://a.example:443/x')).toBe('http://a.example:443');
  });

  it('lower-cases the host', () => {
    expect(robotsOriginOf('HTTP://WWW.Example.COM/Path')).toBe('http://www.example.com');
  });

  it('puts internationalised names in punycode, so both spellings share one origin', () => {
    expect(robotsOriginOf('http://müller.eu/')).toBe('http://xn--mller-kva.eu');
    expect(robotsOriginOf('http://MÜLLER.eu:80/x')).toBe(robotsOriginOf('http://xn--mller-kva.eu/'));
  });

  it('accepts URL objects and IP literals', () => {
    expect(robotsOriginOf(new URL('http://127.0.0.1:3000/x'))).toBe('http://127.0.0.1:3000');
    expect(robotsOriginOf('http://[::1]:8080/')).toBe('http://[::1]:8080');
  });

  it.each(['not a url', '/relative/path', '', 'ftp://a.example/', 'file:///etc/passwd', 'mailto:a@b.example'])(
    'throws ERR_INVALID_URL for %j',
    (url) => {
      expect(() => robotsOriginOf(url)).toThrow(PolitelyError);
      try {
        robotsOriginOf(url);
      } catch (error) {
        expect((error as PolitelyError).code).toBe('ERR_INVALID_URL');
        expect((error as PolitelyError).message).toContain(JSON.stringify(url).slice(1, -1).slice(0, 6));
      }
    },
  );
});

describe('robotsTxtUrlOf', () => {
  it('gives the origin’s /robots.txt', () => {
    expect(robotsTxtUrlOf('https://A.example:443/deep/page?q')).toBe('https://a.example/robots.txt');
    expect(robotsTxtUrlOf('http://a.example:8080')).toBe('http://a.example:8080/robots.txt');
  });

  it.each([
    'https://user:pw@A.example:443/deep/page?q#f',
    'http://müller.eu/x',
    'http://[0:0:0:0:0:0:0:1]:80/',
    'http://0x7f.1:8080/',
    'HTTP://a.example.:8080',
  ])('gives for an origin, as robotsOriginOf reads it, what it gives for the URL: %s', (url) => {
    expect(robotsTxtUrlOfOrigin(robotsOriginOf(url))).toBe(robotsTxtUrlOf(url));
  });
});
