// politely's crawler against Crawlee's CheerioCrawler on a local fleet of loopback hosts
// (issue 4). Run by `pnpm bench` (or `node bench/crawler-run.js` after `pnpm build`); prints a
// table and writes bench/results/crawler.json.
//
//   (a) throughput: 50 hosts × 200 pages, no crawl-delay: pages/s and peak RSS.
//       Goal: politely ≥ 2× Crawlee's pages/s, ≤ ½ its peak RSS, 0 robots violations.
//   (b) polite: 20 hosts × 25 pages, Crawl-delay 0.5: wall time against the bound politeness
//       allows (25 × 0.5 s). Goal: within 5 %, no gap under 500 ms, 0 robots violations.
//   (c) mixed: one host with Crawl-delay 2 and 500 pages beside 40 fast hosts × 100 pages: the
//       time until the fast hosts' pages are all in, against the same 40 hosts crawled alone.
//       Goal: ≤ 1.10. The run is aborted once the fast hosts are done.
//
// Every crawl runs in its own node process (crawler-contestant.js) and the fleet in another
// (crawler-fleet-server.js), so a crawler's peak RSS and CPU are its own; a fresh fleet (and a
// fresh, empty Crawlee storage dir in the temp dir) serves every crawl. Pages are counted from
// the servers' request logs, not from the crawlers' own stats.
//
// Environment: BENCH_CRAWLER_REPS_A (default 1) and BENCH_CRAWLER_REPS_C (default 3, politely
// only) repeat (a) and (c), alternating; BENCH_CRAWLER_CRAWLEE_C=pair adds Crawlee's alone run
// in (c); BENCH_CRAWLER_ONLY=a,b,c picks scenarios. A crawl that fails or passes RUN_TIMEOUT_MS
// is reported as failed, not fatal. CPU time of the crawler process is reported beside wall
// time: on a busy machine it is the steadier measure of work per page.

import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { formatFixed, formatInteger, formatTable, median } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'crawler.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const PRODUCT_TOKEN = 'PolitelyBench';
/** Requests in flight across all hosts, for both contestants. */
const CONCURRENCY = 64;
/**
 * Requests in flight at one host. Crawlee has no per-host limit (only the global
 * maxConcurrency), so where no crawl-delay paces the hosts politely gets none either: its
 * perHostConcurrency is the global concurrency. In (b) it keeps its default of 1, as a polite
 * user would (the crawl-delay allows no more anyway).
 */
const PER_HOST_UNCAPPED = CONCURRENCY;
/** Crawls per contestant in (a), alternating; the median is reported. Crawlee's take ~1 min. */
const REPS_A = Math.max(1, Number(process.env.BENCH_CRAWLER_REPS_A ?? 1));
/** politely's alone/mixed pairs in (c), alternating. */
const REPS_C = Math.max(1, Number(process.env.BENCH_CRAWLER_REPS_C ?? 3));
/**
 * Crawlee in (c): only the mixed crawl unless BENCH_CRAWLER_CRAWLEE_C=pair. Crawlee has no
 * per-host delay, and its one knob, sameDomainDelaySecs, is keyed by tldts.getDomain(url), which
 * is null for an IP address: on this fleet it paces nothing, so the slow host is crawled flat out
 * and an alone/mixed ratio would only measure 500 more pages (and cost another minute).
 */
const CRAWLEE_C_PAIR = process.env.BENCH_CRAWLER_CRAWLEE_C === 'pair';
const ONLY = new Set((process.env.BENCH_CRAWLER_ONLY ?? 'a,b,c').split(','));
const RUN_TIMEOUT_MS = 180_000;
/**
 * No page budget (maxPages / maxRequestsPerCrawl) for either contestant: every fleet is finite,
 * so a full crawl is the same work for both. A budget equal to the fleet's pages would not be
 * fair to Crawlee: CheerioCrawler 3.18 turns the remaining budget into enqueueLinks'
 * maxNewRequests, and once it falls below a page's link count, addRequestsBatched splits the
 * links into chunks of that size and awaits a 1 s waitBetweenBatchesMillis between chunks
 * (measured: 9 links, 6 already queued, maxNewRequests 2 → 4 s; a 5 × 20-page fleet with
 * maxRequestsPerCrawl 100 took 15.9 s, without it 2.7 s).
 */
