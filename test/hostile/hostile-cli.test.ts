// `politely crawl` over the hostile web, run as a user runs it (the real bin, in a child
// process): it finishes with exit code 0, its results file holds every good page, and its log
// reports every bad case.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostileWeb, startHostileWeb } from '@politely/local-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../../packages/cli/test/run-cli.js';
import { disallowedRequests, unmetExpectations } from './judge.js';

interface LogLine {
  readonly event: string;
  readonly url?: string;
  readonly reason?: string;
  readonly willRetry?: boolean;
  readonly skipped?: Record<string, number>;
  readonly errors?: number;
  readonly interrupted?: boolean;
}

let web: HostileWeb;
let dir: string;
beforeAll(async () => {
  web = await startHostileWeb({ firstAddress: 70 }); // beside, not on, the API test's web
  dir = mkdtempSync(join(tmpdir(), 'politely-hostile-'));
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('politely crawl over the hostile web', () => {
  it('finishes, keeps every good page in its results file and logs every bad case', async () => {
    const out = join(dir, 'pages.jsonl');
    const result = await runCli([
      'crawl',
      '--ua',
      'PolitelyDemo/0.1 (+https://example.invalid/bot)',
      '--allow-net',
      '127.0.0.0/8',
      '--scope',
      'any',
      '--delay',
      '50',
      '--timeout',
      '2000',
      '--retries',
      '1',
      '--out',
      out,
      '--log',
      'json',
      web.entryUrl,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const records = jsonLines(readFileSync(out, 'utf8')) as { url: string; finalUrl: string; status: number }[];
    const lines = jsonLines(result.stdout) as LogLine[];
    const summary = lines.find((line) => line.event === 'summary');
    expect(summary?.interrupted).toBe(false);
    const skips = lines
      .filter((line) => line.event === 'skip')
      .map((line) => ({ url: line.url!, reason: line.reason! }));
    const errors = lines.filter((line) => line.event === 'error' && line.willRetry === false).map((line) => line.url!);
    const problems = unmetExpectations(
      web,
      {
        pages: records.filter((record) => record.status === 200).map((record) => record.finalUrl),
        skips,
        errors,
      },
      { ignoreSkipReasons: ['duplicate'] },
    );
    // The log leaves out duplicate skips (noise at scale): the redirect loop is checked on the
    // server's log instead, each of its two URLs requested once.
    const loopPaths = web
      .requestLog()
      .map((request) => request.path)
      .filter((path) => path.startsWith('/redirect/loop/'));
    expect(loopPaths.sort()).toEqual(['/redirect/loop/a', '/redirect/loop/b']);
    expect(summary?.skipped?.duplicate).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    expect(summary?.errors).toBe(errors.length);
    expect(disallowedRequests(web)).toEqual([]);
  }, 120_000);
});
