// Pages per second of one Redis-backed crawl shared by 1, 2 and 4 worker processes, on a local
// fleet of many hosts (127.0.0.x) with no crawl-delay and minDelayMs 0, the same crawl each
// time. Each worker is packages/store-redis/test/fixtures/crawl-worker.mjs (the built packages:
// `pnpm build` first). The rate is measured by the servers: pages logged over the time from the
// first to the last request; the wall time also counts process start-up.
//
// The fleet is served by this process, and fleet, Redis and workers share the machine's CPUs, so
// the crawl figures say as much about the machine as about the store. A second table measures
// the store alone: N processes claiming and completing URLs of one crawl (no HTTP), which is the
// ceiling the Redis frontier puts on a crawl.
//
//   node bench/redis-workers.bench.js            (REDIS_URL, default redis://127.0.0.1:6379)
//
// Prints two tables and writes bench/results/redis-workers.json.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';
import { createRedisFrontierStore, deleteRedisCrawl } from '../packages/store-redis/dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const WORKER = join(here, '../packages/store-redis/test/fixtures/crawl-worker.mjs');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const USER_AGENT = 'PolitelyBench/1.0 (+https://example.test/bench)';
const FLEET = { hosts: 60, pagesPerHost: 30, firstAddress: 100 };
const STORE_ONLY = { hosts: 200, urls: 10_000 };
const WORKER_COUNTS = [1, 2, 4];
const CONCURRENCY_PER_WORKER = 16;
const RUN_TIMEOUT_MS = 40_000;

function runWorker(config) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(new Error(`worker ended with ${signal ?? `code ${code}`}: ${stderr.slice(0, 2000)}`));
      const done = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .find((event) => event.type === 'done');
      resolve(done?.stats);
    });
  });
}

async function crawlWith(web, workers) {
  const crawlId = `bench-${workers}-${randomUUID()}`;
  const config = {
    redisUrl: REDIS_URL,
    crawlId,
    seeds: web.hosts.map((host) => `${host.origin}/`),
    userAgent: USER_AGENT,
    minDelayMs: 0,
    concurrency: CONCURRENCY_PER_WORKER,
    leaseMs: 60_000,
    idlePollMs: 10,
  };
  web.resetLogs();
  const started = performance.now();
  try {
    const stats = await Promise.all(Array.from({ length: workers }, () => runWorker(config)));
    const wallMs = performance.now() - started;
    const log = web.requestLog();
    const pages = log.filter((r) => r.path !== '/robots.txt');
    const times = log.map((r) => r.atMs);
    const spanMs = Math.max(...times) - Math.min(...times);
    const expected = web.hosts.reduce((sum, host) => sum + host.expectedAllowedPaths.length, 0);
    const distinct = new Set(pages.map((r) => r.origin + r.path)).size;
    return {
      workers,
      pages: pages.length,
      expectedPages: expected,
      missing: expected - distinct,
      duplicates: pages.length - distinct,
      robotsRequests: log.length - pages.length,
      violations: violations(web, USER_AGENT).length,
      spanMs: Math.round(spanMs),
      wallMs: Math.round(wallMs),
      pagesPerSecond: Math.round((pages.length / spanMs) * 1000),
      pagesPerSecondWall: Math.round((pages.length / wallMs) * 1000),
      pagesPerWorker: stats.map((s) => s?.pages ?? 0),
    };
  } finally {
    await deleteRedisCrawl({ redis: REDIS_URL, crawlId });
  }
}

/** In a child process (`--store-worker <config>`): claims and completes URLs until the crawl is drained. */
async function storeWorker(config) {
  const store = createRedisFrontierStore({ redis: REDIS_URL, crawlId: config.crawlId, idlePollMs: 5 });
  let claimed = 0;
  for (;;) {
    const result = await store.claim({ now: Date.now(), leaseMs: 60_000 });
    if (result.lease === null) {
      if (result.nextReadyAt === null) break;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, result.nextReadyAt - Date.now())));
      continue;
    }
    claimed++;
    await store.complete(result.lease.id, { hostReadyAt: Date.now() });
  }
  await store.close();
  process.stdout.write(`${JSON.stringify({ claimed })}\n`);
}

