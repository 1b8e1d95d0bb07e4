// Usage preferences in robots.txt: extension lines kept by the parser, Content-Usage rules
// (draft-ietf-aipref-attach-05 §3) and Content-Signal lines, and several product tokens.
import { readFileSync } from 'node:fs';
import { lintRobotsTxt, parseRobotsTxt, robotsUsageSources, usageBeforeFetch, usageOf } from '@politely/core';
import { describe, expect, it } from 'vitest';

const MANAGED = readFileSync(new URL('./fixtures/cloudflare-managed-robots.txt', import.meta.url), 'utf8');
const status = (robotsTxt: string, url: string, tokens: string | string[] = 'MyBot') =>
  Object.fromEntries(
    Object.entries(usageOf({ url, robots: parseRobotsTxt(robotsTxt), tokens }).purposes).map(([p, v]) => [p, v.status]),
  );

describe('robots.txt extension lines', () => {
  it('keeps non-standard lines per group and outside any group, with line numbers, and does not change matching', () => {
    const robots = parseRobotsTxt(
      [
        'Host: example.com',
        'Content-Usage: train-ai=n',
        'User-agent: *',
        'Content-Signal: search=yes, ai-train=no # managed',
        'Disallow: /private',
        'Clean-param: ref /articles/',
      ].join('\n'),
    );
    expect(robots.extensions).toEqual([
      { name: 'host', key: 'Host', value: 'example.com', line: 1, text: 'Host: example.com' },
      { name: 'content-usage', key: 'Content-Usage', value: 'train-ai=n', line: 2, text: 'Content-Usage: train-ai=n' },
    ]);
    expect(robots.groups[0]?.extensions.map((e) => [e.line, e.name, e.value])).toEqual([
      [4, 'content-signal', 'search=yes, ai-train=no'],
      [6, 'clean-param', 'ref /articles/'],
    ]);
    expect(robots.groups[0]?.extensions[0]?.text).toBe('Content-Signal: search=yes, ai-train=no # managed');
    expect(robots.isAllowed('https://example.com/private/x', 'MyBot')).toBe(false);
    expect(robots.isAllowed('https://example.com/public', 'MyBot')).toBe(true);
  });

  it('an extension line between user-agent lines does not split the group (rules only do)', () => {
    const robots = parseRobotsTxt('User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n');
    expect(robots.groups).toHaveLength(1);
    expect(robots.groups[0]?.userAgents.map((a) => a.token)).toEqual(['a', 'b']);
  });
});

describe('Content-Usage in robots.txt (draft-ietf-aipref-attach-05 §3)', () => {
  // attach-05 §3.4, Figure 2 and Table 1.
  const FIGURE_2 = [
    'User-Agent: *',
    'Allow: /',
    'Disallow: /never/',
    'Content-Usage: train-ai=n',
    'Content-Usage: /ai-ok/ train-ai=y',
    '',
    'User-Agent: ExampleBot',
    'Allow: /',
    'Content-Usage: train-ai=y',
  ].join('\n');

  it('Table 1: /test → train-ai=n; /never/test → not crawled, no preference; /ai-ok/test → train-ai=y', () => {
    expect(status(FIGURE_2, 'https://example.com/test')['ai-train']).toBe('reserved');
    expect(status(FIGURE_2, 'https://example.com/never/test')['ai-train']).toBe('unknown');
    expect(status(FIGURE_2, 'https://example.com/ai-ok/test')['ai-train']).toBe('allowed');
  });

  it('ExampleBot uses its own group: train-ai=y everywhere', () => {
    expect(status(FIGURE_2, 'https://example.com/test', 'ExampleBot')['ai-train']).toBe('allowed');
  });

  it('cites the deciding line with its number, token and path', () => {
    const report = usageOf({
      url: 'https://example.com/ai-ok/page',
      robots: parseRobotsTxt(FIGURE_2),
      tokens: ['MyBot'],
    });
    expect(report.purposes['ai-train'].sources).toEqual([
      expect.objectContaining({
        kind: 'robots-content-usage',
        line: 5,
        text: 'Content-Usage: /ai-ok/ train-ai=y',
        path: '/ai-ok/',
        token: 'MyBot',
        preference: 'allowed',
        label: 'train-ai',
      }),
    ]);
  });

  it('the path form of earlier revisions (`Content-Usage: / train-ai=n`) is read too; the longer path wins', () => {
    const robots = 'User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /open/ train-ai=y\n';
    expect(status(robots, 'https://example.com/a')['ai-train']).toBe('reserved');
    expect(status(robots, 'https://example.com/open/a')['ai-train']).toBe('allowed');
  });

  it('paths match like Allow/Disallow: * and $, percent-encoding normalised', () => {
    const robots = 'User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: /caf%C3%A9/ search=n\n';
    expect(status(robots, 'https://example.com/docs/a.pdf')['ai-train']).toBe('reserved');
    expect(status(robots, 'https://example.com/docs/a.pdf?x')['ai-train']).toBe('unknown');
    expect(status(robots, 'https://example.com/café/menu').search).toBe('reserved');
  });

  it('§3.1: identical paths with conflicting preferences combine (a reservation wins), unlike Allow/Disallow', () => {
    const robots = 'User-agent: *\nContent-Usage: /x/ train-ai=y\nContent-Usage: /x/ train-ai=n\n';
    const report = usageOf({ url: 'https://example.com/x/1', robots: parseRobotsTxt(robots) });
    expect(report.purposes['ai-train'].status).toBe('reserved');
    expect(report.sources.map((s) => s.line)).toEqual([2, 3]);
  });

  it('malformed values are no preference, never an error', () => {
    const robots = [
      'User-agent: *',
      'Content-Usage: /only-a-path/',
      'Content-Usage: Train-AI=n',
      'Content-Usage: train-ai=no',
      'Content-Usage:',
      'Content-Usage: /\ttrain-ai=(',
    ].join('\n');
    for (const url of ['https://example.com/', 'https://example.com/only-a-path/x']) {
      expect(Object.values(status(robots, url)).every((s) => s === 'unknown')).toBe(true);
    }
  });

  it('a Content-Usage line outside any group applies to no crawler', () => {
    expect(status('Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n', 'https://example.com/')['ai-train']).toBe(
      'unknown',
    );
  });

  it('usageBeforeFetch: a reservation in robots.txt is known without fetching the page', () => {
    const report = usageBeforeFetch({
      url: 'https://example.com/test',
      robots: parseRobotsTxt(FIGURE_2),
      tokens: 'MyBot',
    });
    expect(report.purposes['ai-train'].status).toBe('reserved');
  });
});

