// `politely crawl --store redis://… --crawl-id NAME`: two processes join one crawl and share its
// frontier, dedupe set, host clocks and robots.txt cache (checked against the servers' logs).

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalWeb, minGapMsByOrigin, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { deleteRedisCrawl } from '@politely/store-redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { REDIS_URL, redisDown } from './redis-available.js';
import { jsonLines, runCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';

const downReason = await redisDown();
if (downReason !== null) console.warn(`[cli] crawl-redis: SKIPPED: no Redis at ${REDIS_URL}: ${downReason}`);

describe.skipIf(skipWithout('Redis (REDIS_URL)', downReason))(
  `politely crawl --store redis://${downReason === null ? '' : ` [SKIPPED: ${downReason}]`}`,
  () => {
    let web: LocalWeb;
    let dir: string;
    const crawlId = `cli-test-${randomUUID()}`;
    beforeAll(async () => {
      web = await startFleet({ hosts: 3, pagesPerHost: 12, crawlDelaySeconds: 0.2, firstAddress: 60 });
      dir = mkdtempSync(join(tmpdir(), 'politely-redis-crawl-'));
    });
    afterAll(async () => {
      await web.close();
      await deleteRedisCrawl({ redis: REDIS_URL, crawlId });
      rmSync(dir, { recursive: true, force: true });
    });

    it('two processes with one --crawl-id fetch every allowed page once between them, politely', async () => {
      const seeds = web.hosts.map((host) => `${host.origin}/`);
      const outs = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
      const results = await Promise.all(
        outs.map((out) =>
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
            '--out',
            out,
            ...seeds,
          ]),
        ),
      );
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      const urls = outs.flatMap((out) => jsonLines(readFileSync(out, 'utf8')).map((r) => (r as { url: string }).url));
      const expected = web.hosts.flatMap((host) => host.expectedAllowedPaths.map((path) => host.origin + path));
      expect(new Set(urls)).toEqual(new Set(expected));
      expect(urls.length).toBe(new Set(urls).size); // no page fetched by both
      expect(violations(web, UA)).toEqual([]);
      for (const [origin, gap] of minGapMsByOrigin(web.requestLog())) expect(gap, origin).toBeGreaterThanOrEqual(200);
      for (const host of web.hosts) {
        expect(web.requestLog(host.origin).filter((entry) => entry.path === '/robots.txt')).toHaveLength(1);
      }
    });
  },
);
