// Usage preferences in the CLI: `crawl --purpose/--robots-token` (validated; reserved URLs skipped
// and absent from --out; records carry the verdicts; the report's per-host section names each
// reservation's source) and `robots explain` (verdicts per purpose with their deciding lines).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/support/site-server.js';
import { jsonLines, runCli } from './run-cli.js';

const UA = 'UsageBot/1.0 (+https://example.invalid/bot)';
const ROBOTS = [
  'User-agent: *', //                                  1
  'Allow: /', //                                       2
  'Content-Usage: /train-no/ train-ai=n', //           3
  'Content-Signal: search=yes, ai-input=no', //        4
  '', //                                               5
  'User-agent: UsageBot-Training', //                  6
  'Disallow: /secret', //                              7
  '',
].join('\n');

let site: TestServer;
let dir: string;

beforeAll(async () => {
  const page = (body: string) => `<html><head><title>t</title></head><body>${body}</body></html>`;
  site = await startServer({
    '/robots.txt': ROBOTS,
    '/': page('<a href="/open">o</a><a href="/train-no/x">t</a><a href="/tdm-header">h</a><a href="/secret">s</a>'),
    '/open': page('open'),
    '/train-no/x': page('reserved by robots.txt'),
    '/secret': page('secret'),
    '/tdm-header': (_req, res: ServerResponse) => {
      res.setHeader('content-type', 'text/html');
      res.setHeader('tdm-reservation', '1');
      res.end(page('reserved by its header'));
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'politely-usage-cli-'));
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('politely crawl --purpose / --robots-token', () => {
  it('refuses an unknown purpose and a token that is not a product token, exit 2', async () => {
    const purpose = await runCli(['crawl', '--ua', UA, '--purpose', 'training', 'http://127.0.0.1:9/']);
    expect(purpose.code).toBe(2);
    expect(purpose.stderr).toContain(
      'crawl: --purpose: expected one of search, tdm, ai-train, ai-input, ai-train-images, got "training"',
    );
    const token = await runCli(['crawl', '--ua', UA, '--robots-token', 'Bot/2', 'http://127.0.0.1:9/']);
    expect(token.code).toBe(2);
    expect(token.stderr).toContain('crawl: --robots-token: expected a product token');
  });

  it('skips what is reserved for the purpose, writes records with the verdicts and a report with the sources', async () => {
    const out = join(dir, 'pages.jsonl');
    const report = join(dir, 'report.html');
    site.log.length = 0;
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--purpose',
      'ai-train',
      '--robots-token',
      'UsageBot-Training',
      '--delay',
      '0',
      '--log',
      'json',
      '--allow-net',
      '127.0.0.0/8',
      '--out',
      out,
      '--report',
      report,
      `${site.base}/`,
    ]);
    expect(result.code).toBe(0);
    // robots.txt lines: no request; the second token's Disallow: no request.
    expect(site.paths()).not.toContain('/train-no/x');
    expect(site.paths()).not.toContain('/secret');
    expect(site.paths()).toContain('/tdm-header');
    expect(site.paths().filter((path) => path === '/.well-known/tdmrep.json')).toHaveLength(1);
    const records = jsonLines(readFileSync(out, 'utf8')) as {
      url: string;
      usage: Record<string, string>;
      usageSources: string[];
    }[];
    expect(records.map((record) => new URL(record.url).pathname).sort()).toEqual(['/', '/open']);
    const open = records.find((record) => record.url.endsWith('/open'))!;
    expect(open.usage).toEqual({
      search: 'allowed',
      tdm: 'unknown',
      'ai-train': 'unknown',
      'ai-input': 'reserved',
      'ai-train-images': 'unknown',
    });
    expect(open.usageSources).toEqual(['robots.txt line 4 (UsageBot): Content-Signal: search=yes, ai-input=no']);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('<h4>Usage preferences</h4>');
    expect(html).toContain('<code>robots.txt line 3 (UsageBot): Content-Usage: /train-no/ train-ai=n</code>');
    expect(html).toContain('<code>header tdm-reservation: 1</code>');
    expect(html).toContain('<code>robots.txt line 4 (UsageBot): Content-Signal: search=yes, ai-input=no</code>');
    expect(html).toContain('0 (not a --purpose)');
    expect(html).toContain('--robots-token');
    const skips = jsonLines(result.stdout).filter((line) => (line as { event?: string }).event === 'skip') as {
      reason: string;
      url: string;
    }[];
    expect(
      skips
        .filter((skip) => skip.reason === 'usage-reserved')
        .map((skip) => new URL(skip.url).pathname)
        .sort(),
    ).toEqual(['/tdm-header', '/train-no/x']);
  });
});

describe('politely robots explain: usage verdicts', () => {
  let robotsFile = '';
  beforeAll(() => {
    robotsFile = join(dir, 'robots.txt');
    writeFileSync(robotsFile, ROBOTS);
  });

  it('prints each purpose with its deciding lines, and which token decided', async () => {
    const result = await runCli([
      'robots',
      'explain',
      '--robots',
      robotsFile,
      '--ua',
      UA,
      '--robots-token',
      'UsageBot-Training',
      'https://s.example/train-no/a',
      'https://s.example/secret',
    ]);
    expect(result.code).toBe(0);
    const [train, secret] = result.stdout.trim().split('\n\n');
    expect(train).toMatch(/^ALLOWED +https:\/\/s\.example\/train-no\/a\n/);
    expect(train).toContain("tokens:        'UsageBot', 'UsageBot-Training'");
    expect(train).toMatch(/usage: +search +allowed +line 4: Content-Signal: search=yes, ai-input=no/);
    expect(train).toMatch(/ai-train +reserved +line 3: Content-Usage: \/train-no\/ train-ai=n/);
    expect(train).toMatch(/ai-input +reserved +line 4: Content-Signal/);
    expect(train).toMatch(/tdm +unknown\n/);
    expect(secret).toMatch(/^DISALLOWED /);
    expect(secret).toContain("'UsageBot-Training' decided");
    expect(secret).toContain('decided by:    line 7: Disallow: /secret');
  });

  it('--json carries the verdicts with their lines; without usage lines it says so', async () => {
    const json = await runCli([
      'robots',
      'explain',
      '--json',
      '--robots',
      robotsFile,
      '--ua',
      UA,
      'https://s.example/train-no/a',
    ]);
    const [decision] = jsonLines(json.stdout) as {
      usage: Record<string, { status: string; sources: { line?: number; text: string }[] }>;
    }[];
    expect(decision!.usage['ai-train']).toEqual({
      status: 'reserved',
      sources: [
        { kind: 'robots-content-usage', line: 3, text: 'Content-Usage: /train-no/ train-ai=n', token: 'UsageBot' },
      ],
    });
    expect(decision!.usage['tdm']).toEqual({ status: 'unknown', sources: [] });
    const plain = join(dir, 'plain.txt');
    writeFileSync(plain, 'User-agent: *\nDisallow: /x\n');
    const human = await runCli(['robots', 'explain', '--robots', plain, '--ua', UA, 'https://s.example/a']);
    expect(human.stdout).toContain(
      'usage:         no Content-Usage or Content-Signal line applies: every purpose unknown',
    );
  });

  it('against a live robots.txt, with --robots-token', async () => {
    const result = await runCli([
      'robots',
      'explain',
      '--ua',
      UA,
      '--robots-token',
      'UsageBot-Training',
      '--allow-net',
      '127.0.0.0/8',
      `${site.base}/secret`,
      `${site.base}/train-no/a`,
    ]);
    expect(result.code).toBe(0);
    const [secret, train] = result.stdout.trim().split('\n\n');
    expect(secret).toMatch(/^DISALLOWED /);
    expect(secret).toContain('line 7: Disallow: /secret');
    expect(train).toMatch(/ai-train +reserved +line 3: Content-Usage/);
  });

  it('refuses a --robots-token that is not a product token', async () => {
    const result = await runCli([
      'robots',
      'explain',
      '--robots',
      robotsFile,
      '--ua',
      UA,
      '--robots-token',
      'a b',
      'https://s.example/',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('robots explain: --robots-token: expected a product token');
  });
});