const PAGE_BUDGET = undefined;

const require = createRequire(import.meta.url);
const versionOf = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const benchStarted = performance.now();

// ---------------------------------------------------------------------------------------------
// Child processes: the fleet server and one contestant's crawl.

function onMessage(child, type, timeoutMs, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
    const listener = (message) => {
      if (message?.type !== type) return;
      clearTimeout(timer);
      child.off('message', listener);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${signal ?? `code ${code}`}) before sending '${type}'`));
    };
    child.on('message', listener);
    child.once('exit', onExit);
  });
}

async function startFleetServer(fleets) {
  const child = fork(join(HERE, 'crawler-fleet-server.js'), [JSON.stringify(fleets)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
  const ready = await onMessage(child, 'ready', 30_000, 'fleet server');
  return {
    fleets: ready.fleets,
    async report() {
      const answer = onMessage(child, 'report', 30_000, 'fleet server');
      child.send({ type: 'report', userAgent: USER_AGENT });
      return (await answer).fleets;
    },
    close: () => {
      const exited = exitOf(child);
      if (child.connected) child.send({ type: 'close' });
      else child.kill();
      return exited;
    },
  };
}

/** Resolves when `child` has exited (at once if it already has). */
function exitOf(child) {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
}

async function runContestant(job) {
  const storageDir = job.contestant === 'crawlee' ? mkdtempSync(join(os.tmpdir(), 'politely-bench-crawlee-')) : undefined;
  const child = fork(join(HERE, 'crawler-contestant.js'), [JSON.stringify({ ...job, storageDir, userAgent: USER_AGENT, productToken: PRODUCT_TOKEN })], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
    cwd: storageDir ?? HERE,
  });
  try {
    const result = await onMessage(child, 'result', RUN_TIMEOUT_MS, `${job.contestant} crawl`);
    await exitOf(child);
    return result;
  } catch (error) {
    child.kill('SIGKILL');
    await exitOf(child);
    throw error;
  } finally {
    if (storageDir !== undefined) rmSync(storageDir, { recursive: true, force: true });
  }
}

/** One crawl against a fresh fleet: the contestant's own figures and the servers' logs. */
async function crawl({ fleets, contestant, seeds, maxPages, perHostConcurrency, sameDomainDelaySecs, stopWhen }) {
  const server = await startFleetServer(fleets);
  try {
    const job = {
      contestant,
      seeds: seeds(server.fleets),
      maxPages,
      concurrency: CONCURRENCY,
      perHostConcurrency,
      sameDomainDelaySecs,
      ...(stopWhen === undefined ? {} : { stopWhen: stopWhen(server.fleets) }),
    };
    const result = await runContestant(job);
    const logs = await server.report();
    return { ...result, logs };
  } finally {
    await server.close();
  }
}

/** crawl(), or null (reported) when the crawl failed or timed out: one slow run must not sink the rest. */
async function tryCrawl(label, options) {
  try {
    return await crawl(options);
  } catch (error) {
    progress(`${label}: FAILED (${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
}

const frontPages = (fleet) => fleet.hosts.map((host) => `${host.origin}/`);
const pagesOf = (fleet) => fleet.hosts.reduce((sum, host) => sum + host.pages, 0);
const mb = (bytes) => bytes / 1024 / 1024;
const medianBy = (runs, pick) => median(runs.map(pick));
/** The largest value, NaN for none (a contestant whose crawls all failed). */
const worst = (values) => (values.length === 0 ? NaN : Math.max(...values));
const CONTESTANTS = ['politely', 'crawlee'];

function progress(line) {
  process.stdout.write(`  ${line}\n`);
}

// ---------------------------------------------------------------------------------------------
// (a) throughput

async function throughput() {
  const fleets = [{ hosts: 50, pagesPerHost: 200 }];
  const runs = { politely: [], crawlee: [] };
  for (let rep = 0; rep < REPS_A; rep++) {
    for (const contestant of rep % 2 === 0 ? CONTESTANTS : [...CONTESTANTS].reverse()) {
      const run = await tryCrawl(`(a) ${contestant}`, {
        fleets,
        contestant,
        seeds: ([fleet]) => frontPages(fleet),
        maxPages: PAGE_BUDGET,
        perHostConcurrency: PER_HOST_UNCAPPED,
        sameDomainDelaySecs: 0,
      });
      if (run === null) continue;
      const log = run.logs[0];
      const figures = {
        wallMs: run.wallMs,
        pagesFetched: log.pagesOk,
        pageRequests: log.pageRequests,
        repeatedRequests: log.repeatedRequests,
        robotsRequests: log.robotsRequests,
        robotsViolations: log.robotsViolations,
        pagesPerSecond: log.pagesOk / (run.wallMs / 1000),
        cpuMs: run.cpuMs,
        pagesPerCpuSecond: log.pagesOk / (run.cpuMs / 1000),
        peakRssMb: mb(run.peakRssBytes),
        baselineRssMb: mb(run.baselineRssBytes),
        statusCounts: log.statusCounts,
        userAgents: log.userAgents,
        own: run.own,
      };
      runs[contestant].push(figures);
      progress(
        `(a) ${contestant.padEnd(8)} rep ${rep + 1}: ${log.pagesOk} pages in ${formatFixed(run.wallMs / 1000, 2)} s = ` +
          `${formatInteger(figures.pagesPerSecond)} pages/s (${formatInteger(figures.pagesPerCpuSecond)} per CPU-s), peak RSS ${formatFixed(figures.peakRssMb, 1)} MB, ` +
          `${log.robotsViolations} robots violations`,
      );
    }
  }
  const summary = (list) => ({
    pagesPerSecond: medianBy(list, (r) => r.pagesPerSecond),
    pagesPerCpuSecond: medianBy(list, (r) => r.pagesPerCpuSecond),
    peakRssMb: medianBy(list, (r) => r.peakRssMb),
    wallMs: medianBy(list, (r) => r.wallMs),
    pagesFetched: medianBy(list, (r) => r.pagesFetched),
    robotsViolations: worst(list.map((r) => r.robotsViolations)),
  });
  const politely = summary(runs.politely);
  const crawlee = summary(runs.crawlee);
  const speedRatio = politely.pagesPerSecond / crawlee.pagesPerSecond;
  const rssRatio = politely.peakRssMb / crawlee.peakRssMb;
  const cpuRatio = politely.pagesPerCpuSecond / crawlee.pagesPerCpuSecond;
  return {
    setup: { ...fleets[0], seeds: 'every host\'s /', pages: 50 * 200, concurrency: CONCURRENCY, politelyPerHostConcurrency: PER_HOST_UNCAPPED, politelyMinDelayMs: 0, crawleeSameDomainDelaySecs: 0, reps: REPS_A },
    politely,
    crawlee,
    ratios: { pagesPerSecond: speedRatio, peakRss: rssRatio, pagesPerCpuSecond: cpuRatio },
    goals: {
      pagesPerSecondAtLeast2x: speedRatio >= 2,
      peakRssAtMostHalf: rssRatio <= 0.5,
      politelyZeroRobotsViolations: politely.robotsViolations === 0,
    },
    runs,
  };
}

// ---------------------------------------------------------------------------------------------
// (b) polite

async function polite() {
  const hosts = 20;
  const pagesPerHost = 25;
  const delaySeconds = 0.5;
  const fleets = [{ hosts, pagesPerHost, crawlDelaySeconds: delaySeconds }];
  const boundMs = pagesPerHost * delaySeconds * 1000;
  const result = { setup: { ...fleets[0], boundMs, concurrency: CONCURRENCY, politelyPerHostConcurrency: 1, crawleeSameDomainDelaySecs: delaySeconds } };
  for (const contestant of CONTESTANTS) {
    const run = await tryCrawl(`(b) ${contestant}`, {
      fleets,
      contestant,
      seeds: ([fleet]) => frontPages(fleet),
      maxPages: PAGE_BUDGET,
      perHostConcurrency: 1,
      sameDomainDelaySecs: delaySeconds,
    });
    if (run === null) {
      result[contestant] = { failed: true, wallMs: NaN, wallOverBound: NaN, minGapMs: NaN, robotsViolations: NaN, hostsWithAGapUnderDelay: NaN };
      continue;
    }
    const log = run.logs[0];
    const gapsUnderDelay = Object.values(log.minGapMsByOrigin).filter((gap) => gap < delaySeconds * 1000).length;
    result[contestant] = {
      wallMs: run.wallMs,
      cpuMs: run.cpuMs,
      wallOverBound: run.wallMs / boundMs,
      // The servers' view: first request (robots.txt) to the last page request, against the bound.
      serverSpanMs: log.lastPageDateMs - log.firstRequestDateMs,
      serverSpanOverBound: (log.lastPageDateMs - log.firstRequestDateMs) / boundMs,
      // From the last page the handler saw to run() resolving.
      tailAfterLastPageMs: run.lastPageMs === null ? null : run.wallMs - run.lastPageMs,
      pagesFetched: log.pagesOk,
      robotsRequests: log.robotsRequests,
      robotsViolations: log.robotsViolations,
      minGapMs: log.minGapMs,
      hostsWithAGapUnderDelay: gapsUnderDelay,
      peakRssMb: mb(run.peakRssBytes),
      minGapMsByOrigin: log.minGapMsByOrigin,
      gapsUnderDelay: log.gapsUnderThreshold,
      own: run.own,
    };
    progress(
      `(b) ${contestant.padEnd(8)}: ${log.pagesOk} pages in ${formatFixed(run.wallMs / 1000, 2)} s ` +
        `(bound ${formatFixed(boundMs / 1000, 1)} s, ratio ${formatFixed(run.wallMs / boundMs, 3)}), ` +
        `min gap ${formatFixed(log.minGapMs, 1)} ms, ${gapsUnderDelay}/${hosts} hosts with a gap under ${delaySeconds * 1000} ms, ` +
        `${log.robotsViolations} robots violations`,
    );
  }
  const p = result.politely;
  result.ratios = { politelyWallOverBound: p.wallOverBound, crawleeWallOverBound: result.crawlee.wallOverBound };
  result.goals = {
    wallWithin5PercentOfBound: p.wallOverBound <= 1.05,
    noGapUnderCrawlDelay: p.minGapMs >= delaySeconds * 1000,
    zeroRobotsViolations: p.robotsViolations === 0,
  };
  return result;
}

// ---------------------------------------------------------------------------------------------
// (c) mixed

async function mixed() {
  const slow = { hosts: 1, pagesPerHost: 500, crawlDelaySeconds: 2, firstAddress: 2 };
  const fast = { hosts: 40, pagesPerHost: 100, firstAddress: 3 };
  const fleets = [slow, fast];
  const runs = { politely: { alone: [], mixed: [] }, crawlee: { alone: [], mixed: [] } };
  const once = async (contestant, variant) => {
    const run = await tryCrawl(`(c) ${contestant} ${variant}`, {
      fleets,
      contestant,
      seeds: ([slowFleet, fastFleet]) => [...frontPages(fastFleet), ...(variant === 'mixed' ? frontPages(slowFleet) : [])],
      maxPages: PAGE_BUDGET,
      perHostConcurrency: PER_HOST_UNCAPPED,
      // Crawlee has no per-host delay and ignores Crawl-delay: the careful user sets the slow
      // host's 2 s as the same-domain delay (which would pace every host alike).
      sameDomainDelaySecs: variant === 'mixed' ? 2 : 0,
      stopWhen: ([, fastFleet]) => ({ origins: fastFleet.hosts.map((host) => host.origin), pages: pagesOf(fastFleet) }),
    });
    if (run === null) return;
    const [slowLog, fastLog] = run.logs;
    const figures = {
      fastDoneMs: run.doneMs,
      wallMs: run.wallMs,
      cpuMs: run.cpuMs,
      fastPagesSeen: run.watchedDone,
      fastPagesFetched: fastLog.pagesOk,
      fastServerSpanMs: fastLog.lastPageDateMs === null ? null : fastLog.lastPageDateMs - run.startedAtDateMs,
      slowPagesFetched: slowLog.pagesOk,
      slowRequests: slowLog.requests,
      slowMinGapMs: slowLog.minGapMs,
      slowGapsUnderDelay: slowLog.gapsUnderThreshold,
      robotsViolations: slowLog.robotsViolations + fastLog.robotsViolations,
      peakRssMb: mb(run.peakRssBytes),
      own: run.own,
    };
    runs[contestant][variant].push(figures);
    const gap = figures.slowMinGapMs === null ? '–' : `${formatFixed(figures.slowMinGapMs, 1)} ms`;
    progress(
      `(c) ${contestant.padEnd(8)} ${variant.padEnd(5)}: fast hosts done in ${run.doneMs === null ? 'never' : `${formatFixed(run.doneMs / 1000, 2)} s`} ` +
        `(${figures.fastPagesFetched} fast pages), slow host: ${figures.slowPagesFetched} pages, min gap ${gap}`,
    );
  };
  for (let rep = 0; rep < REPS_C; rep++) {
    for (const variant of rep % 2 === 0 ? ['alone', 'mixed'] : ['mixed', 'alone']) await once('politely', variant);
  }
  for (const variant of CRAWLEE_C_PAIR ? ['alone', 'mixed'] : ['mixed']) await once('crawlee', variant);
  // Medians of alternating runs: on a 2-CPU machine shared with the fleet (and whatever else
  // runs), one crawl of 4,000 pages varies by ±20 % from run to run, so one pair proves little.
  // The best of each variant and the CPU time ratio are kept beside it.
  const best = (list) => (list.length === 0 ? NaN : Math.min(...list.map((r) => r.fastDoneMs ?? Infinity)));
  const summary = (contestant) => ({
    aloneFastDoneMs: medianBy(runs[contestant].alone, (r) => r.fastDoneMs),
    mixedFastDoneMs: medianBy(runs[contestant].mixed, (r) => r.fastDoneMs),
    mixedOverAlone: medianBy(runs[contestant].mixed, (r) => r.fastDoneMs) / medianBy(runs[contestant].alone, (r) => r.fastDoneMs),
    bestMixedOverAlone: best(runs[contestant].mixed) / best(runs[contestant].alone),
    mixedOverAloneCpu: medianBy(runs[contestant].mixed, (r) => r.cpuMs) / medianBy(runs[contestant].alone, (r) => r.cpuMs),
    slowHostPagesInMixed: medianBy(runs[contestant].mixed, (r) => r.slowPagesFetched),
    slowHostMinGapMs: Math.min(...runs[contestant].mixed.map((r) => r.slowMinGapMs ?? Infinity)),
    robotsViolations: worst([...runs[contestant].alone, ...runs[contestant].mixed].map((r) => r.robotsViolations)),
  });
  const politely = summary('politely');
  const crawlee = summary('crawlee');
  return {
    setup: { slow, fast, concurrency: CONCURRENCY, politelyPerHostConcurrency: PER_HOST_UNCAPPED, crawleeSameDomainDelaySecs: { alone: 0, mixed: 2 }, politelyReps: REPS_C, crawlee: CRAWLEE_C_PAIR ? 'alone and mixed' : 'mixed only', ratio: 'median mixed / median alone (time until the fast hosts\' pages are all in)' },
    politely,
    crawlee,
    ratios: { politelyMixedOverAlone: politely.mixedOverAlone, crawleeMixedOverAlone: crawlee.mixedOverAlone },
    goals: {
      fastHostsWithin10Percent: politely.mixedOverAlone <= 1.1,
      slowHostGapAtLeastCrawlDelay: politely.slowHostMinGapMs >= 2000,
      zeroRobotsViolations: politely.robotsViolations === 0,
    },
    runs,
  };
}

// ---------------------------------------------------------------------------------------------
// Run, print, save.

const scenarios = {};
if (ONLY.has('a')) {
  console.log('(a) throughput: 50 hosts × 200 pages, no crawl-delay');
  scenarios.throughput = await throughput();
}
if (ONLY.has('b')) {
  console.log('(b) polite: 20 hosts × 25 pages, Crawl-delay 0.5');
  scenarios.polite = await polite();
}
if (ONLY.has('c')) {
  console.log('(c) mixed: 1 host × 500 pages with Crawl-delay 2 beside 40 fast hosts × 100 pages');
  scenarios.mixed = await mixed();
}

const rows = [];
const s = (n) => `${formatFixed(n / 1000, 2)} s`;
const yes = (ok) => (ok ? 'met' : 'MISSED');
if (scenarios.throughput) {
  const { politely: p, crawlee: c, ratios, goals } = scenarios.throughput;
  rows.push(['(a) pages/s', formatInteger(p.pagesPerSecond), formatInteger(c.pagesPerSecond), `${formatFixed(ratios.pagesPerSecond, 2)}×`, '≥ 2×', yes(goals.pagesPerSecondAtLeast2x)]);
  rows.push(['(a) pages per CPU-second', formatInteger(p.pagesPerCpuSecond), formatInteger(c.pagesPerCpuSecond), `${formatFixed(ratios.pagesPerCpuSecond, 2)}×`, '', '']);
  rows.push(['(a) peak RSS', `${formatFixed(p.peakRssMb, 1)} MB`, `${formatFixed(c.peakRssMb, 1)} MB`, `${formatFixed(ratios.peakRss, 2)}×`, '≤ 0.5×', yes(goals.peakRssAtMostHalf)]);
  rows.push(['(a) pages fetched / wall', `${p.pagesFetched} / ${s(p.wallMs)}`, `${c.pagesFetched} / ${s(c.wallMs)}`, '', '', '']);
  rows.push(['(a) robots violations', String(p.robotsViolations), String(c.robotsViolations), '', '0', yes(goals.politelyZeroRobotsViolations)]);
}
if (scenarios.polite) {
  const { politely: p, crawlee: c, setup, goals } = scenarios.polite;
  rows.push(['(b) wall / bound', `${s(p.wallMs)} / ${s(setup.boundMs)}`, `${s(c.wallMs)} / ${s(setup.boundMs)}`, `${formatFixed(p.wallOverBound, 3)}×`, '≤ 1.05×', yes(goals.wallWithin5PercentOfBound)]);
  rows.push(['(b) server span / bound', `${s(p.serverSpanMs)}`, `${s(c.serverSpanMs)}`, `${formatFixed(p.serverSpanOverBound, 3)}×`, '', '']);
  rows.push(['(b) last page → run() ends', `${formatInteger(p.tailAfterLastPageMs)} ms`, `${formatInteger(c.tailAfterLastPageMs)} ms`, '', '', '']);
  rows.push(['(b) min gap per host', `${formatFixed(p.minGapMs, 1)} ms`, `${formatFixed(c.minGapMs, 1)} ms`, '', '≥ 500 ms', yes(goals.noGapUnderCrawlDelay)]);
  rows.push(['(b) hosts with a gap < 500 ms', `${p.hostsWithAGapUnderDelay}`, `${c.hostsWithAGapUnderDelay}`, '', '0', yes(p.hostsWithAGapUnderDelay === 0)]);
  rows.push(['(b) robots violations', String(p.robotsViolations), String(c.robotsViolations), '', '0', yes(goals.zeroRobotsViolations)]);
}
if (scenarios.mixed) {
  const { politely: p, crawlee: c, goals } = scenarios.mixed;
  const maybe = (ms) => (Number.isFinite(ms) ? s(ms) : 'not run');
  rows.push(['(c) fast hosts done, alone', s(p.aloneFastDoneMs), maybe(c.aloneFastDoneMs), '', '', '']);
  rows.push(['(c) fast hosts done, mixed', s(p.mixedFastDoneMs), maybe(c.mixedFastDoneMs), `${formatFixed(p.mixedOverAlone, 3)}×`, '≤ 1.10×', yes(goals.fastHostsWithin10Percent)]);
  rows.push(['(c) mixed / alone: best, CPU', `${formatFixed(p.bestMixedOverAlone, 3)}×, ${formatFixed(p.mixedOverAloneCpu, 3)}×`, Number.isFinite(c.mixedOverAlone) ? `${formatFixed(c.mixedOverAlone, 3)}×` : '', '', '', '']);
  rows.push(['(c) slow host: pages, min gap', `${p.slowHostPagesInMixed}, ${formatFixed(p.slowHostMinGapMs, 0)} ms`, `${c.slowHostPagesInMixed}, ${formatFixed(c.slowHostMinGapMs, 0)} ms`, '', '≥ 2000 ms', yes(goals.slowHostGapAtLeastCrawlDelay)]);
  rows.push(['(c) robots violations', String(p.robotsViolations), String(c.robotsViolations), '', '0', yes(goals.zeroRobotsViolations)]);
}
console.log(`\n${formatTable(['figure', 'politely', 'Crawlee', 'ratio', 'goal', ''], rows)}`);

const results = {
  benchmark: 'crawler',
  date: new Date().toISOString(),
  environment: {
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
  },
  contestants: { politely: versionOf('@politely/crawler'), crawlee: versionOf('@crawlee/cheerio') },
  method: {
    processes: 'each crawl in its own node process (crawler-contestant.js), the fleet in another (crawler-fleet-server.js); a fresh fleet per crawl',
    pagesCountedFrom: 'the fleet servers\' request logs (status 200, robots.txt excluded)',
    wall: 'crawler.run() start to end, inside the crawler process',
    peakRss: 'VmHWM of the crawler process (whole life, imports included); sampled every 50 ms as a cross-check',
    userAgent: USER_AGENT,
    concurrency: CONCURRENCY,
    crawlee: 'CheerioCrawler: respectRobotsTxtFile { userAgent: PolitelyBench }, sameDomainDelaySecs per scenario, minConcurrency = maxConcurrency, no maxRequestsPerCrawl (see crawler-run.js), default retries, enqueueLinks({ strategy: "all" }), our User-Agent without generated browser headers, memory-only storage in a temp dir removed after each crawl',
    politely: 'createCrawler: scope "any", minDelayMs 0, perHostConcurrency = concurrency where no crawl-delay applies (Crawlee has no per-host cap) and 1 in (b), no maxPages, default retries',
    reps: { a: REPS_A, c: { politely: REPS_C, crawlee: 1 } },
  },
  scenarios,
  totalSeconds: (performance.now() - benchStarted) / 1000,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nwrote ${RESULTS_FILE} (${formatFixed(results.totalSeconds, 1)} s)`);
