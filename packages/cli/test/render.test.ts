// `politely crawl --render`: the render web crawled by the real command, pages rendered in
// Chromium. The records hold the rendered titles; the servers' logs show nothing robots.txt
// disallows, on the app or the third-party script host, every request with the crawler's
// User-Agent and each host's delay kept; the report counts the rendering per host. Ctrl-C leaves
// no Chromium behind.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { minGapMsByOrigin, type RenderWeb, renderManifest, startRenderWeb, violations } from '@politely/demo-web';
import { deleteRedisCrawl } from '@politely/store-redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { REDIS_URL, redisDown } from './redis-available.js';
import { jsonLines, runCli, startCli } from './run-cli.js';

const downReason = await redisDown();
if (downReason !== null) console.warn(`[cli] render: Redis SKIPPED: no Redis at ${REDIS_URL}: ${downReason}`);

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';

let web: RenderWeb;
let dir: string;

beforeAll(async () => {
  web = await startRenderWeb({ firstAddress: 170 });
  dir = mkdtempSync(join(tmpdir(), 'politely-render-cli-'));
});

afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Live (not zombie) processes whose parent chain reaches `ancestor`. */
function descendantsOf(ancestor: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') parents.set(Number(name), Number(fields[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  for (const pid of parents.keys()) {
    let at: number | undefined = pid;
    for (let hops = 0; at !== undefined && at > 1 && hops < 64; hops++) {
      at = parents.get(at);
      if (at === ancestor) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('politely crawl --render', () => {
  it('renders the JavaScript site: rendered titles in the records, every request polite, the rendering in the report', async () => {
    web.resetLogs();
    const out = join(dir, 'pages.jsonl');
    const report = join(dir, 'report.html');
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--render',
      '--delay',
      '150ms',
      '--concurrency',
      '4',
      '--store',
      `sqlite:${join(dir, 'crawl.db')}`,
      '--out',
      out,
      '--report',
      report,
      '--log',
      'plain',
      web.entryUrl,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const truth = renderManifest(web);
    const records = jsonLines(readFileSync(out, 'utf8')) as { finalUrl: string; title: string | null }[];
    expect(Object.fromEntries(records.map((record) => [record.finalUrl, record.title]))).toEqual(truth.renderedTitles);
    expect(result.stdout).toMatch(
      /rendered\s+\d+ pages; \d+ sub-requests sent, \d+ answered by the cache, not sent: .*robots \d+/,
    );

    const log = web.requestLog();
    expect(violations(web, UA)).toEqual([]);
    expect(log.filter((entry) => entry.userAgent !== UA)).toEqual([]);
    expect(log.filter((entry) => entry.path.startsWith('/live') || entry.path.startsWith('/images/'))).toEqual([]);
    const gaps = minGapMsByOrigin(log);
    expect(gaps.get(web.host('app').origin)).toBeGreaterThanOrEqual(148);
    expect(gaps.get(web.host('cdn').origin)).toBeGreaterThanOrEqual(198);
    // The script host's robots.txt came first, and its one allowed script was fetched.
    const cdn = log.filter((entry) => entry.origin === web.host('cdn').origin);
    expect(cdn[0]?.path).toBe('/robots.txt');
    expect(cdn.map((entry) => entry.path)).toContain('/lib/widget.js');

    const html = readFileSync(report, 'utf8');
    expect(html).toContain('Rendering (every sub-request is in the timeline and the gap check above)');
    expect(html).toMatch(/pages rendered<\/th>/);
    expect(html).not.toContain('gaps shorter than the delay');
  }, 120_000);

  it.skipIf(skipWithout('Redis (REDIS_URL)', downReason))(
    'two workers on one Redis crawl: every page rendered once between them, and each server sees its delay kept across both, sub-requests included',
    async () => {
      web.resetLogs();
      const crawlId = `render-test-${randomUUID()}`;
      const outs = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
      try {
        const results = await Promise.all(
          outs.map((out) =>
            runCli([
              'crawl',
              '--ua',
              UA,
              '--allow-net',
              '127.0.0.0/8',
              '--render',
              '--delay',
              '150ms',
              '--concurrency',
              '2',
              '--store',
              REDIS_URL,
              '--crawl-id',
              crawlId,
              '--out',
              out,
              '--log',
              'plain',
              web.entryUrl,
            ]),
          ),
        );
        for (const result of results) expect(result.code, result.stderr).toBe(0);
      } finally {
        await deleteRedisCrawl({ redis: REDIS_URL, crawlId });
      }
      const records = outs.flatMap(
        (out) => jsonLines(readFileSync(out, 'utf8')) as { finalUrl: string; title: string | null }[],
      );
      expect(records.length).toBe(new Set(records.map((record) => record.finalUrl)).size);
      expect(Object.fromEntries(records.map((record) => [record.finalUrl, record.title]))).toEqual(
        renderManifest(web).renderedTitles,
      );
      const log = web.requestLog();
      expect(violations(web, UA)).toEqual([]);
      const gaps = minGapMsByOrigin(log);
      expect(gaps.get(web.host('app').origin)).toBeGreaterThanOrEqual(148);
      expect(gaps.get(web.host('cdn').origin)).toBeGreaterThanOrEqual(198);
    },
    120_000,
  );

  it('leaves no Chromium process behind on Ctrl-C', async () => {
    const running = startCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--render',
      '--delay',
      '300ms',
      '--log',
      'plain',
      web.entryUrl,
    ]);
    const pid = running.child.pid!;
    let browsers: number[] = [];
    for (let tries = 0; tries < 200 && browsers.length === 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      browsers = descendantsOf(pid);
    }
    expect(browsers.length).toBeGreaterThan(0);
    await running.waitFor(/200 /, 30_000);
    running.child.kill('SIGINT');
    const result = await running.done;
    expect(result.stdout + result.stderr).toMatch(/interrupted/i);
    // Chromium's helpers are reaped by the system in their own time: wait for them, boundedly.
    for (let tries = 0; tries < 100 && browsers.some(alive); tries++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(browsers.filter(alive)).toEqual([]);
  }, 60_000);

  it('refuses the render options without --render, naming them', async () => {
    const result = await runCli(['crawl', '--ua', UA, '--render-wait', 'load', 'http://a.test/']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--render-wait sets how pages are rendered: give --render too');
    const wait = await runCli(['crawl', '--ua', UA, '--render', '--render-wait', 'idle', 'http://a.test/']);
    expect(wait.code).toBe(2);
    expect(wait.stderr).toContain('--render-wait');
  });
});
