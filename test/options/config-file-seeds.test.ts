// A `--config` file's values never become flags: every seed is an absolute http(s) URL (an entry
// such as "--allow-net=10.0.0.0/8" is refused, naming the file and the entry), and every other
// value is given inline (`--key=value`), whatever it starts with. Checked in-process through the
// parser, and through the real bin for the exit code and the one-line message.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_USAGE } from '@politely/cli';
import { parseCrawlOptions } from '@politely/cli/internal';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../packages/cli/test/run-cli.js';

const UA = 'Bot/1.0 (+https://example.invalid/bot)';
const dir = mkdtempSync(join(tmpdir(), 'politely-config-seeds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, settings: object): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(settings));
  return path;
}

function refusal(args: readonly string[]): { message: string; exitCode: unknown } {
  try {
    parseCrawlOptions(args);
  } catch (error) {
    return { message: (error as Error).message, exitCode: (error as { exitCode?: unknown }).exitCode };
  }
  return expect.fail(`accepted: ${JSON.stringify(args)}`);
}

const HOSTILE = ['--allow-net=10.0.0.0/8', '--', '-h', '--print-config', 'ftp://example.com/', 'example.com', ''];

describe('politely crawl --config: seeds', () => {
  it('refuses a seed that is not an http(s) URL, naming the file, the entry and its value', () => {
    for (const [index, seed] of HOSTILE.entries()) {
      const file = configFile(`hostile-${index}.json`, { ua: UA, seeds: ['http://127.0.0.1:9/', seed] });
      const { message, exitCode } = refusal(['--config', file]);
      expect(exitCode, seed).toBe(EXIT_USAGE);
      expect(message, seed).toContain(`hostile-${index}.json`);
      expect(message, seed).toContain('"seeds"[1]');
      expect(message, seed).toContain(JSON.stringify(seed));
    }
  });

  it('refuses a hostile seed even when the command line gives seeds of its own', () => {
    const file = configFile('shadowed.json', { ua: UA, seeds: ['--allow-net=10.0.0.0/8'] });
    expect(refusal(['--config', file, 'http://127.0.0.1:9/']).message).toContain('"seeds"[0]');
  });

  it('gives every other value inline: a value that starts with "-" stays a value', () => {
    // The value reaches its own flag's check, and no other flag is set by it.
    const file = configFile('values.json', { ua: UA, seeds: ['http://127.0.0.1:9/'], out: '--allow-net=10.0.0.0/8' });
    const options = parseCrawlOptions(['--config', file]);
    expect(options).toMatchObject({ outFiles: ['--allow-net=10.0.0.0/8'], allowNet: [] });
    const numeric = configFile('numeric.json', { ua: UA, seeds: ['http://127.0.0.1:9/'], 'max-pages': '--help' });
    expect(refusal(['--config', numeric]).message).toMatch(/--max-pages: expected a whole number ≥ 1, got "--help"/);
  });

  it('takes http and https seeds', () => {
    const file = configFile('good.json', { ua: UA, seeds: ['http://127.0.0.1:9/', 'https://127.0.0.1:9/a'] });
    expect(parseCrawlOptions(['--config', file])).toMatchObject({
      seeds: ['http://127.0.0.1:9/', 'https://127.0.0.1:9/a'],
    });
  });
});

describe('politely crawl: refusals from the real bin', () => {
  it('a hostile config seed, a wrong number and a voided flag: exit 2, one line naming what is wrong', async () => {
    const hostile = configFile('bin-hostile.json', { ua: UA, seeds: ['--allow-net=10.0.0.0/8'] });
    const cases: [string[], RegExp][] = [
      [['crawl', '--config', hostile], /bin-hostile\.json: "seeds"\[0\]: a seed is an http\(s\) URL, never a flag/],
      [['crawl', '--ua', UA, '--concurrency', '1.5', 'http://127.0.0.1:9/'], /--concurrency: expected a whole number/],
      [
        [
          'crawl',
          '--ua',
          UA,
          '--proxy',
          'http://proxy.example:3128',
          '--resolve',
          'a.test:127.0.0.1',
          'http://a.test/',
        ],
        /--resolve cannot be used with --proxy/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines[0]).toMatch(message);
      expect(lines[0]).toMatch(/^politely: crawl: /);
    }
  });
});
