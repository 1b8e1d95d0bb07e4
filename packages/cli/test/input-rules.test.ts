// The input rules, command by command: one number rule for every numeric option, one message
// shape for a bad value (one line, exit 2, no usage text), and no control character from the
// input echoed raw. The matrix runs `main` in-process; the cases that matter for users also run
// the real bin.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { type Io, main } from '@politely/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCrawlOptions } from '../src/crawl/crawl-options.js';
import { runCli } from './run-cli.js';

const UA = 'RulesBot/1.0 (+https://example.invalid/bot)';
// Port 9 on loopback: refused by the SSRF guard without --allow-net, so nothing is fetched.
const NOWHERE = 'http://127.0.0.1:9/';
/** Terminal controls: C0 but newline, DEL, C1, bidi overrides and isolates. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = '\u001b[2J\u0007\r\u009b31m\u202eevil';
const HOSTILE_QUOTED = '"\\u001b[2J\\u0007\\r\\u009b31m\\u202eevil"';

let dir = '';
let robotsFile = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'politely-input-'));
  robotsFile = join(dir, 'robots.txt');
  writeFileSync(robotsFile, 'User-agent: *\nDisallow: /private/\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: readonly string[], input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const io: Io = { stdin: Readable.from([input]), stdout, stderr };
  const code = await main(args, io);
  return { code, stdout: out, stderr: err };
}

/** Every numeric option of every command, with the arguments around it and what it measures. */
const NUMERIC_OPTIONS: readonly {
  command: string;
  before: string[];
  after: string[];
  flag: string;
  kind: 'count' | 'duration';
  min: number;
}[] = [
  ...(
    [
      ['--max-pages', 'count', 1],
      ['--max-depth', 'count', 0],
      ['--max-pages-per-host', 'count', 1],
      ['--max-redirects', 'count', 0],
      ['--max-body', 'count', 1],
      ['--max-links', 'count', 0],
      ['--retries', 'count', 0],
      ['--concurrency', 'count', 1],
      ['--per-host-concurrency', 'count', 1],
      ['--delay', 'duration', 0],
      ['--timeout', 'duration', 1],
      ['--status-interval', 'duration', 1],
    ] as const
  ).map(([flag, kind, min]) => ({
    command: 'crawl',
    before: ['crawl', '--ua', UA],
    after: [NOWHERE],
    flag,
    kind,
    min,
  })),
  {
    command: 'robots explain',
    before: ['robots', 'explain', '--ua', 'Bot'],
    after: ['http://h/'],
    flag: '--timeout',
    kind: 'duration',
    min: 1,
  },
  {
    command: 'sitemap list',
    before: ['sitemap', 'list', '--ua', UA],
    after: [NOWHERE],
    flag: '--timeout',
    kind: 'duration',
    min: 1,
  },
  {
    command: 'sitemap list',
    before: ['sitemap', 'list', '--ua', UA],
    after: [NOWHERE],
    flag: '--delay',
    kind: 'duration',
    min: 0,
  },
];

function expected(option: (typeof NUMERIC_OPTIONS)[number], value: string): string {
  const what =
    option.kind === 'count'
      ? option.min === 0
        ? 'a whole number'
        : `a whole number ≥ ${option.min}`
      : `a whole number of milliseconds${option.min === 0 ? '' : ` ≥ ${option.min}`} (or 2s, 500ms)`;
  return `politely: ${option.command}: ${option.flag}: expected ${what}, got ${JSON.stringify(value)}\n`;
}

const BAD_VALUES = ['0x10', '1e3', '1.5', '+3', ' 3', '3 ', '-1', '-5', '', 'ten', '1_000', 'Infinity'];

