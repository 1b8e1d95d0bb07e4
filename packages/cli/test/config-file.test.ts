// `politely crawl --config FILE` and `--print-config` (issue 32, item 6), run as a user runs them
// (the real bin, in a child process): a file's flags crawl the local web as flags would, flags
// given on the command line override it, and a mistake in the file reads as the same mistake in a
// flag, naming the file.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocalWeb, violations } from '@politely/demo-web';
import { beforeEach, describe, expect, it } from 'vitest';
import { useDemoWebAndDir } from './demo-web-fixture.js';
import { jsonLines, runCli } from './run-cli.js';

const UA = 'PolitelyConfig/0.1 (+https://example.invalid/bot)';
let web: LocalWeb;
let dir: string;

useDemoWebAndDir('politely-config-', (fixture) => ({ web, dir } = fixture));
beforeEach(() => web.resetLogs());

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('politely crawl --config', () => {
  it('crawls from a YAML file as from flags: seeds, limits, outputs; politely by the servers’ logs', async () => {
    const out = join(dir, 'from-yaml.jsonl');
    const config = file(
      'crawl.yaml',
      `ua: "${UA}"
seeds:
  - ${web.url('shop', '/')}
max-pages: 4
delay: 100ms
allow-net: [127.0.0.0/8]
scope: same-origin
out: ${out}
log: json
`,
    );
    const result = await runCli(['crawl', '--config', config]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const pages = jsonLines(readFileSync(out, 'utf8')) as { url: string }[];
    expect(pages).toHaveLength(4);
    for (const page of pages) expect(page.url.startsWith(web.host('shop').origin)).toBe(true);
    const served = web.requestLog().filter((entry) => !entry.path.endsWith('robots.txt'));
    expect(served).toHaveLength(4);
    expect(violations(web, UA)).toEqual([]);
  });

  it('flags override the file: a flag given on the command line wins, seeds given replace the file’s', async () => {
    const config = file(
      'override.json',
      JSON.stringify({
        ua: UA,
        seeds: [web.url('news', '/')],
        'max-pages': 50,
        delay: '2s',
        'allow-net': ['10.0.0.0/8'],
      }),
    );
    const result = await runCli([
      'crawl',
      `--config=${config}`,
      '--max-pages',
      '2',
      '--allow-net',
      '127.0.0.0/8',
      '--print-config',
      web.url('shop', '/'),
    ]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({
      seeds: [web.url('shop', '/')],
      ua: UA,
      'max-pages': '2',
      delay: '2s',
      'allow-net': ['127.0.0.0/8'],
      // Defaults of flags nobody gave, in the form the flag takes.
      concurrency: '16',
      scope: 'same-domain',
      sitemaps: false,
    });
    expect(web.requestLog()).toEqual([]);
  });

  it('--print-config output is itself a config file that crawls the same way', async () => {
    const first = await runCli([
      'crawl',
      '--ua',
      UA,
      '--max-pages',
      '3',
      '--allow-net',
      '127.0.0.0/8',
      '--header',
      'Authorization: Bearer s3cret-token',
      '--print-config',
      web.url('shop', '/'),
    ]);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain('s3cret-token');
    const saved = file('saved.json', first.stdout);
    const out = join(dir, 'from-saved.jsonl');
    const second = await runCli(['crawl', '--config', saved, '--header', 'X-Test: 1', '--out', out, '--log', 'json']);
    expect(second.code).toBe(0);
    expect(jsonLines(readFileSync(out, 'utf8'))).toHaveLength(3);
  });

  it('a mistake in the file reads as the same mistake in a flag, naming the file; exit 2', async () => {
    const bad = file('bad.json', JSON.stringify({ ua: UA, seeds: [web.url('shop', '/')], 'max-pages': 'many' }));
    const asFlag = await runCli(['crawl', '--ua', UA, '--max-pages', 'many', web.url('shop', '/')]);
    const asFile = await runCli(['crawl', '--config', bad]);
    expect(asFile.code).toBe(2);
    const flagMessage = asFlag.stderr.split('\n')[0] ?? '';
    expect(flagMessage).toMatch(/^politely: crawl: --max-pages: expected a whole number/);
    expect(asFile.stderr.split('\n')[0]).toBe(flagMessage.replace('crawl: ', `crawl: ${bad}: `));
  });

  it('refuses an unknown key with the nearest flag, a wrong type, a list for a single flag, and unreadable files', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'typo.json',
        JSON.stringify({ 'max-page': 3 }),
        /"max-page": not a flag of this command \(did you mean "max-pages"\?\)/,
      ],
      ['bool.json', JSON.stringify({ sitemaps: 'yes' }), /"sitemaps": true or false, got string "yes"/],
      [
        'list.json',
        JSON.stringify({ delay: ['1s', '2s'] }),
        /"delay": one value \(--delay is not repeatable\), got a list/,
      ],
      ['object.json', JSON.stringify({ 'max-pages': { n: 3 } }), /"max-pages": a string or a number, got a mapping/],
      ['top.json', '[1, 2]', /must hold a mapping of flag names to values/],
      ['broken.json', '{"ua": ', /not valid JSON/],
      ['broken.yaml', 'ua: [unclosed', /not valid YAML/],
    ];
    for (const [name, text, message] of cases) {
      const path = file(name, text);
      const result = await runCli(['crawl', '--config', path, web.url('shop', '/')]);
      expect(result.code, name).toBe(2);
      expect(result.stderr.split('\n')[0], name).toMatch(message);
      expect(result.stderr, name).toContain(path);
    }
    const missing = await runCli(['crawl', '--config', join(dir, 'nowhere.json'), '--ua', UA, web.url('shop', '/')]);
    expect(missing.code).toBe(74);
    expect(missing.stderr).toMatch(/cannot read .*nowhere\.json.*ENOENT/);
    const kind = await runCli(['crawl', '--config', join(dir, 'crawl.toml')]);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toMatch(/a \.json, \.yaml or \.yml file/);
    expect(web.requestLog()).toEqual([]);
  }, 120_000);
});
