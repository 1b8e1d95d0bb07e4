// Memory that does not grow with the crawl (issue 34, item 4): the same politely crawl with the
// SQLite store (a file in a temp dir) of a realistic fleet of 10,000 pages and of 100,000 pages,
// each crawl in its own process (crawler-contestant.js) against its own fleet server
// (crawler-fleet-server.js). Reports each crawl's peak RSS (the kernel's high-water mark of the
// crawler's process) and the ratio of the large crawl's to the small one's (goal: ≤ 1.2×).
//
//   node bench/crawl-memory.bench.js      (~2.5 minutes at ~900 pages/s)
//
// The 10k-page crawl's peak RSS moves by tens of MB from run to run (where the collector's cycles
// fall), so it is crawled BENCH_MEMORY_SMALL_REPS times (default 3) and its median is the base
// of the ratio; every run is kept in the results.
//
// Environment: BENCH_MEMORY_HOSTS (default 100 hosts), BENCH_MEMORY_SMALL / BENCH_MEMORY_LARGE
// (pages per host, default 100 and 1000), BENCH_MEMORY_CACHE_KIB (SQLite's page cache, default the
// store's 16 MiB), BENCH_MEMORY_RESULTS (the results file's name). Prints a table and writes bench/results/crawl-memory.json.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { formatFixed, formatInteger, formatTable, machineEnvironment, median } from './harness.js';
import { crawlJob, FLEET_URL_PATTERN, runContestant, startFleetServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', process.env.BENCH_MEMORY_RESULTS ?? 'crawl-memory.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const HOSTS = Number(process.env.BENCH_MEMORY_HOSTS ?? 100);
const SIZES = [Number(process.env.BENCH_MEMORY_SMALL ?? 100), Number(process.env.BENCH_MEMORY_LARGE ?? 1000)];
/** As in store-crawl.bench.js: 64 requests in flight, no per-host cap beyond that, no delay. */
const CONCURRENCY = 64;
/** Crawls of the smaller fleet; the one of median peak RSS is reported. */
const SMALL_REPS = Math.max(1, Number(process.env.BENCH_MEMORY_SMALL_REPS ?? 3));
/** SQLite's page cache (cacheSizeKiB) when BENCH_MEMORY_CACHE_KIB is set; the store's default otherwise. */
const CACHE_KIB =
  process.env.BENCH_MEMORY_CACHE_KIB === undefined ? undefined : Number(process.env.BENCH_MEMORY_CACHE_KIB);
const RUN_TIMEOUT_MS = 900_000;
/** Issue 34: the 100k-page crawl's peak RSS within 1.2× the 10k-page crawl's. */
const RSS_RATIO_GOAL = 1.2;

/** One crawl of a fresh realistic fleet of HOSTS × `pagesPerHost` pages with the SQLite store. */
async function crawl(pagesPerHost) {
  const fleet = { hosts: HOSTS, pagesPerHost, pageProfile: 'realistic' };
  const server = await startFleetServer([fleet]);
  const dir = mkdtempSync(join(os.tmpdir(), 'politely-bench-memory-'));
  try {
    const store = { kind: 'sqlite', path: join(dir, 'frontier.db'), cacheSizeKiB: CACHE_KIB };
    const job = crawlJob({ fleet: server.fleets[0], store, userAgent: USER_AGENT, concurrency: CONCURRENCY });
    const run = await runContestant(job, RUN_TIMEOUT_MS);
    const { logs } = await server.report(USER_AGENT);
    const pages = logs[0].pagesOk;
    return {
      fleet,
      pages,
      repeatedRequests: logs[0].repeatedRequests,
      robotsViolations: logs[0].robotsViolations,
      wallMs: run.wallMs,
      pagesPerSecond: pages / (run.wallMs / 1000),
      cpuMsPerPage: run.cpuMs / pages,
      peakRssMb: run.peakRssBytes / 1024 / 1024,
      gcShareOfCpu: run.gc.shareOfCpu,
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const startedAt = performance.now();
console.log(
  `Crawl memory, SQLite store: ${HOSTS} hosts × ${SIZES.join(' and ')} realistic pages, concurrency ${CONCURRENCY}`,
);
const crawls = [];
const smallRuns = [];
for (const [index, pagesPerHost] of SIZES.entries()) {
  const runs = [];
  for (let rep = 0; rep < (index === 0 ? SMALL_REPS : 1); rep++) {
    const figures = await crawl(pagesPerHost);
    runs.push(figures);
    console.log(
      `  ${formatInteger(figures.pages)} pages in ${formatFixed(figures.wallMs / 1000, 1)} s = ${formatInteger(figures.pagesPerSecond)} pages/s, ` +
        `peak RSS ${formatFixed(figures.peakRssMb, 1)} MB`,
    );
  }
  if (index === 0) smallRuns.push(...runs);
  // The run of median peak RSS (the lower middle one for an even count).
  const middle = median(runs.map((r) => r.peakRssMb));
  crawls.push(
    runs.reduce((best, r) => (Math.abs(r.peakRssMb - middle) < Math.abs(best.peakRssMb - middle) ? r : best)),
  );
}
const [small, large] = crawls;
const ratio = large.peakRssMb / small.peakRssMb;
console.log(
  `\n${formatTable(
    ['pages', 'pages/s', 'CPU/page', 'GC / CPU', 'peak RSS', 'vs smallest', `goal ≤ ${RSS_RATIO_GOAL}×`],
    crawls.map((c) => [
      formatInteger(c.pages),
      formatInteger(c.pagesPerSecond),
      `${formatFixed(c.cpuMsPerPage, 2)} ms`,
      `${formatFixed(c.gcShareOfCpu * 100, 1)} %`,
      `${formatFixed(c.peakRssMb, 1)} MB`,
      `${formatFixed(c.peakRssMb / small.peakRssMb, 2)}×`,
      c === small ? '' : c.peakRssMb / small.peakRssMb <= RSS_RATIO_GOAL ? 'met' : 'MISSED',
    ]),
  )}`,
);

const out = {
  benchmark: 'crawl-memory',
  date: new Date().toISOString(),
  environment: machineEnvironment(),
  method: {
    crawl: `politely, one worker, scope ${FLEET_URL_PATTERN}, concurrency ${CONCURRENCY}, perHostConcurrency ${CONCURRENCY}, minDelayMs 0, every host's / as seeds, SQLite store in a temp dir; each crawl in its own process against a fresh fleet server`,
    peakRss: "the crawler process's VmHWM (/proc/self/status) at the end of the crawl",
  },
  sqliteCacheSizeKiB: CACHE_KIB ?? 'the store default (16,384)',
  smallRuns: smallRuns.map((r) => ({ peakRssMb: r.peakRssMb, pagesPerSecond: r.pagesPerSecond })),
  rssRatioGoal: RSS_RATIO_GOAL,
  rssRatio: ratio,
  crawls,
  runtimeSeconds: (performance.now() - startedAt) / 1000,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
console.log(`\nwrote ${RESULTS_FILE} (${formatFixed(out.runtimeSeconds, 1)} s)`);