describe('one number rule for every numeric option', () => {
  for (const option of NUMERIC_OPTIONS) {
    it(`${option.command} ${option.flag}: every bad value is one line naming it, exit 2, no usage`, async () => {
      for (const value of BAD_VALUES) {
        // Both spellings: `--flag value` (even `--flag -5`) and `--flag=value`.
        for (const args of [[option.flag, value], [`${option.flag}=${value}`]]) {
          const result = await run([...option.before, ...args, ...option.after]);
          expect({ args, ...result }).toEqual({ args, code: 2, stdout: '', stderr: expected(option, value) });
        }
      }
      if (option.kind === 'count') {
        const result = await run([...option.before, option.flag, '5ms', ...option.after]);
        expect(result.stderr).toBe(expected(option, '5ms'));
      }
      if (option.min > 0) {
        const result = await run([...option.before, option.flag, '0', ...option.after]);
        expect(result.stderr).toBe(expected(option, '0'));
      }
    });
  }

  it('a missing value or an unknown option still gets the usage text', async () => {
    const missing = await run(['crawl', '--ua', UA, NOWHERE, '--delay']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^politely: crawl: --delay needs a value\n\nUsage:\n/);
    const forgotten = await run(['robots', 'explain', '--ua', 'Bot', '--timeout', '--json', 'http://h/']);
    expect(forgotten.code).toBe(2);
    expect(forgotten.stderr).toMatch(/^politely: robots explain: --timeout needs a value .*\n\nUsage:\n/);
    const unknown = await run(['sitemap', 'list', '--ua', UA, '--delya', '5', NOWHERE]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^politely: sitemap list: unknown option "--delya"\n\nUsage:\n/);
    const stray = await run(['robots', 'batch', 'file.jsonl']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/^politely: robots batch: unexpected argument "file\.jsonl"\n\nUsage:\n/);
  });
});

