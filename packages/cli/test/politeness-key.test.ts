// `politely crawl --politeness-key ip`: twenty names served by one server (`--resolve` points them
// all at its address), crawled by two processes sharing one Redis crawl. The server's own log is
// the judge: never two requests closer than its crawl-delay, across all names and both workers.
// The report groups the names under their one key.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalWeb, minGapMs, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { deleteRedisCrawl } from '@politely/store-redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { REDIS_URL, redisDown } from './redis-available.js';
import { jsonLines, runCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const NAMES = Array.from({ length: 20 }, (_, i) => `tenant-${i}.hosting.test`);

const downReason = await redisDown();
if (downReason !== null) console.warn(`[cli] politeness-key: Redis SKIPPED: no Redis at ${REDIS_URL}: ${downReason}`);

describe('politely crawl --politeness-key', () => {
  let web: LocalWeb;
  let dir: string;
  const crawlId = `key-test-${randomUUID()}`;
  beforeAll(async () => {
    // One host of the fleet: one server, one address; its robots.txt asks for 0.1 s between requests.
    web = await startFleet({ hosts: 1, pagesPerHost: 3, crawlDelaySeconds: 0.1, firstAddress: 80 });
    dir = mkdtempSync(join(tmpdir(), 'politely-key-'));
  });
  afterAll(async () => {
    await web.close();
    if (downReason === null) await deleteRedisCrawl({ redis: REDIS_URL, crawlId });
    rmSync(dir, { recursive: true, force: true });
  });

  const host = () => web.hosts[0]!;
  const seeds = () => NAMES.map((name) => `http://${name}:${host().port}/`);
  const resolveArgs = () => NAMES.flatMap((name) => ['--resolve', `${name}:${host().address}`]);
  const pagesPerName = () => host().expectedAllowedPaths.length;

  it.skipIf(skipWithout('Redis (REDIS_URL)', downReason))(
    'ip, two Redis workers: every name crawled once between them, and the shared server never sees two requests within its crawl-delay',
    async () => {
      web.resetLogs();
      const outs = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
      const report = join(dir, 'a.html');
      const results = await Promise.all(
        outs.map((out, i) =>
          runCli([
            'crawl',
            '--ua',
            UA,
            '--allow-net',
            '127.0.0.0/8',
            '--store',
            REDIS_URL,
            '--crawl-id',
            crawlId,
            '--delay',
            '0',
            '--scope',
            'any',
            '--politeness-key',
            'ip',
            ...resolveArgs(),
            '--out',
            out,
            ...(i === 0 ? ['--report', report] : []),
            ...seeds(),
          ]),
        ),
      );
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      const urls = outs.flatMap((out) => jsonLines(readFileSync(out, 'utf8')).map((r) => (r as { url: string }).url));
      expect(urls.length).toBe(NAMES.length * pagesPerName());
      expect(new Set(urls).size).toBe(urls.length);
      // One server: its log is every request of both workers, to every name.
      const log = web.requestLog();
      expect(log.filter((entry) => entry.path === '/robots.txt')).toHaveLength(NAMES.length);
      expect(minGapMs(log)).toBeGreaterThanOrEqual(98);
      expect(violations(web, UA)).toEqual([]);
      // The report of one worker: one key, the server's address, with the names it saw under it.
      const html = readFileSync(report, 'utf8');
      expect(html).toContain(`${host().address}`);
      expect(html).toMatch(/one politeness key: \d+ host names/);
    },
  );

  it('host (the default): the same names crawled at once, each on its own clock, crowd the one server', async () => {
    web.resetLogs();
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '0',
      '--scope',
      'any',
      ...resolveArgs(),
      ...seeds().slice(0, 10),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(minGapMs(web.requestLog())).toBeLessThan(50);
  });

  it('refuses an unknown key and a --resolve that is not NAME:ADDRESS', async () => {
    const key = await runCli(['crawl', '--ua', UA, '--politeness-key', 'server', 'http://a.test/']);
    expect(key).toMatchObject({
      code: 2,
      stderr: 'politely: crawl: --politeness-key: expected one of host, domain, ip, got "server"\n',
    });
    const resolve = await runCli(['crawl', '--ua', UA, '--resolve', 'a.test=127.0.0.1', 'http://a.test/']);
    expect(resolve.code).toBe(2);
    expect(resolve.stderr).toMatch(/^politely: crawl: --resolve: expected NAME:ADDRESS/);
  });
});
