// Where a page's CPU time goes (issue 34): politely's crawl of realistic pages against the floor
// of what any crawler must do for them, and a CPU profile of the crawl summarised by module and
// by function. Run by `pnpm bench` (or `node bench/cost-per-page.bench.js` after `pnpm build`);
// prints tables and writes bench/results/cost-per-page.json.
//
//   floor     floor-crawl.js: undici's exchange, the body decoded once, one htmlparser2 Tokenizer
//             pass keeping the <a href>s, each resolved and deduplicated in a Set. No robots.txt,
//             no politeness, no store, no events, no records. Without robots.txt it also fetches
//             the pages the fleet's robots.txt disallows (about a tenth more pages); its CPU per
//             page is per page all the same.
//   politely  the crawl crawler-run.js measures in (a): the same fleet, the same concurrency, the
//             hosts' own rules (no crawl-delay on this fleet), robots.txt, store, extraction.
//   profile   politely's crawl again under `node --cpu-prof`, summarised by cpu-profile.js. The
//             profiler's own cost inflates this run; its shares are what it is for.
//
// CPU per page is the crawler process's CPU time (user + system, every thread) over the pages the
// fleet served with status 200, as in crawler-run.js. The figure to read: politely's CPU per page
// as a multiple of the floor's. Issue 34 asks ≤ 1.0 ms and ≤ 1.5× the floor.
//
// Environment: BENCH_COST_HOSTS and BENCH_COST_PAGES (default 50 × 200), BENCH_COST_REPS (default
// 1: floor and politely alternate, medians reported), BENCH_COST_TOP (rows of each profile table).

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { shareByOwner, summariseCpuProfile } from './cpu-profile.js';
import { formatFixed, formatInteger, formatTable, median } from './harness.js';
import { FLEET_URL_PATTERN, frontPages, runContestant, startFleetServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'cost-per-page.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const CONCURRENCY = 64;
const FLEET = {
  hosts: Number(process.env.BENCH_COST_HOSTS ?? 50),
  pagesPerHost: Number(process.env.BENCH_COST_PAGES ?? 200),
  pageProfile: 'realistic',
};
const REPS = Math.max(1, Number(process.env.BENCH_COST_REPS ?? 1));
const TOP = Math.max(1, Number(process.env.BENCH_COST_TOP ?? 15));
const RUN_TIMEOUT_MS = 300_000;
const GOALS = { cpuMsPerPage: 1.0, floorMultiple: 1.5 };

/** One crawl of a fresh fleet: the contestant's figures and the pages the servers served. */
async function crawl(contestant, execArgv = []) {
  const server = await startFleetServer([FLEET]);
  try {
    const job = {
      contestant,
      userAgent: USER_AGENT,
      productToken: 'PolitelyBench',
      scopePattern: FLEET_URL_PATTERN,
      seeds: frontPages(server.fleets[0]),
      concurrency: CONCURRENCY,
      perHostConcurrency: CONCURRENCY,
    };
    const result = await runContestant(job, RUN_TIMEOUT_MS, { execArgv });
    const { logs } = await server.report(USER_AGENT);
    const pages = logs[0].pagesOk;
    return {
      pages,
      cpuMsPerPage: result.cpuMs / pages,
      pagesPerSecond: pages / (result.wallMs / 1000),
      peakRssMb: result.peakRssBytes / 1024 / 1024,
      gcShareOfCpu: result.gc.shareOfCpu,
    };
  } finally {
    await server.close();
  }
}

/** politely's crawl under the V8 profiler: the profile's summary. */
async function profiledCrawl() {
  const dir = mkdtempSync(join(os.tmpdir(), 'politely-cpu-prof-'));
  try {
    const run = await crawl('politely', ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error(`no .cpuprofile was written in ${dir}`);
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const all = summariseCpuProfile(profile, { top: Number.POSITIVE_INFINITY });
    return {
      run,
      cpuMs: all.cpuMs,
      owners: shareByOwner(all.byModule),
      byModule: all.byModule.slice(0, TOP),
      byFunction: all.byFunction.slice(0, TOP),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const progress = (line) => process.stdout.write(`  ${line}\n`);
const percent = (share) => `${formatFixed(share * 100, 1)} %`;

const runs = { floor: [], politely: [] };
for (let rep = 0; rep < REPS; rep++) {
  for (const contestant of ['floor', 'politely']) {
    const run = await crawl(contestant);
    progress(
      `${contestant} #${rep + 1}: ${formatInteger(run.pages)} pages, ${formatFixed(run.cpuMsPerPage, 3)} ms CPU/page`,
    );
    runs[contestant].push(run);
  }
}
const summary = (list) => ({
  pages: median(list.map((r) => r.pages)),
  cpuMsPerPage: median(list.map((r) => r.cpuMsPerPage)),
  pagesPerSecond: median(list.map((r) => r.pagesPerSecond)),
  peakRssMb: median(list.map((r) => r.peakRssMb)),
  gcShareOfCpu: median(list.map((r) => r.gcShareOfCpu)),
});
const floor = summary(runs.floor);
const politely = summary(runs.politely);
const multiple = politely.cpuMsPerPage / floor.cpuMsPerPage;
progress('politely under --cpu-prof …');
const profile = await profiledCrawl();

console.log(
  `\nCPU per page on realistic pages (${FLEET.hosts} hosts × ${FLEET.pagesPerHost} pages, ${CONCURRENCY} in flight)\n`,
);
console.log(
  formatTable(
    ['', 'pages', 'CPU ms/page', 'pages/s', 'peak RSS MB', 'GC % of CPU'],
    [
      ['floor', floor],
      ['politely', politely],
    ].map(([name, s]) => [
      name,
      formatInteger(s.pages),
      formatFixed(s.cpuMsPerPage, 3),
      formatInteger(s.pagesPerSecond),
      formatFixed(s.peakRssMb, 0),
      percent(s.gcShareOfCpu),
    ]),
  ),
);
console.log(
  `\npolitely = ${formatFixed(multiple, 2)} × the floor (goal ≤ ${GOALS.floorMultiple}×); ` +
    `${formatFixed(politely.cpuMsPerPage, 3)} ms CPU/page (goal ≤ ${GOALS.cpuMsPerPage} ms)`,
);
const { owners } = profile;
console.log(
  `\nProfiled crawl (${formatFixed(profile.cpuMs, 0)} ms sampled CPU): politely ${percent(owners.politely)}, ` +
    `dependencies ${percent(owners.dependencies)}, Node ${percent(owners.node)}, ` +
    `native functions ${percent(owners.native)}, GC ${percent(owners.gc)}, V8 ${percent(owners.v8)}\n`,
);
console.log(
  formatTable(
    ['module', 'share', 'ms'],
    profile.byModule.map((m) => [m.name, percent(m.share), formatFixed(m.ms, 0)]),
  ),
);
console.log('');
console.log(
  formatTable(
    ['function (self time)', 'module', 'share'],
    profile.byFunction.map((f) => [f.name.slice(0, 70), f.module, percent(f.share)]),
  ),
);

mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(
  RESULTS_FILE,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg() },
      fleet: FLEET,
      concurrency: CONCURRENCY,
      reps: REPS,
      goals: GOALS,
      floor,
      politely,
      floorMultiple: multiple,
      profile,
      runs,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwritten to ${RESULTS_FILE}`);
