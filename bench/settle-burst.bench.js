// Completions that pile up (issue 34, item 3): 64 async loops in one process claim and complete
// on one Redis store as fast as it answers, with no fetch or parsing between (the case where
// completions of one bucket wait behind each other: a burst, or a slow link to Redis). Each page
// has three links, all seen already (duplicates), so the work is fixed: HOSTS × PAGES pages.
// Counts the commands the process writes (redis-wire-count.js) per page, by script (known by its
// sha, or its text when ioredis sends it as EVAL: the store's built scripts), the process's CPU
// per page and pages/s, on a redis-server of its own (test/support/redis-launch.js), stopped at
// the end. Runs whatever packages/store-redis/dist holds: build the code to measure first.
//
//   node bench/settle-burst.bench.js        (a few seconds per rep)
//
// Environment: BURST_HOSTS × BURST_PAGES (default 20 × 200), BURST_LOOPS (default 64),
// BURST_REPS (default 3; medians printed). Prints one line per rep and the medians; writes nothing.

import { createHash, randomUUID } from 'node:crypto';
import { createRedisFrontierStore } from '@politely/store-redis';
import { CRAWL_SCRIPTS } from '../packages/store-redis/dist/crawl-scripts.js';
import { BUCKET_SCRIPTS } from '../packages/store-redis/dist/frontier-scripts.js';
import { redisToolsMissing, startRedisServer } from '../test/support/redis-launch.js';
import { formatFixed, formatInteger, median } from './harness.js';
import { countRedisWrites } from './redis-wire-count.js';

const HOSTS = Number(process.env.BURST_HOSTS ?? 20);
const PAGES = Number(process.env.BURST_PAGES ?? 200);
const LOOPS = Number(process.env.BURST_LOOPS ?? 64);
const REPS = Math.max(1, Number(process.env.BURST_REPS ?? 3));
/** A claim that finds nothing ready (the others hold the last URLs) asks again this much later. */
const IDLE_MS = 1;

const missing = redisToolsMissing();
if (missing !== null) {
  console.log(`settle-burst: skipped (${missing})`);
  process.exit(0);
}

/** The store's scripts by sha and by text: what a command written runs. */
const scriptNames = new Map();
for (const [name, lua] of Object.entries({ ...BUCKET_SCRIPTS, ...CRAWL_SCRIPTS })) {
  scriptNames.set(createHash('sha1').update(lua).digest('hex'), name);
  scriptNames.set(lua, name);
}
/** Commands written, by script name (or command name). */
const written = new Map();
countRedisWrites((name, args) => {
  const what = name === 'evalsha' || name === 'eval' ? (scriptNames.get(String(args[0])) ?? name) : name;
  written.set(what, (written.get(what) ?? 0) + 1);
});
const total = (counts) => [...counts.values()].reduce((sum, n) => sum + n, 0);

const hostOf = (h) => `h${h}.burst.test`;
const entry = (h, p) => ({ url: `http://${hostOf(h)}/p${p}`, hostKey: hostOf(h), depth: 0, priority: 0 });

/** One crawl of HOSTS × PAGES pages by LOOPS loops; its figures. */
async function burst(url) {
  const store = createRedisFrontierStore({
    redis: url,
    crawlId: `settle-burst-${randomUUID()}`,
    defaultHostPolicy: { delayMs: 0, maxInFlight: LOOPS },
  });
  const seeds = [];
  for (let h = 0; h < HOSTS; h++) for (let p = 0; p < PAGES; p++) seeds.push(entry(h, p));
  await store.add(seeds);
  let claimed = 0;
  let pages = 0;
  written.clear();
  const [cpu0, t0] = [process.cpuUsage(), performance.now()];
  // A loop stops once every URL is claimed, so that no claim asks an empty crawl at the end
  // (each would refresh the store's view: a script per bucket, noise beside the settles).
  const loop = async () => {
    for (let tries = 0; claimed < seeds.length && tries < 10 * seeds.length; tries++) {
      const { lease } = await store.claim({ now: Date.now(), leaseMs: 60_000 });
      if (lease === null) {
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        continue;
      }
      claimed++;
      const h = Number(/^h(\d+)\./.exec(lease.entry.hostKey)[1]);
      const p = Number(/\/p(\d+)$/.exec(lease.entry.url)[1]);
      await store.complete(lease.id, { add: [1, 2, 3].map((d) => entry(h, (p + d) % PAGES)) });
      pages++;
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, loop));
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const figures = {
    pages,
    pagesPerSecond: (pages / wallMs) * 1000,
    cpuMsPerPage: (cpu.user + cpu.system) / 1000 / pages,
    roundTripsPerPage: total(written) / pages,
    byScript: Object.fromEntries([...written].map(([name, n]) => [name, n / pages])),
  };
  await store.close();
  return figures;
}

const server = await startRedisServer();
const runs = [];
try {
  console.log(`settle-burst: ${HOSTS} hosts × ${PAGES} pages, ${LOOPS} loops claiming and completing, ${REPS} rep(s)`);
  for (let rep = 0; rep < REPS; rep++) {
    const f = await burst(server.url);
    runs.push(f);
    const scripts = Object.entries(f.byScript).map(([name, n]) => `${name} ${formatFixed(n, 3)}`);
    console.log(
      `  rep ${rep + 1}: ${f.pages} pages, ${formatInteger(f.pagesPerSecond)} pages/s, ${formatFixed(f.cpuMsPerPage, 3)} ms CPU/page, ` +
        `${formatFixed(f.roundTripsPerPage, 3)} round trips/page (${scripts.join(', ')})`,
    );
  }
} finally {
  await server.stop();
}
const mid = (of) => median(runs.map(of));
const names = [...new Set(runs.flatMap((f) => Object.keys(f.byScript)))];
const scripts = names.map(
  (name) =>
    `${name} ${formatFixed(
      mid((f) => f.byScript[name] ?? 0),
      3,
    )}`,
);
console.log(
  `  median: ${formatInteger(mid((f) => f.pagesPerSecond))} pages/s, ${formatFixed(
    mid((f) => f.cpuMsPerPage),
    3,
  )} ms CPU/page, ` +
    `${formatFixed(
      mid((f) => f.roundTripsPerPage),
      3,
    )} round trips/page (${scripts.join(', ')})`,
);
