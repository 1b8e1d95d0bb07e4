// Each frontier store on realistic pages (issue 13): the same politely crawl of the realistic
// fleet with the memory store, the SQLite store (a file in a temp dir, with its robots cache in
// the same file), the Redis store on one redis-server and on a Redis Cluster of 3 primaries (one
// worker; frontier and robots cache on one connection, under a unique crawl id deleted
// afterwards). The redis-server and the cluster are the bench's own (test/support/redis-launch.js:
// free loopback ports, no persistence), so that nothing else's commands or CPU mix with the
// crawl's. As in crawler-run.js, the crawler runs in its own process (crawler-contestant.js) and
// the fleet in another (crawler-fleet-server.js), and pages are counted from the servers' logs.
//
// Per store: pages/s, CPU ms per page (the crawler process's CPU time / pages; of it, system time), its ratio to the
// memory store's (goals: SQLite within 1.3×, issue 13; Redis and the cluster within 1.2×, issue
// 34), peak RSS, GC share, and the calls made per page: every method call of the frontier store
// and the robots cache (counted by wrapping the store objects the crawler is given: the calls pass
// through unchanged), claims that found nothing ready apart. Redis and the cluster also:
// - round trips per page: the commands the crawler's process wrote to any Redis node, counted on
//   its side (redis-wire-count.js); the bench's own INFO goes by redis-cli, outside that process;
// - redis-server CPU per page: INFO cpu (used_cpu_sys + used_cpu_user) before and after the crawl,
//   the rise summed over the nodes;
// - commands Redis ran per page (INFO stats total_commands_processed, the rise summed over the
//   nodes, less the bench's one INFO per node that falls inside it): scripts' inner commands
//   included. Scripts run per page (INFO commandstats evalsha + eval) must equal the crawler's
//   EVALSHA + EVAL round trips: the check that nothing was missed or counted twice.
//
//   node bench/store-crawl.bench.js       (~5 minutes)
//
// A control, on request: `memory+cpu` is the memory store's crawl while another process takes a
// share of one CPU (BENCH_STORE_CPU_SHARE, default 0.2: what redis-server takes in the Redis row)
// in 0.25 ms slices, as redis-server does. On a 2-CPU machine where the crawler and the fleet
// already keep both busy, a third busy process costs the crawler CPU by itself (context
// switches, caches); this row says how much of the Redis rows' ratio that alone explains.
// `redis-all-links` is the one-Redis crawl with `knownUrlCache: 0`: every link of a page sent,
// none left out as known to be held (what the cache saves the crawler and redis-server).
//
// The crawl is the issue's realistic one, 10,000 pages: a process's first few thousand pages cost
// more (V8 compiling the hot code of the store, ioredis included, and sizing its heap), a fixed
// cost that a 3,000-page crawl spreads over too few pages to say what a page costs a crawl job
// (a page over 3,000 pages costs about 1.5 times a page over 10,000, for the memory store and
// for Redis alike; docs/benchmarks.md).
//
// Environment: BENCH_STORE_HOSTS × BENCH_STORE_PAGES (default 20 × 500 realistic pages),
// BENCH_STORE_LINKS (content links per page on its host; the fleet's default 5),
// BENCH_STORE_KINDS=memory,sqlite,redis,redis-cluster (and memory+cpu, redis-all-links), BENCH_STORE_REPS (default 3; stores
// alternate, medians reported). No redis-server/redis-cli on the PATH: the Redis rows say so and
// the others run. Prints tables and writes bench/results/store-crawl.json.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deleteRedisCrawl } from '@politely/store-redis';
import {
  infoFields,
  redisCommand,
  redisToolsMissing,
  startRedisCluster,
  startRedisServer,
} from '../test/support/redis-launch.js';

