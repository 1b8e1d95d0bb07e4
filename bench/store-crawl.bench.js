// Each frontier store on realistic pages (issue 13): the same politely crawl of the realistic
// fleet with the memory store, the SQLite store (a file in a temp dir, with its robots cache in
// the same file) and the Redis store (one worker; frontier and robots cache on one connection,
// under a unique crawl id deleted afterwards). As in crawler-run.js, the crawler runs in its own
// process (crawler-contestant.js) and the fleet in another (crawler-fleet-server.js), and pages
// are counted from the servers' logs.
//
// Per store: pages/s, CPU ms per page (the crawler process's CPU time / pages), its ratio to the
// memory store's (goal: SQLite or Redis within 1.3×), peak RSS, GC share, and the calls made per
// page: every method call of the frontier store and the robots cache (counted by wrapping the
// store objects the crawler is given: the calls pass through unchanged), claims that found
// nothing ready apart, and for Redis the commands sent on the connection (round trips).
//
//   node bench/store-crawl.bench.js       (~1 minute; REDIS_URL, default redis://127.0.0.1:6379)
//
// Environment: BENCH_STORE_HOSTS × BENCH_STORE_PAGES (default 20 × 150 realistic pages),
// BENCH_STORE_KINDS=memory,sqlite,redis, BENCH_STORE_REPS (default 1; stores alternate, medians
// reported). Redis unreachable: its row says so and the others run. Prints tables and writes
// bench/results/store-crawl.json.

import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisLink, deleteRedisCrawl } from '@politely/store-redis';

import { formatFixed, formatInteger, formatTable, machineEnvironment, median } from './harness.js';
import { FLEET_URL_PATTERN, frontPages, runContestant, startFleetServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'store-crawl.json');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const FLEET = {
  hosts: Number(process.env.BENCH_STORE_HOSTS ?? 20),
  pagesPerHost: Number(process.env.BENCH_STORE_PAGES ?? 150),
  pageProfile: 'realistic',
};
const KINDS = (process.env.BENCH_STORE_KINDS ?? 'memory,sqlite,redis').split(',');
const REPS = Math.max(1, Number(process.env.BENCH_STORE_REPS ?? 1));
/** As in crawler-run.js (a): 64 requests in flight, no per-host cap beyond that, no delay. */
const CONCURRENCY = 64;
const RUN_TIMEOUT_MS = 300_000;
/** Issue 13: a durable store (SQLite, or Redis with one worker) within 1.3× memory's CPU per page. */
const CPU_RATIO_GOAL = 1.3;

/** The store a crawl uses, and what to remove when it is over. */
function storeFor(kind) {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(os.tmpdir(), 'politely-bench-store-'));
    return {
      spec: { kind, path: join(dir, 'frontier.db') },
      cleanUp: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (kind === 'redis') {
    const crawlId = `politely-bench-store-${randomUUID()}`;
    return {
      spec: { kind, redisUrl: REDIS_URL, crawlId },
      cleanUp: () => deleteRedisCrawl({ redis: REDIS_URL, crawlId }),
    };
  }
  return { spec: { kind }, cleanUp: async () => {} };
}

async function redisReachable() {
  const link = createRedisLink(REDIS_URL, { connectTimeoutMs: 2000 });
  try {
    await link.ready();
    return true;
  } catch {
    return false;
  } finally {
    await link.close().catch(() => {});
  }
}

/** One crawl of a fresh realistic fleet with the store of `kind`. */
async function crawlWith(kind) {
  const server = await startFleetServer([FLEET]);
  const store = storeFor(kind);
  try {
    const result = await runContestant(
      {
        contestant: 'politely',
        userAgent: USER_AGENT,
        scopePattern: FLEET_URL_PATTERN,
        seeds: frontPages(server.fleets[0]),
        concurrency: CONCURRENCY,
        perHostConcurrency: CONCURRENCY,
        sameDomainDelaySecs: 0,
        store: store.spec,
      },
      RUN_TIMEOUT_MS,
    );
    const { logs, server: serverCpu } = await server.report(USER_AGENT);
    return figuresOf(kind, result, logs[0], serverCpu);
  } finally {
    await server.close();
    await store.cleanUp();
  }
}