describe('through the real bin', () => {
  it('--delay -5 and --delay 0x10: one line, exit 2, no usage (crawl, sitemap list)', async () => {
    const crawl = await runCli(['crawl', '--ua', UA, '--delay', '-5', NOWHERE]);
    expect(crawl).toEqual({
      code: 2,
      stdout: '',
      stderr: 'politely: crawl: --delay: expected a whole number of milliseconds (or 2s, 500ms), got "-5"\n',
    });
    const hex = await runCli(['sitemap', 'list', '--ua', UA, '--delay', '0x10', NOWHERE]);
    expect(hex).toEqual({
      code: 2,
      stdout: '',
      stderr: 'politely: sitemap list: --delay: expected a whole number of milliseconds (or 2s, 500ms), got "0x10"\n',
    });
    const negative = await runCli(['crawl', '--ua', UA, '--max-pages', '-1', NOWHERE]);
    expect(negative).toEqual({
      code: 2,
      stdout: '',
      stderr: 'politely: crawl: --max-pages: expected a whole number ≥ 1, got "-1"\n',
    });
  });

  it('durations take ms (the default unit) or s; counts take digits', async () => {
    expect(
      parseCrawlOptions([
        '--ua',
        UA,
        '--delay',
        '2s',
        '--timeout',
        '1500ms',
        '--status-interval',
        '1500',
        '--max-pages',
        '007',
        NOWHERE,
      ]),
    ).toMatchObject({
      minDelayMs: 2000,
      requestTimeoutMs: 1500,
      statusIntervalMs: 1500,
      maxPages: 7,
    });
    expect(parseCrawlOptions(['--ua', UA, '--delay=0s', NOWHERE])).toMatchObject({
      minDelayMs: 0,
      requestTimeoutMs: 30_000,
      statusIntervalMs: 2000,
      adaptiveConcurrency: true,
    });
    expect(parseCrawlOptions(['--ua', UA, '--fixed-concurrency', NOWHERE])).toMatchObject({
      concurrency: 16,
      adaptiveConcurrency: false,
    });
    // The crawl starts (its one seed is refused by the SSRF guard): the values were taken.
    const crawl = await runCli([
      'crawl',
      '--ua',
      UA,
      '--log',
      'json',
      '--delay',
      '2s',
      '--timeout',
      '1500ms',
      '--status-interval',
      '1s',
      '--max-pages',
      '007',
      NOWHERE,
    ]);
    expect(crawl.code).not.toBe(2);
    expect(crawl.stdout).toContain('blocked-address');
    const explain = await runCli([
      'robots',
      'explain',
      '--robots',
      robotsFile,
      '--ua',
      'Bot',
      '--timeout',
      '2s',
      'http://h/private/x',
    ]);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toMatch(/^DISALLOWED/);
  });

  it('values from the command line are quoted with their controls escaped, and no raw control reaches the terminal', async () => {
    const seed = await runCli(['crawl', '--ua', UA, `${HOSTILE}://x`]);
    expect(seed).toEqual({
      code: 2,
      stdout: '',
      stderr: `politely: crawl: invalid seed ${HOSTILE_QUOTED.slice(0, -1)}://x": not an absolute http(s) URL\n`,
    });
    const delay = await runCli(['crawl', '--ua', UA, '--delay', HOSTILE, NOWHERE]);
    expect(delay.stderr).toBe(
      `politely: crawl: --delay: expected a whole number of milliseconds (or 2s, 500ms), got ${HOSTILE_QUOTED}\n`,
    );
    const command = await runCli([HOSTILE]);
    expect(command.code).toBe(2);
    expect(command.stderr.split('\n')[0]).toBe(`politely: unknown command ${HOSTILE_QUOTED}`);
    const option = await runCli(['robots', 'lint', `--${HOSTILE}`, robotsFile]);
    expect(option.code).toBe(2);
    expect(option.stderr.split('\n')[0]).toBe(`politely: robots lint: unknown option "--${HOSTILE_QUOTED.slice(1)}`);
    const explain = await runCli([
      'robots',
      'explain',
      '--robots',
      robotsFile,
      '--ua',
      `Bot${HOSTILE}`,
      `http://h/${HOSTILE}`,
      HOSTILE,
    ]);
    expect(explain.code).toBe(2);
    expect(explain.stderr).toBe(
      `politely: robots explain: invalid URL ${HOSTILE_QUOTED}: not an absolute http(s) URL\n`,
    );
    const explainJson = await runCli([
      'robots',
      'explain',
      '--json',
      '--robots',
      robotsFile,
      '--ua',
      `Bot${HOSTILE}`,
      `http://h/${HOSTILE}`,
    ]);
    expect(explainJson.code).toBe(0);
    const lint = await runCli(['robots', 'lint', join(dir, `missing${HOSTILE}.txt`)]);
    expect(lint.code).toBe(2);
    for (const result of [seed, delay, command, option, explain, explainJson, lint]) {
      expect(result.stdout).not.toMatch(RAW);
      expect(result.stderr).not.toMatch(RAW);
    }
    const long = await runCli(['crawl', '--ua', UA, `ftp://x/${'a'.repeat(5000)}`]);
    expect(long.stderr).toBe(
      `politely: crawl: invalid seed "ftp://x/${'a'.repeat(192)}…" (5008 characters): not an absolute http(s) URL\n`,
    );
  });

  it('robots lint shows a hostile file name and file with its controls escaped', async () => {
    const file = join(dir, `lint${HOSTILE}.txt`);
    writeFileSync(file, `User-agent: *\nDisallow: /x\u001b[2J\nSitemap: ${HOSTILE}\nNoise\u0007: x\n`);
    const human = await runCli(['robots', 'lint', file]);
    expect(human.stdout).not.toMatch(RAW);
    expect(human.stdout).toContain('lint\\u001b[2J\\u0007\\r\\u009b31m\\u202eevil.txt:');
    const json = await runCli(['robots', 'lint', '--json', file]);
    expect(json.stdout).not.toMatch(RAW);
    expect((JSON.parse(json.stdout) as { file: string }[])[0]?.file).toBe(file);
  });
});