import { formatFixed, formatInteger, formatTable, machineEnvironment, median } from './harness.js';
import { crawlJob, FLEET_URL_PATTERN, runContestant, startFleetServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'store-crawl.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const FLEET = {
  hosts: Number(process.env.BENCH_STORE_HOSTS ?? 20),
  pagesPerHost: Number(process.env.BENCH_STORE_PAGES ?? 500),
  pageProfile: 'realistic',
  // Content links a page has on its own host (the fleet's default, 5, when unset), navigation on top.
  ...(process.env.BENCH_STORE_LINKS === undefined ? {} : { linksPerPage: Number(process.env.BENCH_STORE_LINKS) }),
};
const KINDS = (process.env.BENCH_STORE_KINDS ?? 'memory,sqlite,redis,redis-cluster').split(',');
const REDIS_KINDS = ['redis', 'redis-cluster', 'redis-all-links'];
const REPS = Math.max(1, Number(process.env.BENCH_STORE_REPS ?? 3));
/** As in crawler-run.js (a): 64 requests in flight, no per-host cap beyond that, no delay. */
const CONCURRENCY = 64;
const RUN_TIMEOUT_MS = 300_000;
/** The crawler's CPU per page over memory's: SQLite within 1.3× (issue 13), Redis within 1.2× (issue 34). */
const CPU_RATIO_GOALS = { sqlite: 1.3, redis: 1.2, 'redis-cluster': 1.2, 'redis-all-links': 1.2 };
/** The `memory+cpu` control's competitor: the share of one CPU it takes. */
const CPU_SHARE = Number(process.env.BENCH_STORE_CPU_SHARE ?? 0.2);
/** Spins `slice` ms, then sleeps so that the spins take `share` of the time, until killed. */
const COMPETITOR = `
const [share, sliceMs] = process.argv.slice(1).map(Number);
const spin = () => { const until = performance.now() + sliceMs; while (performance.now() < until); };
const next = () => { spin(); setTimeout(next, sliceMs * (1 / share - 1)); };
next();`;

/** The control's competitor process, while `run` runs. */
async function withCpuCompetitor(run) {
  const competitor = spawn(process.execPath, ['-e', COMPETITOR, String(CPU_SHARE), '0.25'], { stdio: 'ignore' });
  try {
    return await run();
  } finally {
    competitor.kill('SIGKILL');
  }
}

/** The store a crawl uses, and what to remove when it is over; `servers` the bench's own Redis. */
function storeFor(kind, servers) {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(os.tmpdir(), 'politely-bench-store-'));
    return {
      spec: { kind, path: join(dir, 'frontier.db') },
      cleanUp: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (REDIS_KINDS.includes(kind)) {
    const { url, ports } = servers[kind === 'redis-all-links' ? 'redis' : kind];
    const crawlId = `politely-bench-store-${randomUUID()}`;
    return {
      spec: { kind: 'redis', redisUrl: url, crawlId, ...(kind === 'redis-all-links' ? { knownUrlCache: 0 } : {}) },
      ports,
      cleanUp: () => deleteRedisCrawl({ redis: url, crawlId }),
    };
  }
  // memory+cpu: the memory store (the competitor is started around the crawl, in crawlWith).
  return { spec: { kind: kind === 'memory+cpu' ? 'memory' : kind }, cleanUp: async () => {} };
}

/** Each node's CPU time (ms), commands run and scripts run so far: one INFO per node. */
async function serverCounters(ports) {
  return Promise.all(
    ports.map(async (port) => {
      const info = infoFields(await redisCommand(port, ['INFO', 'cpu', 'stats', 'commandstats']));
      const calls = (name) => Number(/calls=(\d+)/.exec(info.get(`cmdstat_${name}`) ?? '')?.[1] ?? 0);
      return {
        cpuMs: (Number(info.get('used_cpu_sys')) + Number(info.get('used_cpu_user'))) * 1000,
        commands: Number(info.get('total_commands_processed')),
        scripts: calls('evalsha') + calls('eval'),
      };
    }),
  );
}

