import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from './run-cli.js';

const ROBOTS = [
  '# fixture', //                 1
  'User-agent: *', //             2
  'Disallow: /checkout/', //      3
  '', //                          4
  'User-agent: ExplainBot', //    5
  'User-agent: OtherBot', //      6
  'Disallow: /private/', //       7
  'Allow: /private/public/ # ok', // 8
  '', //                          9
  'User-agent: explainbot', //    10
  'Disallow: /*.pdf$', //         11
].join('\n');

let robotsFile = '';
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'politely-explain-'));
  robotsFile = join(dir, 'robots.txt');
  writeFileSync(robotsFile, ROBOTS);
});

describe('politely robots explain', () => {
  it('prints the verdict, the product token, the merged groups and the deciding line', async () => {
    const result = await runCli([
      'robots',
      'explain',
      '--robots',
      robotsFile,
      '--ua',
      'ExplainBot/1.2 (+https://x.example)',
      'https://site.example/private/a',
      'https://site.example/private/public/b',
      'https://site.example/checkout/',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const blocks = result.stdout.trim().split('\n\n');
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toMatch(/^DISALLOWED +https:\/\/site\.example\/private\/a\n/);
    expect(blocks[0]).toContain("product token 'ExplainBot'");
    expect(blocks[0]).toContain('line 5: user-agent: ExplainBot, line 6: user-agent: OtherBot');
    expect(blocks[0]).toContain('line 10: user-agent: explainbot');
    expect(blocks[0]).toContain('decided by:    line 7: Disallow: /private/');
    expect(blocks[1]).toMatch(/^ALLOWED +https:\/\/site\.example\/private\/public\/b\n/);
    expect(blocks[1]).toContain('decided by:    line 8: Allow: /private/public/ # ok');
    // The * group does not apply once a group names the crawler.
    expect(blocks[2]).toMatch(/^ALLOWED /);
    expect(blocks[2]).toContain('no-matching-rule');
  });

  it('--json prints one object per URL with the group, the rule and its line', async () => {
    const result = await runCli([
      'robots',
      'explain',
      '--json',
      '--robots',
      robotsFile,
      '--ua',
      'SomeBot',
      'https://site.example/checkout/pay',
      'https://site.example/robots.txt',
      'https://site.example/x',
    ]);
    expect(result.code).toBe(0);
    const [pay, robotsTxt, other] = jsonLines(result.stdout) as Record<string, unknown>[];
    expect(pay).toEqual({
      url: 'https://site.example/checkout/pay',
      allowed: false,
      basis: 'rule',
      userAgent: 'SomeBot',
      productToken: 'SomeBot',
      path: '/checkout/pay',
      groupKind: 'global',
      groups: [[{ value: '*', token: '*', isGlobal: true, line: 2 }]],
      rule: { type: 'disallow', value: '/checkout/', pattern: '/checkout/', line: 3, text: 'Disallow: /checkout/' },
      reason: 'rules',
      status: null,
      robotsUrl: null,
      usage: Object.fromEntries(
        ['search', 'tdm', 'ai-train', 'ai-input', 'ai-train-images'].map((purpose) => [
          purpose,
          { status: 'unknown', sources: [] },
        ]),
      ),
    });
    expect(robotsTxt).toMatchObject({ allowed: true, basis: 'robots-txt', rule: null });
    expect(other).toMatchObject({ allowed: true, basis: 'no-matching-rule', rule: null });
  });

  it('says why no group applies', async () => {
    const noStar = join(dir, 'no-star.txt');
    writeFileSync(noStar, 'User-agent: A\nDisallow: /\n');
    const human = await runCli(['robots', 'explain', '--robots', noStar, '--ua', 'B', 'http://h/x']);
    expect(human.stdout).toContain("none: no group names 'B' and there is no '*' group");
    const json = await runCli(['robots', 'explain', '--json', '--robots', noStar, '--ua', 'B', 'http://h/x']);
    expect(jsonLines(json.stdout)).toEqual([
      expect.objectContaining({ basis: 'no-matching-group', groupKind: 'none', groups: [] }),
    ]);
  });

  it('an invalid URL is an error naming it (exit 2), and the other URLs are still explained', async () => {
    const result = await runCli([
      'robots',
      'explain',
      '--json',
      '--robots',
      robotsFile,
      '--ua',
      'SomeBot',
      'not a url',
      'https://site.example/checkout/',
      'ftp://site.example/checkout/',
    ]);
    expect(result.code).toBe(2);
    expect(jsonLines(result.stdout)).toEqual([
      expect.objectContaining({ url: 'https://site.example/checkout/', allowed: false }),
    ]);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'politely: robots explain: invalid URL "not a url": not an absolute http(s) URL',
      'politely: robots explain: invalid URL "ftp://site.example/checkout/": not an absolute http(s) URL',
    ]);
  });

  it('missing --ua or missing URLs is a one-line usage error (exit 2)', async () => {
    const noUa = await runCli(['robots', 'explain', '--robots', robotsFile, 'https://site.example/']);
    expect(noUa.code).toBe(2);
    expect(noUa.stdout).toBe('');
    expect(noUa.stderr.trimEnd().split('\n')).toEqual([
      'politely: robots explain: --ua UA is required (see politely robots --help)',
    ]);
    const noUrl = await runCli(['robots', 'explain', '--robots', robotsFile, '--ua', 'Bot']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(noUrl.stderr).toContain('give at least one URL');
  });

  it('an unreadable robots file is a one-line error (exit 2)', async () => {
    const missing = join(dir, 'missing.txt');
    const result = await runCli(['robots', 'explain', '--robots', missing, '--ua', 'Bot', 'https://site.example/']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`politely: cannot read robots file '${missing}': no such file or directory\n`);
    const directory = await runCli(['robots', 'explain', '--robots', dir, '--ua', 'Bot', 'https://site.example/']);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toBe(`politely: cannot read robots file '${dir}': is a directory\n`);
  });
});
