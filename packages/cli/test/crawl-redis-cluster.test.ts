// `politely crawl --store redis-cluster://… --crawl-id NAME`: two processes join one crawl kept in
// a Redis Cluster of the test's own (3 primaries, 3 replicas), as with one Redis; and a cluster
// that does not answer is one line naming its node.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalWeb, minGapMsByOrigin, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { deleteRedisCrawl } from '@politely/store-redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OwnRedisCluster,
  redisClusterToolsMissing,
  startRedisCluster,
} from '../../../test/support/redis-cluster.js';
import { freePort } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { jsonLines, runCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const missing = redisClusterToolsMissing();
if (missing !== null) console.warn(`[cli] crawl-redis-cluster: SKIPPED: ${missing}`);

describe.skipIf(skipWithout('redis-server and redis-cli', missing))('politely crawl --store redis-cluster://', () => {
  let cluster: OwnRedisCluster;
  let web: LocalWeb;
  let dir: string;
  const crawlId = `cli-cluster-${randomUUID()}`;
  beforeAll(async () => {
    cluster = await startRedisCluster();
    web = await startFleet({ hosts: 6, pagesPerHost: 8, crawlDelaySeconds: 0.2, firstAddress: 200 });
    dir = mkdtempSync(join(tmpdir(), 'politely-cluster-crawl-'));
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    if (cluster !== undefined) await deleteRedisCrawl({ redis: cluster.url, crawlId }).catch(() => {});
    await cluster?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('two processes with one --crawl-id fetch every allowed page once between them, politely', async () => {
    const seeds = web.hosts.map((host) => `${host.origin}/`);
    const outs = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    // Each process is given other seed nodes: any reachable node tells the rest.
    const urls = [cluster.nodes.slice(0, 2), cluster.nodes.slice(3, 5)].map(
      (nodes) => `redis-cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    );
    const results = await Promise.all(
      outs.map((out, i) =>
        runCli([
          'crawl',
          '--ua',
          UA,
          '--allow-net',
          '127.0.0.0/8',
          '--store',
          urls[i]!,
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
    const fetched = outs.flatMap((out) => jsonLines(readFileSync(out, 'utf8')).map((r) => (r as { url: string }).url));
    const expected = web.hosts.flatMap((host) => host.expectedAllowedPaths.map((path) => host.origin + path));
    expect(new Set(fetched)).toEqual(new Set(expected));
    expect(fetched.length).toBe(new Set(fetched).size);
    expect(violations(web, UA)).toEqual([]);
    for (const [origin, gap] of minGapMsByOrigin(web.requestLog())) expect(gap, origin).toBeGreaterThanOrEqual(200);
  }, 90_000);

  it('says in one line which node it could not reach', async () => {
    const port = await freePort();
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--store',
      `redis-cluster://127.0.0.1:${port}`,
      '--crawl-id',
      'x',
      '--allow-net',
      '127.0.0.0/8',
      `${web.hosts[0]!.origin}/`,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`cannot reach redis-cluster://127\\.0\\.0\\.1:${port} within .*127\\.0\\.0\\.1:${port}`),
    );
  }, 30_000);
});