/** What the nodes did between two serverCounters, summed; the first INFO of each node left out. */
function serverDelta(before, after) {
  const sum = (pick) => after.reduce((total, node, i) => total + pick(node) - pick(before[i]), 0);
  return {
    cpuMs: sum((n) => n.cpuMs),
    // The INFO that took `before` is counted after its reply was made: one per node in the rise.
    commands: sum((n) => n.commands) - before.length,
    scripts: sum((n) => n.scripts),
  };
}

/** One crawl of a fresh realistic fleet with the store of `kind`. */
async function crawlWith(kind, servers) {
  const server = await startFleetServer([FLEET]);
  const store = storeFor(kind, servers);
  try {
    const before = store.ports === undefined ? undefined : await serverCounters(store.ports);
    const job = crawlJob({
      fleet: server.fleets[0],
      store: store.spec,
      userAgent: USER_AGENT,
      concurrency: CONCURRENCY,
    });
    const crawl = () => runContestant(job, RUN_TIMEOUT_MS);
    const result = kind === 'memory+cpu' ? await withCpuCompetitor(crawl) : await crawl();
    const redis = before === undefined ? undefined : serverDelta(before, await serverCounters(store.ports));
    const { logs, server: serverCpu } = await server.report(USER_AGENT);
    return figuresOf(kind, result, logs[0], serverCpu, redis);
  } finally {
    await server.close();
    await store.cleanUp();
  }
}

function figuresOf(kind, run, log, serverCpu, redis) {
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
    // Of it, the kernel's (system calls: the sockets to the fleet and to Redis, the SQLite file).
    systemCpuMsPerPage: run.cpuSystemMs / pages,
    peakRssMb: run.peakRssBytes / 1024 / 1024,
    gcShareOfCpu: run.gc.shareOfCpu,
    serverCpuMsPerPage: serverCpu.cpuMs / pages,
    storeCallsPerPage: sum('store.') / pages,
    robotsCacheCallsPerPage: sum('robotsCache.') / pages,
    roundTripsPerPage: redis === undefined ? null : sum('redis.') / pages,
    redisServerCpuMsPerPage: redis === undefined ? null : redis.cpuMs / pages,
    redisCommandsRunPerPage: redis === undefined ? null : redis.commands / pages,
    redisScriptsRun: redis === undefined ? null : redis.scripts,
    scriptRoundTrips:
      redis === undefined ? null : (run.storeCalls['redis.evalsha'] ?? 0) + (run.storeCalls['redis.eval'] ?? 0),
    callsPerPage: perPage,
    calls: run.storeCalls,
  };
}

/** Medians over the reps of one store. */
function summary(runs) {
  const mid = (pick) => median(runs.map(pick));
  const orNull = (pick) => (pick(runs[0]) === null ? null : mid(pick));
  return {
    pagesPerSecond: mid((r) => r.pagesPerSecond),
    cpuMsPerPage: mid((r) => r.cpuMsPerPage),
    systemCpuMsPerPage: mid((r) => r.systemCpuMsPerPage),
    peakRssMb: mid((r) => r.peakRssMb),
    gcShareOfCpu: mid((r) => r.gcShareOfCpu),
    pages: mid((r) => r.pages),
    storeCallsPerPage: mid((r) => r.storeCallsPerPage),
    robotsCacheCallsPerPage: mid((r) => r.robotsCacheCallsPerPage),
    roundTripsPerPage: orNull((r) => r.roundTripsPerPage),
    redisServerCpuMsPerPage: orNull((r) => r.redisServerCpuMsPerPage),
    redisCommandsRunPerPage: orNull((r) => r.redisCommandsRunPerPage),
    // Scripts Redis ran = scripts the crawler sent, in every run (see the header).
    scriptCountsAgree: runs.every((r) => r.redisScriptsRun === r.scriptRoundTrips),
    callsPerPage: runs[0]?.callsPerPage ?? {},
  };
}

