import { parseRobotsTxt } from '@politely/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// Lines that look like robots.txt, so that random files exercise groups and rules.
const robotsLine = fc.oneof(
  fc.constantFrom(
    'User-agent: *',
    'User-agent: FooBot',
    'user-agent BarBot',
    'Disallow: /',
    'Allow: /a',
    'Sitemap: http://x/s.xml',
    '',
    '# c',
    'Crawl-delay: 1',
  ),
  fc
    .tuple(fc.constantFrom('Allow', 'Disallow', 'disalow', 'useragent'), fc.string({ maxLength: 12 }))
    .map(([k, v]) => `${k}: ${v}`),
  fc.string({ maxLength: 30 }),
);
const robotsBody = fc
  .tuple(fc.array(robotsLine, { maxLength: 20 }), fc.constantFrom('\n', '\r\n', '\r'))
  .map(([lines, eol]) => lines.join(eol));
const url = fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string({ maxLength: 40 }));
const userAgent = fc.oneof(fc.constantFrom('FooBot', 'foobot/1.0', 'BarBot', '*', ''), fc.string({ maxLength: 10 }));

describe('parseRobotsTxt (properties)', () => {
  it('never throws on arbitrary bytes, and checks on the result never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), url, userAgent, (bytes, u, ua) => {
        const robots = parseRobotsTxt(bytes);
        expect(typeof robots.isAllowed(u, ua)).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  });

  it('explain always agrees with isAllowed', () => {
    fc.assert(
      fc.property(robotsBody, url, userAgent, (body, u, ua) => {
        const robots = parseRobotsTxt(body);
        const explanation = robots.explain(u, ua);
        expect(explanation.allowed).toBe(robots.isAllowed(u, ua));
        if (explanation.basis === 'rule')
          expect(explanation.rule?.type).toBe(explanation.allowed ? 'allow' : 'disallow');
      }),
      { numRuns: 2000 },
    );
  });

  it('string and UTF-8 byte input parse alike', () => {
    fc.assert(
      fc.property(robotsBody, url, userAgent, (body, u, ua) => {
        const fromString = parseRobotsTxt(body);
        const fromBytes = parseRobotsTxt(new TextEncoder().encode(body));
        expect(fromBytes.isAllowed(u, ua)).toBe(fromString.isAllowed(u, ua));
      }),
      { numRuns: 1000 },
    );
  });

  it('line endings do not change any decision', () => {
    fc.assert(
      fc.property(fc.array(robotsLine, { maxLength: 15 }), url, userAgent, (lines, u, ua) => {
        const lf = parseRobotsTxt(lines.join('\n')).isAllowed(u, ua);
        expect(parseRobotsTxt(lines.join('\r\n')).isAllowed(u, ua)).toBe(lf);
        expect(parseRobotsTxt(lines.join('\r')).isAllowed(u, ua)).toBe(lf);
      }),
      { numRuns: 1000 },
    );
  });
});
