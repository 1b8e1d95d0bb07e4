import { PolitelyError, parseRobotsTxt } from '@politely/core';
import { describe, expect, it } from 'vitest';

const UA = 'FooBot/1.2 (+https://foo.example/bot)';

describe('parseRobotsTxt', () => {
  it('rfc9309 2.2.1: one group per run of user-agent lines', () => {
    const robots = parseRobotsTxt('User-agent: a\nUser-agent: b\nDisallow: /x\nUser-agent: c\nAllow: /\n');
    expect(robots.groups.map((g) => g.userAgents.map((a) => a.value))).toEqual([['a', 'b'], ['c']]);
    expect(robots.groups[0]?.rules.map((r) => [r.type, r.value, r.line])).toEqual([['disallow', '/x', 3]]);
  });

  it('rfc9309 2.2.1: groups for the same agent are merged', () => {
    const robots = parseRobotsTxt(
      'User-agent: FooBot\nDisallow: /a\nUser-agent: other\nDisallow: /\nUser-agent: foobot\nDisallow: /b\n',
    );
    expect(robots.isAllowed('http://x/a', UA)).toBe(false);
    expect(robots.isAllowed('http://x/b', UA)).toBe(false);
    expect(robots.isAllowed('http://x/c', UA)).toBe(true);
  });

  it('google: sitemap and unknown lines neither close a group nor belong to one', () => {
    const robots = parseRobotsTxt(
      'User-agent: FooBot\nSitemap: https://x/s1.xml\nUser-agent: *\nDisallow: /\n# end\nSitemap: https://x/s2.xml',
    );
    expect(robots.groups).toHaveLength(1);
    expect(robots.sitemaps).toEqual(['https://x/s1.xml', 'https://x/s2.xml']);
    expect(robots.isAllowed('http://x/a', UA)).toBe(false);
  });

  it('rfc9309 2.2.2: rules before any user-agent line are ignored', () => {
    const robots = parseRobotsTxt('Disallow: /\nUser-agent: FooBot\nDisallow: /private\n');
    expect(robots.isAllowed('http://x/public', UA)).toBe(true);
    expect(robots.isAllowed('http://x/private/1', UA)).toBe(false);
  });

  it('rfc9309 2.2.2: an empty rule path is ignored, and a named group without rules allows all', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nDisallow:\n');
    expect(robots.isAllowed('http://x/anything', UA)).toBe(true);
    expect(robots.isAllowed('http://x/anything', 'OtherBot')).toBe(false);
    const empty = parseRobotsTxt('User-agent: *\nDisallow: /\nUser-agent: FooBot\n');
    expect(empty.isAllowed('http://x/y', UA)).toBe(true); // the empty last group still names FooBot
  });

  it('rfc9309 2.2.1: the caller is reduced to its product token, matched case-insensitively', () => {
    const robots = parseRobotsTxt('User-agent: foobot\nDisallow: /\n');
    expect(robots.isAllowed('http://x/y', 'FOOBOT/9 (compatible)')).toBe(false);
    expect(robots.isAllowed('http://x/y', 'FooBotExtra')).toBe(true);
  });

  it('rfc9309 2.2.4: longest match wins; a tie goes to allow', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /page\nAllow: /page\nDisallow: /*.gif$\nAllow: /a/\n');
    expect(robots.isAllowed('http://x/page', UA)).toBe(true);
    expect(robots.isAllowed('http://x/a/b.gif', UA)).toBe(false);
  });

  it('rfc9309 2.2.2: an empty query is part of the URL', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /api?$\n');
    expect(robots.isAllowed('http://x/api?', UA)).toBe(false);
    expect(robots.isAllowed('http://x/api', UA)).toBe(true);
  });

  it('/robots.txt itself is always allowed', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /\n');
    expect(robots.isAllowed('https://x/robots.txt', UA)).toBe(true);
    expect(robots.explain('https://x/robots.txt', UA).basis).toBe('robots-txt');
    expect(robots.isAllowed('https://x/robots.txt.bak', UA)).toBe(false);
  });

  it('rfc9309 2.2.2: /robots.txt is allowed however its path is percent-encoded, not with a query', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /\nDisallow: /robots.txt\n');
    for (const url of [
      'https://x/robots%2Etxt',
      'https://x/robots%2etxt',
      'https://x/%72obots.txt',
      'https://x/%72%6F%62%6F%74%73.txt',
    ]) {
      expect(robots.isAllowed(url, UA), url).toBe(true);
    }
    expect(robots.isAllowed('https://x/robots.txt?x=1', UA)).toBe(false);
    expect(robots.isAllowed('https://x/ROBOTS.TXT', UA)).toBe(false);
  });

  it('keeps crawl-delay per group as an extension', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nCrawl-delay: 5\nDisallow: /x\n\nUser-agent: FooBot\nCrawl-delay: 0.5\n',
    );
    expect(robots.crawlDelay(UA)).toBe(0.5);
    expect(robots.crawlDelay('Other')).toBe(5);
    expect(parseRobotsTxt('User-agent: *\nCrawl-delay: soon\n').crawlDelay(UA)).toBeUndefined();
  });

  it('rfc9309 2.5: only the first 500 KiB are parsed', () => {
    const filler = `# ${'x'.repeat(98)}\n`.repeat(5200); // 520,000 bytes
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`);
    expect(robots.truncated).toBe(true);
    expect(robots.parsedBytes).toBe(512_000);
    expect(robots.isAllowed('http://x/early', UA)).toBe(false);
    expect(robots.isAllowed('http://x/late', UA)).toBe(true);
    const bigger = parseRobotsTxt(`User-agent: *\n${filler}Disallow: /late\n`, { maxBytes: 1_000_000 });
    expect(bigger.isAllowed('http://x/late', UA)).toBe(false);
  });

  it('refuses a size limit below 500 KiB with a typed error', () => {
    expect(() => parseRobotsTxt('', { maxBytes: 1000 })).toThrowError(PolitelyError);
    try {
      parseRobotsTxt('', { maxBytes: 1000 });
    } catch (error) {
      expect((error as PolitelyError).code).toBe('ERR_INVALID_OPTION');
      expect((error as PolitelyError).message).toMatch(/maxBytes/);
    }
  });

  it('reads bytes: a Latin-1 file keeps its bytes, so /caf\\xE9 matches /caf%E9', () => {
    const bytes = Uint8Array.from([...'User-agent: *\nDisallow: /caf'].map((c) => c.charCodeAt(0)).concat([0xe9]));
    const robots = parseRobotsTxt(bytes);
    expect(robots.isAllowed('http://x/caf%E9', UA)).toBe(false);
    expect(robots.isAllowed('http://x/caf%C3%A9', UA)).toBe(true);
    expect(robots.groups[0]?.rules[0]?.value).toBe('/caf\uFFFD'); // displayed as decoded text
  });

  it('matches UTF-8 rules against the encoded URL, whether the URL is written encoded or not', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /ツ\n');
    expect(robots.isAllowed('http://x/ツ', UA)).toBe(false);
    expect(robots.isAllowed('http://x/%E3%83%84', UA)).toBe(false);
    expect(robots.isAllowed('http://x/%e3%83%84', UA)).toBe(false); // escape case does not matter
  });

  it('never throws on HTML, binary garbage or NUL bytes, and keeps the valid lines', () => {
    const html = '<!doctype html><html><body>\nUser-agent: *\nDisallow: /secret\n</body></html>';
    expect(parseRobotsTxt(html).isAllowed('http://x/secret', UA)).toBe(false);
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    expect(() => parseRobotsTxt(garbage).isAllowed('http://x/', UA)).not.toThrow();
    expect(parseRobotsTxt('User-agent: *\0junk\nDisallow: /a\0/b\n').isAllowed('http://x/a/c', UA)).toBe(false);
  });
});

describe('RobotsTxt.explain', () => {
  const robots = parseRobotsTxt(
    'User-agent: *\nDisallow: /\n\nUser-agent: FooBot # ours\nUser-agent: BarBot\nAllow: /public/\nDisallow: /public/private # keep out\n',
  );

  it('names the deciding rule with its line number and original text', () => {
    const explanation = robots.explain('http://x/public/private/1', UA);
    expect(explanation).toMatchObject({
      allowed: false,
      basis: 'rule',
      productToken: 'FooBot',
      groupKind: 'specific',
      path: '/public/private/1',
      rule: { type: 'disallow', value: '/public/private', line: 7, text: 'Disallow: /public/private # keep out' },
    });
    expect(explanation.groups).toEqual([
      [
        { value: 'FooBot', token: 'FooBot', isGlobal: false, line: 4 },
        { value: 'BarBot', token: 'BarBot', isGlobal: false, line: 5 },
      ],
    ]);
  });

  it('says when no rule of the chosen group matches, and when no group applies', () => {
    expect(robots.explain('http://x/other', UA)).toMatchObject({
      allowed: true,
      basis: 'no-matching-rule',
      groupKind: 'specific',
    });
    expect(robots.explain('http://x/other', 'Zed')).toMatchObject({
      allowed: false,
      groupKind: 'global',
      rule: { line: 2 },
    });
    expect(parseRobotsTxt('User-agent: A\nDisallow: /\n').explain('http://x/', UA)).toMatchObject({
      allowed: true,
      basis: 'no-matching-group',
      groupKind: 'none',
      groups: [],
    });
  });

  it('gives every field in the same order, `rule` only when a rule decided, whatever agent asked before', () => {
    const keys = ['userAgent', 'productToken', 'path', 'groupKind', 'groups', 'allowed', 'basis'];
    // Agents alternate: what is remembered of the last agent must not leak into the next answer.
    const asked = [
      robots.explain('http://x/robots.txt', UA),
      robots.explain('http://x/other', 'Zed/2.0'),
      robots.explain('http://x/other', UA),
      robots.explain('http://x/public/private/1', UA),
      parseRobotsTxt('User-agent: A\nDisallow: /\n').explain('http://x/', UA),
    ];
    expect(asked.map((explanation) => Object.keys(explanation))).toEqual([
      keys,
      [...keys, 'rule'],
      keys,
      [...keys, 'rule'],
      keys,
    ]);
    expect(asked.map(({ userAgent, productToken, basis }) => [userAgent, productToken, basis])).toEqual([
      [UA, 'FooBot', 'robots-txt'],
      ['Zed/2.0', 'Zed', 'rule'],
      [UA, 'FooBot', 'no-matching-rule'],
      [UA, 'FooBot', 'rule'],
      [UA, 'FooBot', 'no-matching-group'],
    ]);
    expect(asked[1]!.groups).toEqual([[{ value: '*', token: '*', isGlobal: true, line: 1 }]]);
  });

  it('google: allow /dir/index.html also allows /dir/, and explain names that rule', () => {
    const r = parseRobotsTxt('User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n');
    expect(r.explain('http://x/allowed-slash/', UA)).toMatchObject({ allowed: true, rule: { line: 2 } });
  });
});