// ---------------------------------------------------------------------------------------------

const startedAt = performance.now();
const kinds = [...KINDS];
const skipped = {};
const missing = redisToolsMissing(['redis-server', 'redis-cli']);
for (const kind of REDIS_KINDS.filter((k) => kinds.includes(k) && missing !== null)) {
  skipped[kind] = missing;
  kinds.splice(kinds.indexOf(kind), 1);
}
/** The bench's own redis-server and 3-primary cluster, started only for the kinds that run. */
const own = {};
if (kinds.includes('redis') || kinds.includes('redis-all-links')) own.redis = await startRedisServer();
if (kinds.includes('redis-cluster')) own.cluster = await startRedisCluster({ primaries: 3 });
const servers = {
  redis: own.redis && { url: own.redis.url, ports: [own.redis.port] },
  'redis-cluster': own.cluster && { url: own.cluster.url, ports: own.cluster.nodes.map((node) => node.port) },
};
console.log(
  `Stores on realistic pages: ${FLEET.hosts} hosts × ${FLEET.pagesPerHost} pages, concurrency ${CONCURRENCY}, ${REPS} rep(s), stores: ${kinds.join(', ')}`,
);
for (const [kind, why] of Object.entries(skipped)) console.log(`  ${kind}: skipped (${why})`);

const runs = Object.fromEntries(kinds.map((kind) => [kind, []]));
try {
  for (let rep = 0; rep < REPS; rep++) {
    for (const kind of rep % 2 === 0 ? kinds : [...kinds].reverse()) {
      try {
        const figures = { ...(await crawlWith(kind, servers)), rep };
        runs[kind].push(figures);
        console.log(
          `  ${kind.padEnd(13)} rep ${rep + 1}: ${figures.pages} pages in ${formatFixed(figures.wallMs / 1000, 2)} s = ${formatInteger(figures.pagesPerSecond)} pages/s, ` +
            `${formatFixed(figures.cpuMsPerPage, 2)} ms CPU/page, ${formatFixed(figures.storeCallsPerPage, 2)} store calls/page` +
            (figures.roundTripsPerPage === null
              ? ''
              : `, ${formatFixed(figures.roundTripsPerPage, 2)} round trips/page, redis-server ${formatFixed(figures.redisServerCpuMsPerPage, 3)} ms CPU/page`),
        );
      } catch (error) {
        console.log(`  ${kind} rep ${rep + 1}: FAILED (${error instanceof Error ? error.message : String(error)})`);
      }
    }
  }
} finally {
  await own.redis?.stop();
  await own.cluster?.stop();
}

const stores = Object.fromEntries(
  kinds.filter((kind) => runs[kind].length > 0).map((kind) => [kind, summary(runs[kind])]),
);
// The ratio to memory's CPU is taken within each rep (the stores of a rep run back to back, so
// a drift in the machine's speed between reps cancels), then its median over the reps.
for (const [kind, store] of Object.entries(stores)) {
  const ratios = runs[kind].flatMap((run) => {
    const memory = runs.memory?.find((m) => m.rep === run.rep);
    return memory === undefined ? [] : [run.cpuMsPerPage / memory.cpuMsPerPage];
  });
  store.cpuRatioToMemory = ratios.length === 0 ? null : median(ratios);
  // Each rep's ratio, in rep order: how far apart they lie is the machine's noise on this figure.
  store.cpuRatiosByRep = ratios;
}

const fixed = (value, digits) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : formatFixed(value, digits);
const goalOf = (kind, ratio) =>
  CPU_RATIO_GOALS[kind] === undefined || ratio === null
    ? ''
    : `≤ ${CPU_RATIO_GOALS[kind]}× ${ratio <= CPU_RATIO_GOALS[kind] ? 'met' : 'MISSED'}`;