describe('Content-Signal in robots.txt', () => {
  it('the Cloudflare managed robots.txt: search allowed, ai-train reserved, ai-input unknown', () => {
    expect(status(MANAGED, 'https://www.example.com/article')).toMatchObject({
      search: 'allowed',
      'ai-train': 'reserved',
      'ai-input': 'unknown',
      tdm: 'unknown',
    });
    const sources = robotsUsageSources(parseRobotsTxt(MANAGED), 'https://www.example.com/article', 'MyBot');
    expect(sources).toEqual([
      expect.objectContaining({
        kind: 'robots-content-signal',
        line: 29,
        text: 'Content-signal: search=yes, ai-train=no',
      }),
    ]);
  });

  it('a crawler with its own group (GPTBot) gets no signal: that group has none, and it may not crawl', () => {
    expect(status(MANAGED, 'https://www.example.com/article', 'GPTBot')['ai-train']).toBe('unknown');
    expect(parseRobotsTxt(MANAGED).isAllowed('https://www.example.com/article', 'GPTBot')).toBe(false);
  });

  it('the managed sample lints clean', () => {
    expect(lintRobotsTxt(MANAGED)).toEqual([]);
  });
});

describe('several product tokens', () => {
  const ROBOTS = [
    'User-agent: MyBot',
    'Disallow: /private/',
    'Content-Usage: search=y',
    '',
    'User-agent: MyBot-Training',
    'Disallow: /news/',
    'Content-Usage: train-ai=n',
    '',
    'User-agent: *',
    'Disallow: /',
  ].join('\n');
  const robots = parseRobotsTxt(ROBOTS);

  it("every token's group applies; the most restrictive verdict wins", () => {
    expect(robots.isAllowed('https://example.com/a', ['MyBot', 'MyBot-Training'])).toBe(true);
    expect(robots.isAllowed('https://example.com/private/a', ['MyBot', 'MyBot-Training'])).toBe(false);
    expect(robots.isAllowed('https://example.com/news/a', ['MyBot', 'MyBot-Training'])).toBe(false);
    expect(robots.isAllowed('https://example.com/news/a', 'MyBot')).toBe(true);
  });

  it("explain names the token that decided and keeps every token's explanation", () => {
    const explanation = robots.explain('https://example.com/news/a', [
      'MyBot/2.0 (+https://example.com/bot)',
      'MyBot-Training',
    ]);
    expect(explanation).toMatchObject({ allowed: false, productToken: 'MyBot-Training', basis: 'rule' });
    expect(explanation.rule?.line).toBe(6);
    expect(explanation.tokens?.map((t) => [t.productToken, t.allowed])).toEqual([
      ['MyBot', true],
      ['MyBot-Training', false],
    ]);
    const allowed = robots.explain('https://example.com/a', ['MyBot', 'MyBot-Training']);
    expect(allowed).toMatchObject({ allowed: true, productToken: 'MyBot' });
  });

  it('the single-token API is unchanged', () => {
    const explanation = robots.explain('https://example.com/news/a', 'MyBot');
    expect(explanation.tokens).toBeUndefined();
    expect(explanation.allowed).toBe(true);
  });

  it('crawl-delay with several tokens is the largest', () => {
    const delays = parseRobotsTxt(
      'User-agent: a\nDisallow: /x\nCrawl-delay: 1\nUser-agent: b\nDisallow: /x\nCrawl-delay: 3\n',
    );
    expect(delays.crawlDelay(['a', 'b'])).toBe(3);
    expect(delays.crawlDelay(['a'])).toBe(1);
    expect(delays.crawlDelay([])).toBeUndefined();
  });

  it("usage lines of every token's group apply, combined conservatively", () => {
    const report = usageOf({ url: 'https://example.com/a', robots, tokens: ['MyBot', 'MyBot-Training'] });
    expect(report.purposes.search).toMatchObject({
      status: 'allowed',
      sources: [expect.objectContaining({ token: 'MyBot', line: 3 })],
    });
    expect(report.purposes['ai-train']).toMatchObject({
      status: 'reserved',
      sources: [expect.objectContaining({ token: 'MyBot-Training', line: 7 })],
    });
  });

  it('a Content-Usage line is cited once when several tokens fall back to the same * group', () => {
    const shared = parseRobotsTxt('User-agent: *\nContent-Usage: train-ai=n\n');
    const report = usageOf({ url: 'https://example.com/', robots: shared, tokens: ['A', 'B'] });
    expect(report.purposes['ai-train'].sources).toHaveLength(1);
  });
});