/** N processes draining one crawl of STORE_ONLY.urls URLs: claims per second, all processes together. */
async function storeOnlyWith(processes) {
  const crawlId = `bench-store-${processes}-${randomUUID()}`;
  const seeder = createRedisFrontierStore({ redis: REDIS_URL, crawlId });
  try {
    const entries = Array.from({ length: STORE_ONLY.urls }, (_, i) => {
      const host = `h${i % STORE_ONLY.hosts}.bench`;
      return { url: `http://${host}/${i}`, hostKey: host, depth: 0, priority: 0 };
    });
    await seeder.add(entries);
    const started = performance.now();
    const claims = await Promise.all(
      Array.from(
        { length: processes },
        () =>
          new Promise((resolve, reject) => {
            const child = spawn(
              process.execPath,
              [fileURLToPath(import.meta.url), '--store-worker', JSON.stringify({ crawlId })],
              { stdio: ['ignore', 'pipe', 'inherit'] },
            );
            let out = '';
            child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
            child.once('exit', (code) =>
              code === 0 ? resolve(JSON.parse(out).claimed) : reject(new Error(`store worker exited with ${code}`)),
            );
          }),
      ),
    );
    const ms = performance.now() - started;
    const counts = await seeder.counts();
    return {
      processes,
      urls: STORE_ONLY.urls,
      done: counts.done,
      claimsPerSecond: Math.round((STORE_ONLY.urls / ms) * 1000),
      ms: Math.round(ms),
      perProcess: claims,
    };
  } finally {
    await seeder.close();
    await deleteRedisCrawl({ redis: REDIS_URL, crawlId });
  }
}

if (process.argv[2] === '--store-worker') {
  await storeWorker(JSON.parse(process.argv[3]));
  process.exit(0);
}

const loadBefore = loadavg();
const web = await startFleet({ ...FLEET, userAgent: 'PolitelyBench' });
const results = [];
try {
  await crawlWith(web, 1); // warm-up: OS caches, Redis script cache, the fleet's pages
  for (const workers of WORKER_COUNTS) results.push(await crawlWith(web, workers));
} finally {
  await web.close();
}
const storeResults = [];
for (const processes of WORKER_COUNTS) storeResults.push(await storeOnlyWith(processes));

const loadAfter = loadavg();
const load = `load average ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after`;
console.log(
  `Redis workers: ${FLEET.hosts} hosts × ${FLEET.pagesPerHost} pages, no crawl-delay, minDelayMs 0, concurrency ${CONCURRENCY_PER_WORKER} per worker, ${cpus().length} CPUs shared by fleet, Redis and workers (${load})`,
);
console.table(
  results.map((r) => ({
    workers: r.workers,
    pages: r.pages,
    'pages/s (server)': r.pagesPerSecond,
    'pages/s (wall)': r.pagesPerSecondWall,
    'span ms': r.spanMs,
    'wall ms': r.wallMs,
    'per worker': r.pagesPerWorker.join(' / '),
    missing: r.missing,
    duplicates: r.duplicates,
    'robots.txt': r.robotsRequests,
    violations: r.violations,
  })),
);
console.log(
  `Store alone: ${STORE_ONLY.urls} URLs over ${STORE_ONLY.hosts} hosts (delay 0, one in flight per host), claim + complete, N processes`,
);
console.table(
  storeResults.map((r) => ({
    processes: r.processes,
    'claims/s': r.claimsPerSecond,
    ms: r.ms,
    done: r.done,
    'per process': r.perProcess.join(' / '),
  })),
);
const out = join(here, 'results', 'redis-workers.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ benchmark: 'redis-workers', date: new Date().toISOString(), node: process.version, cpus: cpus().length, loadAverage: { before: loadBefore, after: loadAfter }, fleet: FLEET, concurrencyPerWorker: CONCURRENCY_PER_WORKER, results, storeOnly: { ...STORE_ONLY, results: storeResults } }, null, 2)}\n`,
);
console.log(`wrote ${out}`);
if (
  results.some((r) => r.missing > 0 || r.violations > 0 || r.robotsRequests !== FLEET.hosts) ||
  storeResults.some((r) => r.done !== r.urls)
) {
  console.error('a crawl missed pages, fetched robots.txt more than once per origin, or broke robots.txt');
  process.exit(1);
}
