// Bytes per done URL in Redis once EVERY URL of the crawl is done (issue 31: ≤ 24 bytes per
// seen-and-done URL). scale.bench.js measures done URLs by a sample claimed among many still
// queued, which also counts what the queues' hash tables keep after a member leaves; here the
// whole crawl is claimed and completed (no LastFetch, as without `recrawl`), so what is left is
// what done URLs cost: the seen tables, and each host's small state (10,000 hosts).
// A redis-server of its own (no persistence), stopped at the end.
//
//   node bench/redis-done-bytes.bench.js [URLs, default 100000] [claim loops, default 16]
//
// The claims run in that many loops at once (one client, its commands pipelined), so that 10
// million URLs are done in minutes rather than hours; what is measured is memory, not speed.

import { createRedisFrontierStore } from '@politely/store-redis';
import { startRedisServer } from '../test/support/redis-launch.js';
import { averageUrlChars, HOSTS, LINKS_PER_PAGE, pageLinks, redisCli, round } from './scale-workload.js';

const urls = Number(process.argv[2] ?? 100_000);
const loops = Math.max(1, Number(process.argv[3] ?? 16));
const redis = await startRedisServer();
try {
  const used = () => Number(/used_memory:(\d+)/.exec(redisCli(redis.node, 'INFO', 'memory'))[1]);
  const store = createRedisFrontierStore({ redis: `redis://${redis.node}`, crawlId: 'done-bytes' });
  await store.ready();
  const before = used();
  const pages = Math.ceil(urls / LINKS_PER_PAGE);
  for (let page = 0; page < pages; page++) await store.add(pageLinks(page));
  const queued = used();
  let done = 0;
  const claimLoop = async () => {
    for (;;) {
      const { lease } = await store.claim({ now: Date.now(), leaseMs: 600_000 });
      if (lease === null) return;
      await store.complete(lease.id);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: loops }, claimLoop));
  const claimSeconds = (performance.now() - started) / 1000;
  const after = used();
  await store.close();
  console.log(
    JSON.stringify({
      urls: pages * LINKS_PER_PAGE,
      hosts: HOSTS,
      averageUrlChars: round(averageUrlChars(), 1),
      done,
      bytesPerQueuedUrl: round((queued - before) / (pages * LINKS_PER_PAGE), 1),
      bytesPerDoneUrlAllDone: round((after - before) / done, 1),
      claimLoops: loops,
      claimsPerSecond: Math.round(done / claimSeconds),
    }),
  );
} finally {
  await redis.stop();
}