console.log(
  `\n${formatTable(
    [
      'store',
      'pages',
      'pages/s',
      'CPU/page',
      'of it system',
      'vs memory',
      'reps: lowest–highest',
      'goal',
      'peak RSS',
      'GC / CPU',
      'store calls/page',
      'robots cache calls/page',
      'round trips/page',
      'redis-server CPU/page',
      'commands run in Redis/page',
      'scripts sent = run',
    ],
    Object.entries(stores).map(([kind, s]) => [
      kind,
      String(s.pages),
      formatInteger(s.pagesPerSecond),
      `${fixed(s.cpuMsPerPage, 2)} ms`,
      `${fixed(s.systemCpuMsPerPage, 2)} ms`,
      `${fixed(s.cpuRatioToMemory, 3)}×`,
      s.cpuRatiosByRep.length < 2
        ? ''
        : `${formatFixed(Math.min(...s.cpuRatiosByRep), 2)}–${formatFixed(Math.max(...s.cpuRatiosByRep), 2)}×`,
      goalOf(kind, s.cpuRatioToMemory),
      `${fixed(s.peakRssMb, 1)} MB`,
      `${fixed(s.gcShareOfCpu * 100, 1)} %`,
      fixed(s.storeCallsPerPage, 2),
      fixed(s.robotsCacheCallsPerPage, 2),
      fixed(s.roundTripsPerPage, 2),
      s.redisServerCpuMsPerPage === null ? '–' : `${fixed(s.redisServerCpuMsPerPage, 3)} ms`,
      fixed(s.redisCommandsRunPerPage, 1),
      s.roundTripsPerPage === null ? '' : s.scriptCountsAgree ? 'yes' : 'NO',
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
      redis:
        "createRedisLink(<the bench's own redis-server>) shared by createRedisFrontierStore({ crawlId: <unique>, same defaultHostPolicy }) and createRedisRobotsCache; the crawl's keys deleted afterwards",
      'redis-cluster':
        "the same with a redis-cluster:// URL of the bench's own Redis Cluster: 3 primaries, no replicas (test/support/redis-launch.js)",
      'redis-all-links': 'the one-Redis crawl with knownUrlCache: 0 (every link of a page sent to Redis; a control)',
      'memory+cpu': `the memory store's crawl while another process spins 0.25 ms slices taking ${CPU_SHARE} of one CPU (a control: the cost to the crawler of a third busy process on this machine)`,
    },
    cpuRatioToMemory:
      "each rep runs every store back to back; a store's ratio is the median over reps of its CPU per page over the memory store's in the same rep (cpuRatiosByRep: each rep's, in rep order)",
    cpuPerPage:
      "process.cpuUsage() of the crawler process (user + system, all threads) during run() / pages served with status 200 (the fleet's logs). SQLite works inside the crawler process (counted); redis-server is another process, reported apart",
    calls:
      'each method of the store and robots-cache objects wrapped with a counter before the crawler gets them; claims answered "nothing ready" counted apart (a subset of claim)',
    roundTrips:
      "Redis: every command the crawler's process wrote to any Redis node (ioredis Command#toWritable, bench/redis-wire-count.js): connection checks, heartbeats, slot refreshes and redirections included; the bench's own INFO is sent by redis-cli, outside it",
    redisServer:
      'INFO cpu (used_cpu_sys + used_cpu_user) and INFO stats total_commands_processed of every node before and after the crawl, rises summed over the nodes, less the one INFO per node inside the rise; commands run include those run inside scripts. scriptCountsAgree: INFO commandstats evalsha + eval calls = the EVALSHA + EVAL round trips, every run',
  },
  fleet: FLEET,
  concurrency: CONCURRENCY,
  reps: REPS,
  cpuRatioGoals: CPU_RATIO_GOALS,
  skipped,
  stores,
  runs,
  runtimeSeconds: (performance.now() - startedAt) / 1000,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
console.log(`\nwrote ${RESULTS_FILE} (${formatFixed(out.runtimeSeconds, 1)} s)`);
