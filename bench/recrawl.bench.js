// A recrawl of realistic pages (issue 16): the same fleet crawled twice, with a share of its pages
// changed in between. politely crawls first with a SQLite store (a file in a temp dir, its robots
// cache in the same file), then again with the same file and `recrawl: true`: it revisits every
// page it fetched with the validators the first crawl left (If-None-Match, If-Modified-Since),
// and the servers answer 304, without a body, for every page that did not change. Crawlee's
// CheerioCrawler has no conditional requests: its second crawl is another fresh run (a fresh
// storage dir) that downloads every page again. As in crawler-run.js, each crawl runs in its own
// process (crawler-contestant.js) and the fleet in another (crawler-fleet-server.js); each
// contestant gets a fresh fleet, whose logs are reset between the two crawls so that each crawl's
// requests, statuses and bytes are counted from the servers' logs alone.
//
// Per contestant and crawl: pages requested, 200s and 304s, body bytes the servers wrote (robots.txt
// included), wall time, CPU time of the crawler process, peak RSS. Ratios of the second crawl:
// politely ÷ Crawlee for bytes, wall time and CPU; and politely's second-crawl bytes ÷ its first
// (goal: < 5 % with nothing changed; the changed pages' share of the bytes comes on top).
//
//   node bench/recrawl.bench.js            (~1 minute at the default size)
//
// Environment: BENCH_RECRAWL_HOSTS × BENCH_RECRAWL_PAGES (default 20 × 100 realistic pages),
// BENCH_RECRAWL_CHANGED (share of the pages changed between the crawls, 0–1, default 0.05; the
// same pages for the same fleet), BENCH_RECRAWL_GZIP=1 (the fleet gzips pages for clients that
// accept it; off by default, as in the other crawl benchmarks: identity bodies for both crawlers),
// BENCH_RECRAWL_CONTESTANTS=politely,crawlee. Prints tables and writes bench/results/recrawl.json.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { formatFixed, formatInteger, formatTable, machineEnvironment } from './harness.js';
import { FLEET_URL_PATTERN, frontPages, runContestant, startFleetServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'recrawl.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const PRODUCT_TOKEN = 'PolitelyBench';
const FLEET = {
  hosts: Number(process.env.BENCH_RECRAWL_HOSTS ?? 20),
  pagesPerHost: Number(process.env.BENCH_RECRAWL_PAGES ?? 100),
  pageProfile: 'realistic',
  gzip: process.env.BENCH_RECRAWL_GZIP === '1',
};
const CHANGED_SHARE = Number(process.env.BENCH_RECRAWL_CHANGED ?? 0.05);
if (!(CHANGED_SHARE >= 0 && CHANGED_SHARE <= 1))
  throw new Error(`BENCH_RECRAWL_CHANGED must be a share in 0–1, got ${process.env.BENCH_RECRAWL_CHANGED}`);
const CONTESTANTS = (process.env.BENCH_RECRAWL_CONTESTANTS ?? 'politely,crawlee').split(',');
/** As in crawler-run.js (a): 64 requests in flight for both, no per-host cap beyond that, no delay. */
const CONCURRENCY = 64;
const RUN_TIMEOUT_MS = 300_000;
/** Issue 16: a recrawl of an unchanged site downloads < 5 % of the first crawl's bytes. */
const BYTES_RATIO_GOAL = 0.05;

const require = createRequire(import.meta.url);
const versionOf = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;

/** politely's crawl file: a SQLite store in a temp dir, kept for the second crawl, removed afterwards. */
function crawlFile() {
  const dir = mkdtempSync(join(os.tmpdir(), 'politely-bench-recrawl-'));
  return {
    spec: { kind: 'sqlite', path: join(dir, 'crawl.db') },
    cleanUp: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Both crawls of one contestant against one fresh fleet, the pages changed between them. */
async function crawlTwice(contestant) {
  const server = await startFleetServer([FLEET]);
  const file = contestant === 'politely' ? crawlFile() : undefined;
  try {
    const job = {
      contestant,
      userAgent: USER_AGENT,
      productToken: PRODUCT_TOKEN,
      scopePattern: FLEET_URL_PATTERN,
      seeds: frontPages(server.fleets[0]),
      concurrency: CONCURRENCY,
      perHostConcurrency: CONCURRENCY,
      sameDomainDelaySecs: 0,
      ...(file === undefined ? {} : { store: file.spec }),
    };
    const first = await runContestant(job, RUN_TIMEOUT_MS);
    const firstReport = await server.report(USER_AGENT);
    await server.resetLogs();
    const changedUrls = await server.changePages(CHANGED_SHARE);
    // politely reopens the same SQLite file; Crawlee starts afresh (runContestant gives it a new storage dir).
    const second = await runContestant({ ...job, recrawl: contestant === 'politely' }, RUN_TIMEOUT_MS);
    const secondReport = await server.report(USER_AGENT);
    return {
      contestant,
      changedPages: changedUrls.length,
      changedUrls,
      pageBytes: server.pageBytes[0],
      crawls: [
        figuresOf(first, firstReport.logs[0], firstReport.server.cpuMs),
        figuresOf(second, secondReport.logs[0], secondReport.server.cpuMs - firstReport.server.cpuMs),
      ],
    };
  } finally {
    await server.close();
    file?.cleanUp();
  }
}

/** One crawl's figures: the servers' log for the counts and bytes, the crawler process for time and memory. */
function figuresOf(run, log, serverCpuMs) {
  return {
    pages: log.pageRequests,
    distinctPages: log.distinctPages,
    ok: log.statusCounts['200'] ?? 0,
    notModified: log.statusCounts['304'] ?? 0,
    statusCounts: log.statusCounts,
    conditionalPageRequests: log.conditionalPageRequests,
    robotsRequests: log.robotsRequests,
    bytes: log.bodyBytes,
    pageBytes: log.pageBodyBytes,
    robotsBytes: log.robotsBodyBytes,
    robotsViolations: log.robotsViolations,
    wallMs: run.wallMs,
    cpuMs: run.cpuMs,
    cpuMsPerPage: log.pageRequests === 0 ? null : run.cpuMs / log.pageRequests,
    peakRssMb: run.peakRssBytes / 1024 / 1024,
    gcShareOfCpu: run.gc.shareOfCpu,
    serverCpuMs: serverCpuMs,
    own: run.own,
  };
}

// ---------------------------------------------------------------------------------------------

const startedAt = performance.now();
const expectedPages = FLEET.hosts * FLEET.pagesPerHost;
console.log(
  `Recrawl of realistic pages: ${FLEET.hosts} hosts × ${FLEET.pagesPerHost} pages, ${formatFixed(CHANGED_SHARE * 100, 1)} % changed between the crawls, ` +
    `concurrency ${CONCURRENCY}, fleet gzip ${FLEET.gzip ? 'on' : 'off'}, contestants: ${CONTESTANTS.join(', ')}`,
);

const results = {};
for (const contestant of CONTESTANTS) {
  try {
    const result = await crawlTwice(contestant);
    results[contestant] = result;
    result.crawls.forEach((c, i) => {
      console.log(
        `  ${contestant.padEnd(8)} crawl ${i + 1}: ${c.pages} pages (${c.ok} × 200, ${c.notModified} × 304), ${formatInteger(c.bytes / 1024)} KiB sent, ` +
          `${formatFixed(c.wallMs / 1000, 2)} s, ${formatInteger(c.cpuMs)} ms CPU, peak RSS ${formatFixed(c.peakRssMb, 1)} MB` +
          (i === 0 ? '' : ` (${result.changedPages} pages changed before it)`),
      );
    });
  } catch (error) {
    console.log(`  ${contestant}: FAILED (${error instanceof Error ? error.message : String(error)})`);
  }
}

const fixed = (value, digits) =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : formatFixed(value, digits);
const ratio = (a, b) => (a === undefined || b === undefined || b === 0 ? null : a / b);
const kib = (bytes) => `${formatInteger(bytes / 1024)} KiB`;

console.log(
  `\n${formatTable(
    [
      'contestant',
      'crawl',
      'pages',
      '200',
      '304',
      'robots.txt',
      'bytes sent',
      'wall',
      'CPU',
      'CPU/page',
      'peak RSS',
      'GC / CPU',
      'server CPU',
    ],
    Object.values(results).flatMap((r) =>
      r.crawls.map((c, i) => [
        r.contestant,
        i === 0 ? '1 (fresh)' : r.contestant === 'politely' ? '2 (recrawl)' : '2 (fresh again)',
        String(c.pages),
        String(c.ok),
        String(c.notModified),
        String(c.robotsRequests),
        kib(c.bytes),
        `${fixed(c.wallMs / 1000, 2)} s`,
        `${formatInteger(c.cpuMs)} ms`,
        `${fixed(c.cpuMsPerPage, 2)} ms`,
        `${fixed(c.peakRssMb, 1)} MB`,
        `${fixed(c.gcShareOfCpu * 100, 1)} %`,
        `${formatInteger(c.serverCpuMs)} ms`,
      ]),
    ),
  )}`,
);

const p1 = results.politely?.crawls[0];
const p2 = results.politely?.crawls[1];
const c1 = results.crawlee?.crawls[0];
const c2 = results.crawlee?.crawls[1];
const bytesGoal = BYTES_RATIO_GOAL + CHANGED_SHARE;
const ratios = {
  secondCrawlBytesPolitelyToCrawlee: ratio(p2?.bytes, c2?.bytes),
  secondCrawlWallPolitelyToCrawlee: ratio(p2?.wallMs, c2?.wallMs),
  secondCrawlCpuPolitelyToCrawlee: ratio(p2?.cpuMs, c2?.cpuMs),
  politelySecondToFirstBytes: ratio(p2?.bytes, p1?.bytes),
  crawleeSecondToFirstBytes: ratio(c2?.bytes, c1?.bytes),
  politelySecondToFirstWall: ratio(p2?.wallMs, p1?.wallMs),
  politelySecondToFirstCpu: ratio(p2?.cpuMs, p1?.cpuMs),
};
const goalOf = (value) => (value === null ? '' : value < bytesGoal ? 'met' : 'MISSED');
const goalText =
  CHANGED_SHARE === 0
    ? `< ${formatFixed(BYTES_RATIO_GOAL * 100, 0)} %`
    : `< ${formatFixed(BYTES_RATIO_GOAL * 100, 0)} % + ${formatFixed(CHANGED_SHARE * 100, 1)} % changed`;
console.log(
  `\n${formatTable(
    ['second crawl', 'ratio', 'goal', ''],
    [
      ['bytes: politely ÷ Crawlee', `${fixed(ratios.secondCrawlBytesPolitelyToCrawlee, 3)}×`, '', ''],
      ['wall time: politely ÷ Crawlee', `${fixed(ratios.secondCrawlWallPolitelyToCrawlee, 3)}×`, '', ''],
      ['CPU: politely ÷ Crawlee', `${fixed(ratios.secondCrawlCpuPolitelyToCrawlee, 3)}×`, '', ''],
      [
        'bytes: politely crawl 2 ÷ crawl 1',
        `${fixed((ratios.politelySecondToFirstBytes ?? NaN) * 100, 2)} %`,
        goalText,
        goalOf(ratios.politelySecondToFirstBytes),
      ],
      ['bytes: Crawlee crawl 2 ÷ crawl 1', `${fixed((ratios.crawleeSecondToFirstBytes ?? NaN) * 100, 2)} %`, '', ''],
    ],
  )}`,
);

const checks = [];
for (const r of Object.values(results)) {
  r.crawls.forEach((c, i) => {
    if (c.distinctPages !== expectedPages)
      checks.push(`${r.contestant} crawl ${i + 1}: ${c.distinctPages} distinct pages of ${expectedPages}`);
    if (c.robotsViolations > 0) checks.push(`${r.contestant} crawl ${i + 1}: ${c.robotsViolations} robots violations`);
  });
}
if (p2 !== undefined) {
  const changed = results.politely.changedPages;
  const revisits = p2.own?.revisits;
  console.log(
    `\npolitely's recrawl: ${changed} pages changed; the servers answered ${p2.notModified} × 304 and ${p2.ok} × 200 ` +
      `(${p2.conditionalPageRequests} of ${p2.pages} page requests conditional)` +
      (revisits === undefined
        ? ''
        : `; its stats.revisits: ${revisits.revisited} revisited, ${revisits.notModified} not modified, ${revisits.unchanged} unchanged, ${revisits.changed} changed, ${kib(revisits.bytesSaved)} saved`),
  );
  if (p2.ok !== changed) checks.push(`politely crawl 2: ${p2.ok} pages answered 200, ${changed} changed`);
}
for (const check of checks) console.log(`  check: ${check}`);

const out = {
  benchmark: 'recrawl',
  date: new Date().toISOString(),
  environment: machineEnvironment(),
  versions: { crawlee: versionOf('@crawlee/cheerio') },
  method: {
    fleet: `startFleet({ hosts: ${FLEET.hosts}, pagesPerHost: ${FLEET.pagesPerHost}, pageProfile: 'realistic', gzip: ${FLEET.gzip} }) in its own process, one fresh fleet per contestant: ETag and Last-Modified on every 200, 304 without a body to a conditional request that matches, no Cache-Control (a recrawl revalidates every page)`,
    change: `between the crawls, round(${CHANGED_SHARE} × ${expectedPages}) public pages changed with web.changePages (new body, ETag and Last-Modified), evenly spread over the sorted page URLs (the same pages for both contestants); the logs reset, so each crawl is counted alone`,
    politely: `createCrawler: scope { include: [${FLEET_URL_PATTERN}] }, concurrency ${CONCURRENCY}, perHostConcurrency ${CONCURRENCY}, minDelayMs 0, every host's / as seeds; store createSqliteFrontierStore({ path: <temp dir>/crawl.db }) with createSqliteRobotsCache(store); crawl 2 reopens the same file in a new process with recrawl: true (revisitMinMs 0: everything revisited)`,
    crawlee: `CheerioCrawler ${versionOf('@crawlee/cheerio')} as in crawler-run.js (respectRobotsTxtFile, min = maxConcurrency ${CONCURRENCY}, sameDomainDelaySecs 0, enqueueLinks strategy all with the fleet pattern, our User-Agent); both crawls fresh runs with a fresh memory-only storage dir: no conditional requests`,
    bytes:
      "sum of bodyBytes in the servers' request logs (body bytes written, robots.txt included; HTTP headers not counted; 0 for a 304)",
    cpu: 'process.cpuUsage() of the crawler process (user + system, all threads) during run(); SQLite works inside it',
    pages: "page requests in the servers' logs (robots.txt apart), any status",
  },
  fleet: FLEET,
  changedShare: CHANGED_SHARE,
  concurrency: CONCURRENCY,
  bytesRatioGoal: { unchanged: BYTES_RATIO_GOAL, withChangedShare: bytesGoal },
  ratios,
  checks,
  contestants: Object.fromEntries(
    Object.entries(results).map(([name, r]) => [
      name,
      { changedPages: r.changedPages, servedPageBytes: r.pageBytes, crawls: r.crawls },
    ]),
  ),
  runtimeSeconds: (performance.now() - startedAt) / 1000,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
console.log(`\nwrote ${RESULTS_FILE} (${formatFixed(out.runtimeSeconds, 1)} s)`);