function figuresOf(kind, run, log, serverCpu) {
  const pages = log.pagesOk;
  const perPage = Object.fromEntries(Object.entries(run.storeCalls).map(([name, calls]) => [name, calls / pages]));
  const sum = (prefix) =>
    Object.entries(run.storeCalls)
      .filter(([name]) => name.startsWith(prefix) && !name.includes('nothing ready'))
      .reduce((total, [, calls]) => total + calls, 0);
  return {
    kind,
    pages,
    expectedPages: FLEET.hosts * FLEET.pagesPerHost,
    repeatedRequests: log.repeatedRequests,
    robotsViolations: log.robotsViolations,
    wallMs: run.wallMs,
    pagesPerSecond: pages / (run.wallMs / 1000),
    cpuMs: run.cpuMs,
    cpuMsPerPage: run.cpuMs / pages,
    peakRssMb: run.peakRssBytes / 1024 / 1024,
    gcShareOfCpu: run.gc.shareOfCpu,
    serverCpuMsPerPage: serverCpu.cpuMs / pages,
    storeCallsPerPage: sum('store.') / pages,
    robotsCacheCallsPerPage: sum('robotsCache.') / pages,
    redisCommandsPerPage: kind === 'redis' ? sum('redis.') / pages : null,
    callsPerPage: perPage,
    calls: run.storeCalls,
  };
}

/** Medians over the reps of one store. */
function summary(runs) {
  const mid = (pick) => median(runs.map(pick));
  return {
    pagesPerSecond: mid((r) => r.pagesPerSecond),
    cpuMsPerPage: mid((r) => r.cpuMsPerPage),
    peakRssMb: mid((r) => r.peakRssMb),
    gcShareOfCpu: mid((r) => r.gcShareOfCpu),
    pages: mid((r) => r.pages),
    storeCallsPerPage: mid((r) => r.storeCallsPerPage),
    robotsCacheCallsPerPage: mid((r) => r.robotsCacheCallsPerPage),
    redisCommandsPerPage: runs[0]?.redisCommandsPerPage === null ? null : mid((r) => r.redisCommandsPerPage),
    callsPerPage: runs[0]?.callsPerPage ?? {},
  };
}

// ---------------------------------------------------------------------------------------------

const startedAt = performance.now();
const kinds = [...KINDS];
const skipped = {};
if (kinds.includes('redis') && !(await redisReachable())) {
  skipped.redis = `Redis not reachable at ${REDIS_URL}`;
  kinds.splice(kinds.indexOf('redis'), 1);
}
console.log(
  `Stores on realistic pages: ${FLEET.hosts} hosts × ${FLEET.pagesPerHost} pages, concurrency ${CONCURRENCY}, ${REPS} rep(s), stores: ${kinds.join(', ')}`,
);
for (const [kind, why] of Object.entries(skipped)) console.log(`  ${kind}: skipped (${why})`);

