import type { RobotsDiagnostic } from '@politely/core';
import { lintRobotsTxt, PolitelyError, parseRobotsTxt } from '@politely/core';
import { MIN_ROBOTS_TXT_BYTES } from '@politely/core/internal';
import { describe, expect, it } from 'vitest';

/** [line, code] pairs, the shape most assertions compare. */
const found = (diagnostics: readonly RobotsDiagnostic[]) => diagnostics.map((d) => [d.line, d.code]);
const lint = (...lines: string[]) => lintRobotsTxt(lines.join('\n'));

describe('lintRobotsTxt', () => {
  it('reports nothing for a clean file', () => {
    const body = [
      '# a comment',
      'User-agent: FooBot',
      'User-agent: *',
      'Disallow: /private/',
      'Allow: /private/public.html',
      'Disallow: /*.pdf$',
      'Crawl-delay: 1.5',
      '',
      'Sitemap: https://example.com/sitemap.xml',
      '',
    ].join('\r\n');
    expect(lintRobotsTxt(body)).toEqual([]);
  });

  it('unknown-directive: names the key and suggests a near standard key', () => {
    const diagnostics = lint('User-agent: *', 'unicorns: /extinct', 'Usr-agent: x');
    expect(found(diagnostics)).toEqual([
      [2, 'unknown-directive'],
      [3, 'unknown-directive'],
    ]);
    expect(diagnostics[0]).toMatchObject({ severity: 'warning' });
    expect(diagnostics[0]?.message).toContain('`unicorns`');
    expect(diagnostics[1]?.message).toContain('did you mean `user-agent`?');
  });

  it('ignored-directive: known non-standard keys are info, not warnings', () => {
    const diagnostics = lint('User-agent: *', 'Noindex: /a', 'Host: example.com');
    expect(found(diagnostics)).toEqual([
      [2, 'ignored-directive'],
      [3, 'ignored-directive'],
    ]);
    expect(diagnostics.every((d) => d.severity === 'info')).toBe(true);
  });

  it('google: accepted-typo for the reference typos and for keys that only match by prefix', () => {
    const diagnostics = lint(
      'useragent: *',
      'Dissallow: /a',
      'allowed: /b',
      'site-map: https://e.example/s.xml',
      'Disallow: /c',
    );
    expect(found(diagnostics)).toEqual([
      [1, 'accepted-typo'],
      [2, 'accepted-typo'],
      [3, 'accepted-typo'],
      [4, 'accepted-typo'],
    ]);
    expect(diagnostics[1]?.message).toContain('`Dissallow` read as `disallow`');
    expect(diagnostics[2]?.message).toContain('`allowed` read as `allow`');
    expect(diagnostics[0]?.severity).toBe('warning');
  });

  it('google: missing-colon is info, and a typo without colon reports both', () => {
    const diagnostics = lint('User-agent *', 'disallow /c', 'disalow /d');
    expect(found(diagnostics)).toEqual([
      [1, 'missing-colon'],
      [2, 'missing-colon'],
      [3, 'accepted-typo'],
      [3, 'missing-colon'],
    ]);
    expect(diagnostics[1]).toMatchObject({ severity: 'info' });
    expect(diagnostics[1]?.message).toContain('`disallow: /c`');
  });

  it('unparsable-line: text that is neither a directive nor a comment', () => {
    const diagnostics = lint('User-agent: *', 'absolutely random line', 'Error #and comment', ': no key');
    expect(found(diagnostics)).toEqual([
      [2, 'unparsable-line'],
      [3, 'unparsable-line'],
      [4, 'unparsable-line'],
    ]);
  });

  it('google: rule-outside-group for rules before the first user-agent line', () => {
    const diagnostics = lint('# header', 'Disallow: /early', 'Allow: /early/ok', 'User-agent: *', 'Disallow: /late');
    expect(found(diagnostics)).toEqual([
      [2, 'rule-outside-group'],
      [3, 'rule-outside-group'],
    ]);
    expect(diagnostics[0]?.severity).toBe('warning');
    // It agrees with the parser: the early rules are in no group.
    expect(parseRobotsTxt('Disallow: /early\nUser-agent: *').groups[0]?.rules).toEqual([]);
  });

  it('rule-not-a-path: a value that cannot match a path', () => {
    const diagnostics = lint(
      'User-agent: *',
      'Disallow: private',
      'Disallow: http://example.com/x',
      'Disallow:',
      'Allow: */x',
    );
    expect(found(diagnostics)).toEqual([
      [2, 'rule-not-a-path'],
      [3, 'rule-not-a-path'],
    ]);
  });

  it('invalid-sitemap-url is an error for relative, empty and non-http URLs', () => {
    const diagnostics = lint(
      'Sitemap: /sitemap.xml',
      'Sitemap: https://example.com/sitemap.xml',
      'Sitemap:',
      'Sitemap: ftp://example.com/s.xml',
      'Sitemap: http://example.com/s.xml # comment',
    );
    expect(found(diagnostics)).toEqual([
      [1, 'invalid-sitemap-url'],
      [3, 'invalid-sitemap-url'],
      [4, 'invalid-sitemap-url'],
    ]);
    expect(diagnostics.every((d) => d.severity === 'error')).toBe(true);
    expect(diagnostics[0]?.message).toContain('`/sitemap.xml`');
  });

  it('rfc9309 2.5: size-limit-exceeded on the last parsed line, saying how many bytes were ignored', () => {
    const line = 'Disallow: /some/long/path/segment\n'; // 34 bytes
    const lines = Math.ceil((MIN_ROBOTS_TXT_BYTES + 1000) / line.length);
    const body = 'User-agent: *\n' + line.repeat(lines);
    expect(body.length).toBeGreaterThan(MIN_ROBOTS_TXT_BYTES);
    const diagnostics = lintRobotsTxt(body);
    expect(found(diagnostics)).toHaveLength(1);
    const [diagnostic] = diagnostics;
    // The parse keeps 512000 bytes: 14 of line 1, 15058 whole lines of 34 bytes (lines 2–15059),
    // then the first 14 bytes of line 15060.
    expect(diagnostic).toMatchObject({ line: 15060, severity: 'warning', code: 'size-limit-exceeded' });
    expect(diagnostic?.message).toContain(`the last ${body.length - MIN_ROBOTS_TXT_BYTES} bytes are ignored`);
    // A larger maxBytes parses it all.
    expect(lintRobotsTxt(body, { maxBytes: body.length })).toEqual([]);
  });

  it("invalid-utf8: a Uint8Array in Latin-1 is flagged per line, with the parser's line numbers", () => {
    const latin1 = Uint8Array.from([
      ...new TextEncoder().encode('User-agent: *\r\nDisallow: /caf'),
      0xe9,
      0x0d,
      0x0a,
      ...new TextEncoder().encode('Disallow: /ok\r\nDisallow: /na'),
      0xef,
      0x76,
      0x65,
      0x0a,
    ]);
    const diagnostics = lintRobotsTxt(latin1);
    expect(found(diagnostics)).toEqual([
      [2, 'invalid-utf8'],
      [4, 'invalid-utf8'],
    ]);
    expect(parseRobotsTxt(latin1).groups[0]?.rules.map((r) => r.line)).toEqual([2, 3, 4]);
    // Valid UTF-8 bytes are not flagged.
    expect(lintRobotsTxt(new TextEncoder().encode('User-agent: *\nDisallow: /café\n'))).toEqual([]);
  });

  it('google: line-too-long for a line over the reference line cap', () => {
    const body = `User-agent: *\nDisallow: /${'a'.repeat(20_000)}\nDisallow: /b\n`;
    expect(found(lintRobotsTxt(body))).toEqual([[2, 'line-too-long']]);
  });

  it('nul-byte: the line ends at the NUL', () => {
    const diagnostics = lint('User-agent: *', 'Disallow: /a\0junk', '\0only junk');
    expect(found(diagnostics)).toEqual([
      [2, 'nul-byte'],
      [3, 'nul-byte'],
    ]);
  });

  it('google: bom-in-middle for a byte-order mark that is not at the start of the file', () => {
    // A BOM at the very start is skipped (no finding); one on line 2 makes that line unknown.
    const diagnostics = lintRobotsTxt('\ufeffUser-agent: *\n\ufeffDisallow: /x\n');
    expect(found(diagnostics)).toEqual([[2, 'bom-in-middle']]);
  });

  it('invalid-crawl-delay, crawl-delay-outside-group and duplicate-crawl-delay', () => {
    const diagnostics = lint(
      'Crawl-delay: 5',
      'User-agent: *',
      'Crawl-delay: soon',
      'Crawl-delay: -1',
      'Crawl-delay: 2',
      'crawl-delay: 3',
    );
    expect(found(diagnostics)).toEqual([
      [1, 'crawl-delay-outside-group'],
      [3, 'invalid-crawl-delay'],
      [4, 'invalid-crawl-delay'],
      [6, 'duplicate-crawl-delay'],
    ]);
    // It agrees with the parser: the first valid delay of the group counts.
    expect(
      parseRobotsTxt('Crawl-delay: 5\nUser-agent: *\nCrawl-delay: soon\nCrawl-delay: 2\ncrawl-delay: 3').crawlDelay(
        'x',
      ),
    ).toBe(2);
  });

  it('duplicate-crawl-delay is per group: a new group may set its own', () => {
    const diagnostics = lint('User-agent: a', 'Crawl-delay: 1', 'Disallow: /x', 'User-agent: b', 'Crawl-delay: 2');
    expect(diagnostics).toEqual([]);
  });

  it('empty-user-agent: a user-agent line with no value', () => {
    const diagnostics = lint('User-agent:', 'Disallow: /');
    expect(found(diagnostics)).toEqual([[1, 'empty-user-agent']]);
    expect(diagnostics[0]?.severity).toBe('warning');
  });

  it('rfc9309 2.2.1: user-agent-not-a-token says what the value is matched as', () => {
    const diagnostics = lint(
      'User-agent: Googlebot/2.1',
      'User-agent: *bot',
      'User-agent: * # all',
      'User-agent: Foo_Bar-baz',
      'Disallow: /',
    );
    expect(found(diagnostics)).toEqual([
      [1, 'user-agent-not-a-token'],
      [2, 'user-agent-not-a-token'],
    ]);
    expect(diagnostics[0]).toMatchObject({ severity: 'info' });
    expect(diagnostics[0]?.message).toContain('`Googlebot/2.1` is matched as `Googlebot`');
    expect(diagnostics[1]).toMatchObject({ severity: 'warning' });
  });

  it('sorts by line and counts lines as the parser does (CR, LF, CRLF, no final newline)', () => {
    const diagnostics = lintRobotsTxt('Disallow: /a\rUser-agent: *\r\nunicorns: 1\n\nSitemap: x');
    expect(found(diagnostics)).toEqual([
      [1, 'rule-outside-group'],
      [3, 'unknown-directive'],
      [5, 'invalid-sitemap-url'],
    ]);
    const lines = diagnostics.map((d) => d.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });

  it('rejects an invalid maxBytes like parseRobotsTxt does', () => {
    expect(() => lintRobotsTxt('', { maxBytes: 10 })).toThrow(PolitelyError);
  });
});

describe('lintRobotsTxt on hostile input', () => {
  it('shows control characters of the file as \\xNN in messages', () => {
    const [diagnostic] = lintRobotsTxt('User-agent: *\nunicorns\x1b[31m: /x\n');
    expect(diagnostic).toMatchObject({ line: 2, code: 'unknown-directive' });
    expect(diagnostic?.message).toContain('`unicorns\\x1b[31m`');
    expect(diagnostic?.message).not.toContain('\x1b');
  });

  it('never throws on 500 KiB of random bytes and reports sorted lines', () => {
    let seed = 42;
    const bytes = Uint8Array.from({ length: MIN_ROBOTS_TXT_BYTES + 4096 }, () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed >>> 24;
    });
    const diagnostics = lintRobotsTxt(bytes);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.at(-1)?.code).toBe('size-limit-exceeded');
    const lines = diagnostics.map((d) => d.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });
});