const runs = Object.fromEntries(kinds.map((kind) => [kind, []]));
for (let rep = 0; rep < REPS; rep++) {
  for (const kind of rep % 2 === 0 ? kinds : [...kinds].reverse()) {
    try {
      const figures = await crawlWith(kind);
      runs[kind].push(figures);
      console.log(
        `  ${kind.padEnd(6)} rep ${rep + 1}: ${figures.pages} pages in ${formatFixed(figures.wallMs / 1000, 2)} s = ${formatInteger(figures.pagesPerSecond)} pages/s, ` +
          `${formatFixed(figures.cpuMsPerPage, 2)} ms CPU/page, ${formatFixed(figures.storeCallsPerPage, 2)} store calls/page` +
          (figures.redisCommandsPerPage === null
            ? ''
            : `, ${formatFixed(figures.redisCommandsPerPage, 2)} Redis commands/page`),
      );
    } catch (error) {
      console.log(`  ${kind} rep ${rep + 1}: FAILED (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}

const stores = Object.fromEntries(
  kinds.filter((kind) => runs[kind].length > 0).map((kind) => [kind, summary(runs[kind])]),
);
const memoryCpu = stores.memory?.cpuMsPerPage;
for (const store of Object.values(stores))
  store.cpuRatioToMemory = memoryCpu === undefined ? null : store.cpuMsPerPage / memoryCpu;

const fixed = (value, digits) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : formatFixed(value, digits);
const goalOf = (kind, ratio) => (kind === 'memory' || ratio === null ? '' : ratio <= CPU_RATIO_GOAL ? 'met' : 'MISSED');
console.log(
  `\n${formatTable(
    [
      'store',
      'pages',
      'pages/s',
      'CPU/page',
      'vs memory',
      `goal ≤ ${CPU_RATIO_GOAL}×`,
      'peak RSS',
      'GC / CPU',
      'store calls/page',
      'robots cache calls/page',
      'Redis commands/page',
    ],
    Object.entries(stores).map(([kind, s]) => [
      kind,
      String(s.pages),
      formatInteger(s.pagesPerSecond),
      `${fixed(s.cpuMsPerPage, 2)} ms`,
      `${fixed(s.cpuRatioToMemory, 2)}×`,
      goalOf(kind, s.cpuRatioToMemory),
      `${fixed(s.peakRssMb, 1)} MB`,
      `${fixed(s.gcShareOfCpu * 100, 1)} %`,
      fixed(s.storeCallsPerPage, 2),
      fixed(s.robotsCacheCallsPerPage, 2),
      fixed(s.redisCommandsPerPage, 2),
    ]),
  )}`,
);
const methods = [...new Set(Object.values(stores).flatMap((s) => Object.keys(s.callsPerPage)))].sort();
console.log(`\nCalls per page, by method (${REPS > 1 ? 'first rep' : 'one crawl'} per store):`);
console.log(
  formatTable(
    ['call', ...Object.keys(stores)],
    methods.map((method) => [method, ...Object.values(stores).map((s) => fixed(s.callsPerPage[method] ?? 0, 3))]),
  ),
);

const out = {
  benchmark: 'store-crawl',
  date: new Date().toISOString(),
  environment: machineEnvironment(),
  method: {
    crawl: `politely, one worker, scope ${FLEET_URL_PATTERN}, concurrency ${CONCURRENCY}, perHostConcurrency ${CONCURRENCY}, minDelayMs 0, every host's / as seeds; each crawl in its own process against a fresh fleet server`,
    stores: {
      memory:
        'createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 64 } }) and createMemoryRobotsCache() (what the crawler makes by default)',
      sqlite:
        'createSqliteFrontierStore({ path: <temp dir>/frontier.db, same defaultHostPolicy }) and createSqliteRobotsCache(store) (same file, same connection)',
      redis: `createRedisLink(${REDIS_URL}) shared by createRedisFrontierStore({ crawlId: <unique>, same defaultHostPolicy }) and createRedisRobotsCache; the crawl's keys deleted afterwards`,
    },
    cpuPerPage:
      "process.cpuUsage() of the crawler process (user + system, all threads) during run() / pages served with status 200 (the fleet's logs). SQLite works inside the crawler process (counted); the Redis server is another process (not counted: its commands per page stand for it)",
    calls:
      'each method of the store and robots-cache objects wrapped with a counter before the crawler gets them; claims answered "nothing ready" counted apart (a subset of claim); Redis: ioredis sendCommand calls on the shared connection, heartbeats included',
  },
  fleet: FLEET,
  concurrency: CONCURRENCY,
  reps: REPS,
  cpuRatioGoal: CPU_RATIO_GOAL,
  skipped,
  stores,
  runs,
  runtimeSeconds: (performance.now() - startedAt) / 1000,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
console.log(`\nwrote ${RESULTS_FILE} (${formatFixed(out.runtimeSeconds, 1)} s)`);
