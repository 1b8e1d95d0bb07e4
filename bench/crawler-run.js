// politely's crawler against Crawlee's CheerioCrawler on a local fleet of loopback hosts
// (issues 4 and 13). Run by `pnpm bench` (or `node bench/crawler-run.js` after `pnpm build`);
// prints a table and writes bench/results/crawler.json.
//
//   (a) throughput: 50 hosts × 200 pages, no crawl-delay, for both page profiles of the fleet:
//       'small' pages of 2–5 KB and 'realistic' pages of 20–60 KB (a head of meta tags, inline
//       styles and scripts, JSON-LD, menus, long paragraphs, comments, 20–60 links; the same
//       pages linked). Per contestant and profile: pages/s, CPU ms per page, peak RSS, GC share.
//       Goals, small pages (issue 4): politely ≥ 2× Crawlee's pages/s, ≤ ½ its peak RSS.
//       Goals, realistic pages (issue 13): ≥ 5× Crawlee's pages/s, ≤ 0.25× its peak RSS,
//       ≤ 1.5 ms CPU per page, GC < 15 % of the crawler's CPU. Reported, never enforced.
//   (b) polite: 20 hosts × 25 pages, Crawl-delay 0.5: wall time against the bound politeness
//       allows (25 × 0.5 s). Goal: within 5 %, no gap under 500 ms, 0 robots violations.
//   (c) mixed: one host with Crawl-delay 2 and 500 pages beside 40 fast hosts × 100 pages: the
//       time until the fast hosts' pages are all in, against the same 40 hosts crawled alone.
//       Goal: ≤ 1.10. The run is aborted once the fast hosts are done.
//   (d) as others measure (issue 34): the realistic fleet of (a), Crawlee with its defaults (its
//       autoscaler picks the concurrency), politely with a per-host limit of 4. Goals: ≥ 6×
//       Crawlee's pages/s, ≤ 1.0 ms CPU per page, peak RSS ≤ 150 MB and ≤ 0.2× Crawlee's.
//
// Every crawl runs in its own node process (crawler-contestant.js) and the fleet in another
// (crawler-fleet-server.js), so a crawler's peak RSS and CPU are its own; a fresh fleet (and a
// fresh, empty Crawlee storage dir in the temp dir) serves every crawl. Pages are counted from
// the servers' request logs, not from the crawlers' own stats. Both crawl the fleet's hosts and
// nothing else (FLEET_URL_PATTERN): realistic pages also link origins outside the fleet.
//
// Measures: CPU ms per page = the crawler process's CPU time (user + system, all threads, from
// run() start to end) / pages the servers served with status 200; on a busy machine it is the
// steadier measure of work per page than wall time. GC share = the main-thread
// pauses V8 reports as `gc` performance entries during the crawl / that CPU time (a floor: GC
// work on helper threads outside pauses is not counted); its share of the wall time is kept too.
// The fleet server's own CPU time per page is reported, to show it was not the bottleneck.
//
// Environment: BENCH_CRAWLER_REPS_A (default 1) and BENCH_CRAWLER_REPS_C (default 3, politely
// only) repeat (a) and (c), alternating; BENCH_CRAWLER_PROFILES=small,realistic picks the page
// profiles of (a); BENCH_CRAWLER_CRAWLEE_C=pair adds Crawlee's alone run in (c);
// BENCH_CRAWLER_ONLY=a,b,c,d picks scenarios; BENCH_CRAWLER_A_HOSTS and BENCH_CRAWLER_A_PAGES
// shrink (a)'s fleet for a quick run (default 50 × 200). A crawl that fails or passes
// RUN_TIMEOUT_MS is reported as failed, not fatal.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { formatFixed, formatInteger, formatTable, machineEnvironment, median } from './harness.js';
import { FLEET_URL_PATTERN, frontPages, runContestant, startFleetServer } from './processes.js';

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
/** Crawls per contestant and profile in (a), alternating; the median is reported. */
const REPS_A = Math.max(1, Number(process.env.BENCH_CRAWLER_REPS_A ?? 1));
const PROFILES_A = (process.env.BENCH_CRAWLER_PROFILES ?? 'small,realistic').split(',');
const FLEET_A = {
  hosts: Number(process.env.BENCH_CRAWLER_A_HOSTS ?? 50),
  pagesPerHost: Number(process.env.BENCH_CRAWLER_A_PAGES ?? 200),
};
/** politely's alone/mixed pairs in (c), alternating. */
const REPS_C = Math.max(1, Number(process.env.BENCH_CRAWLER_REPS_C ?? 3));
/**
 * Crawlee in (c): only the mixed crawl unless BENCH_CRAWLER_CRAWLEE_C=pair. Crawlee has no
 * per-host delay, and its one knob, sameDomainDelaySecs, is keyed by tldts.getDomain(url), which
 * is null for an IP address: on this fleet it paces nothing, so the slow host is crawled flat out
 * and an alone/mixed ratio would only measure 500 more pages (and cost another minute).
 */
const CRAWLEE_C_PAIR = process.env.BENCH_CRAWLER_CRAWLEE_C === 'pair';
const ONLY = new Set((process.env.BENCH_CRAWLER_ONLY ?? 'a,b,c,d').split(','));
/** politely's per-host limit in (d), as a user who wants it polite but busy would set it. */
const PER_HOST_D = 4;
/** The goals of issue 34 for (d), politely against Crawlee in one run. */
const AS_OTHERS_GOALS = { pagesPerSecondRatio: 6, cpuMsPerPage: 1.0, peakRssMb: 150, peakRssRatio: 0.2 };
/** Crawlee's crawl of 10,000 realistic pages takes one to two minutes on this machine. */
const RUN_TIMEOUT_MS = 300_000;
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
/** The goals of issue 13 for realistic pages (politely against Crawlee, in one run). */
const REALISTIC_GOALS = { pagesPerSecondRatio: 5, peakRssRatio: 0.25, cpuMsPerPage: 1.5, gcShareOfCpu: 0.15 };

const require = createRequire(import.meta.url);
const versionOf = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const benchStarted = performance.now();

// ---------------------------------------------------------------------------------------------
// One crawl: a fresh fleet server, one contestant, the servers' logs.

/** One crawl against a fresh fleet: the contestant's own figures, the servers' logs and the server's CPU. */
async function crawl({
  fleets,
  contestant,
  seeds,
  maxPages,
  perHostConcurrency,
  sameDomainDelaySecs,
  stopWhen,
  crawleeAutoscale,
}) {
  const server = await startFleetServer(fleets);
  try {
    const job = {
      contestant,
      userAgent: USER_AGENT,
      productToken: PRODUCT_TOKEN,
      scopePattern: FLEET_URL_PATTERN,
      seeds: seeds(server.fleets),
      maxPages,
      concurrency: CONCURRENCY,
      perHostConcurrency,
      sameDomainDelaySecs,
      ...(crawleeAutoscale === true ? { crawleeAutoscale } : {}),
      ...(stopWhen === undefined ? {} : { stopWhen: stopWhen(server.fleets) }),
    };
    const result = await runContestant(job, RUN_TIMEOUT_MS);
    const { logs, server: serverCpu } = await server.report(USER_AGENT);
    return { ...result, logs, server: serverCpu, pageBytes: server.pageBytes };
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

const pagesOf = (fleet) => fleet.hosts.reduce((sum, host) => sum + host.pages, 0);
const mb = (bytes) => bytes / 1024 / 1024;
const medianBy = (runs, pick) => median(runs.map(pick));
/** The largest value, NaN for none (a contestant whose crawls all failed). */
const worst = (values) => (values.length === 0 ? NaN : Math.max(...values));
const percent = (share) => `${formatFixed(share * 100, 1)} %`;
const CONTESTANTS = ['politely', 'crawlee'];

function progress(line) {
  process.stdout.write(`  ${line}\n`);
}

// ---------------------------------------------------------------------------------------------
// (a) throughput, for each page profile

/** The figures of one throughput crawl, from the servers' logs and the crawler's own clocks. */
function throughputFigures(run) {
  const log = run.logs[0];
  return {
    wallMs: run.wallMs,
    pagesFetched: log.pagesOk,
    pageRequests: log.pageRequests,
    repeatedRequests: log.repeatedRequests,
    robotsRequests: log.robotsRequests,
    robotsViolations: log.robotsViolations,
    pagesPerSecond: log.pagesOk / (run.wallMs / 1000),
    cpuMs: run.cpuMs,
    cpuUserMs: run.cpuUserMs,
    cpuSystemMs: run.cpuSystemMs,
    cpuMsPerPage: run.cpuMs / log.pagesOk,
    pagesPerCpuSecond: log.pagesOk / (run.cpuMs / 1000),
    gcMs: run.gc.ms,
    gcPauses: run.gc.pauses,
    gcMsByKind: run.gc.msByKind,
    gcShareOfCpu: run.gc.shareOfCpu,
    gcShareOfWall: run.gc.shareOfWall,
    peakRssMb: mb(run.peakRssBytes),
    baselineRssMb: mb(run.baselineRssBytes),
    // The fleet server's CPU over its whole life after 'ready' (the crawl and the report).
    serverCpuMsPerPage: run.server.cpuMs / log.pagesOk,
    serverCpuShareOfCrawl: run.server.cpuMs / run.wallMs,
    statusCounts: log.statusCounts,
    userAgents: log.userAgents,
    own: run.own,
  };
}

function throughputSummary(list) {
  return {
    pagesPerSecond: medianBy(list, (r) => r.pagesPerSecond),
    cpuMsPerPage: medianBy(list, (r) => r.cpuMsPerPage),
    pagesPerCpuSecond: medianBy(list, (r) => r.pagesPerCpuSecond),
    peakRssMb: medianBy(list, (r) => r.peakRssMb),
    gcShareOfCpu: medianBy(list, (r) => r.gcShareOfCpu),
    gcShareOfWall: medianBy(list, (r) => r.gcShareOfWall),
    wallMs: medianBy(list, (r) => r.wallMs),
    pagesFetched: medianBy(list, (r) => r.pagesFetched),
    serverCpuMsPerPage: medianBy(list, (r) => r.serverCpuMsPerPage),
    robotsViolations: worst(list.map((r) => r.robotsViolations)),
  };
}

async function throughputCrawl(profile, contestant, rep) {
  const fleets = [{ ...FLEET_A, pageProfile: profile }];
  const run = await tryCrawl(`(a) ${profile} ${contestant}`, {
    fleets,
    contestant,
    seeds: ([fleet]) => frontPages(fleet),
    maxPages: PAGE_BUDGET,
    perHostConcurrency: PER_HOST_UNCAPPED,
    sameDomainDelaySecs: 0,
  });
  if (run === null) return null;
  const figures = throughputFigures(run);
  progress(
    `(a) ${profile.padEnd(9)} ${contestant.padEnd(8)} rep ${rep + 1}: ${figures.pagesFetched} pages in ${formatFixed(run.wallMs / 1000, 2)} s = ` +
      `${formatInteger(figures.pagesPerSecond)} pages/s, ${formatFixed(figures.cpuMsPerPage, 2)} ms CPU/page, GC ${percent(figures.gcShareOfCpu)} of CPU, ` +
      `peak RSS ${formatFixed(figures.peakRssMb, 1)} MB, ${figures.robotsViolations} robots violations ` +
      `(server: ${formatFixed(figures.serverCpuMsPerPage, 3)} ms CPU/page, ${percent(figures.serverCpuShareOfCrawl)} of a core)`,
  );
  return { figures, pageBytes: run.pageBytes[0] };
}

/** Ratios politely / Crawlee, and the goals met or missed for the profile. */
function throughputVerdict(profile, politely, crawlee) {
  const ratios = {
    pagesPerSecond: politely.pagesPerSecond / crawlee.pagesPerSecond,
    peakRss: politely.peakRssMb / crawlee.peakRssMb,
    cpuMsPerPage: politely.cpuMsPerPage / crawlee.cpuMsPerPage,
    pagesPerCpuSecond: politely.pagesPerCpuSecond / crawlee.pagesPerCpuSecond,
    gcShareOfCpu: politely.gcShareOfCpu / crawlee.gcShareOfCpu,
  };
  const goals =
    profile === 'realistic'
      ? {
          pagesPerSecondAtLeast5x: ratios.pagesPerSecond >= REALISTIC_GOALS.pagesPerSecondRatio,
          peakRssAtMostQuarter: ratios.peakRss <= REALISTIC_GOALS.peakRssRatio,
          cpuAtMost1_5MsPerPage: politely.cpuMsPerPage <= REALISTIC_GOALS.cpuMsPerPage,
          gcUnder15PercentOfCpu: politely.gcShareOfCpu < REALISTIC_GOALS.gcShareOfCpu,
          politelyZeroRobotsViolations: politely.robotsViolations === 0,
        }
      : {
          pagesPerSecondAtLeast2x: ratios.pagesPerSecond >= 2,
          peakRssAtMostHalf: ratios.peakRss <= 0.5,
          politelyZeroRobotsViolations: politely.robotsViolations === 0,
        };
  return { ratios, goals };
}

async function throughput() {
  const profiles = {};
  const runs = Object.fromEntries(PROFILES_A.map((profile) => [profile, { politely: [], crawlee: [] }]));
  const pageBytes = {};
  for (let rep = 0; rep < REPS_A; rep++) {
    for (const profile of PROFILES_A) {
      for (const contestant of rep % 2 === 0 ? CONTESTANTS : [...CONTESTANTS].reverse()) {
        const result = await throughputCrawl(profile, contestant, rep);
        if (result === null) continue;
        runs[profile][contestant].push(result.figures);
        pageBytes[profile] = result.pageBytes;
      }
    }
  }
  for (const profile of PROFILES_A) {
    const politely = throughputSummary(runs[profile].politely);
    const crawlee = throughputSummary(runs[profile].crawlee);
    profiles[profile] = {
      pageBytes: pageBytes[profile],
      politely,
      crawlee,
      ...throughputVerdict(profile, politely, crawlee),
      runs: runs[profile],
    };
  }
  return {
    setup: {
      ...FLEET_A,
      profiles: PROFILES_A,
      seeds: "every host's /",
      pages: FLEET_A.hosts * FLEET_A.pagesPerHost,
      scope: FLEET_URL_PATTERN,
      concurrency: CONCURRENCY,
      politelyPerHostConcurrency: PER_HOST_UNCAPPED,
      politelyMinDelayMs: 0,
      crawleeSameDomainDelaySecs: 0,
      reps: REPS_A,
      realisticGoals: REALISTIC_GOALS,
    },
    profiles,
  };
}

// ---------------------------------------------------------------------------------------------
// (d) as others measure: Crawlee with its defaults (its autoscaler ramps concurrency up as the
// machine allows), politely with a per-host limit of 4 rather than none. Realistic pages.

async function asOthersMeasure() {
  const fleets = [{ ...FLEET_A, pageProfile: 'realistic' }];
  const figures = {};
  for (const contestant of CONTESTANTS) {
    const run = await tryCrawl(`(d) ${contestant}`, {
      fleets,
      contestant,
      seeds: ([fleet]) => frontPages(fleet),
      maxPages: PAGE_BUDGET,
      perHostConcurrency: PER_HOST_D,
      sameDomainDelaySecs: 0,
      crawleeAutoscale: true,
    });
    if (run === null) continue;
    figures[contestant] = throughputFigures(run);
    const f = figures[contestant];
    progress(
      `(d) ${contestant.padEnd(8)}: ${f.pagesFetched} pages in ${formatFixed(run.wallMs / 1000, 2)} s = ` +
        `${formatInteger(f.pagesPerSecond)} pages/s, ${formatFixed(f.cpuMsPerPage, 2)} ms CPU/page, peak RSS ${formatFixed(f.peakRssMb, 1)} MB`,
    );
  }
  const { politely: p, crawlee: c } = figures;
  const ratios =
    p === undefined || c === undefined
      ? null
      : { pagesPerSecond: p.pagesPerSecond / c.pagesPerSecond, peakRss: p.peakRssMb / c.peakRssMb };
  return {
    setup: {
      ...FLEET_A,
      profile: 'realistic',
      politelyConcurrency: CONCURRENCY,
      politelyPerHostConcurrency: PER_HOST_D,
      crawlee: 'CheerioCrawler defaults (autoscaled concurrency), robots.txt on',
      goals: AS_OTHERS_GOALS,
    },
    politely: p ?? null,
    crawlee: c ?? null,
    ratios,
    goals:
      ratios === null
        ? null
        : {
            pagesPerSecondAtLeast6x: ratios.pagesPerSecond >= AS_OTHERS_GOALS.pagesPerSecondRatio,
            cpuAtMost1MsPerPage: p.cpuMsPerPage <= AS_OTHERS_GOALS.cpuMsPerPage,
            peakRssAtMost150Mb: p.peakRssMb <= AS_OTHERS_GOALS.peakRssMb,
            peakRssAtMostFifth: ratios.peakRss <= AS_OTHERS_GOALS.peakRssRatio,
          },
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
  const result = {
    setup: {
      ...fleets[0],
      boundMs,
      concurrency: CONCURRENCY,
      politelyPerHostConcurrency: 1,
      crawleeSameDomainDelaySecs: delaySeconds,
    },
  };
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
      result[contestant] = {
        failed: true,
        wallMs: NaN,
        wallOverBound: NaN,
        minGapMs: NaN,
        robotsViolations: NaN,
        hostsWithAGapUnderDelay: NaN,
      };
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
      seeds: ([slowFleet, fastFleet]) => [
        ...frontPages(fastFleet),
        ...(variant === 'mixed' ? frontPages(slowFleet) : []),
      ],
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
    mixedOverAlone:
      medianBy(runs[contestant].mixed, (r) => r.fastDoneMs) / medianBy(runs[contestant].alone, (r) => r.fastDoneMs),
    bestMixedOverAlone: best(runs[contestant].mixed) / best(runs[contestant].alone),
    mixedOverAloneCpu:
      medianBy(runs[contestant].mixed, (r) => r.cpuMs) / medianBy(runs[contestant].alone, (r) => r.cpuMs),
    slowHostPagesInMixed: medianBy(runs[contestant].mixed, (r) => r.slowPagesFetched),
    slowHostMinGapMs: Math.min(...runs[contestant].mixed.map((r) => r.slowMinGapMs ?? Infinity)),
    robotsViolations: worst([...runs[contestant].alone, ...runs[contestant].mixed].map((r) => r.robotsViolations)),
  });
  const politely = summary('politely');
  const crawlee = summary('crawlee');
  return {
    setup: {
      slow,
      fast,
      concurrency: CONCURRENCY,
      politelyPerHostConcurrency: PER_HOST_UNCAPPED,
      crawleeSameDomainDelaySecs: { alone: 0, mixed: 2 },
      politelyReps: REPS_C,
      crawlee: CRAWLEE_C_PAIR ? 'alone and mixed' : 'mixed only',
      ratio: "median mixed / median alone (time until the fast hosts' pages are all in)",
    },
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
  console.log(
    `(a) throughput: ${FLEET_A.hosts} hosts × ${FLEET_A.pagesPerHost} pages, no crawl-delay, page profiles: ${PROFILES_A.join(', ')}`,
  );
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

if (ONLY.has('d')) {
  console.log(
    `(d) as others measure: ${FLEET_A.hosts} hosts × ${FLEET_A.pagesPerHost} realistic pages, Crawlee autoscaled, politely ${PER_HOST_D} per host`,
  );
  scenarios.asOthersMeasure = await asOthersMeasure();
}

for (const scenario of Object.values(scenarios)) scenario.measuredAt = new Date().toISOString();

const rows = [];
const s = (n) => `${formatFixed(n / 1000, 2)} s`;
const yes = (ok) => (ok ? 'met' : 'MISSED');
/** The table rows of (a) for one page profile, with the goals of that profile. */
function throughputRows(profile, { pageBytes, politely: p, crawlee: c, ratios, goals }) {
  const tag = `(a) ${profile}`;
  const realistic = profile === 'realistic';
  const kb = pageBytes === undefined ? '' : ` (${formatFixed(pageBytes.mean / 1024, 1)} KB/page)`;
  const goalOf = (realisticGoal, smallGoal, realisticMet, smallMet) =>
    realistic ? [realisticGoal, yes(realisticMet)] : smallGoal === '' ? ['', ''] : [smallGoal, yes(smallMet)];
  return [
    [
      `${tag} pages/s${kb}`,
      formatInteger(p.pagesPerSecond),
      formatInteger(c.pagesPerSecond),
      `${formatFixed(ratios.pagesPerSecond, 2)}×`,
      ...goalOf('≥ 5×', '≥ 2×', goals.pagesPerSecondAtLeast5x, goals.pagesPerSecondAtLeast2x),
    ],
    [
      `${tag} CPU per page`,
      `${formatFixed(p.cpuMsPerPage, 2)} ms`,
      `${formatFixed(c.cpuMsPerPage, 2)} ms`,
      `${formatFixed(ratios.cpuMsPerPage, 2)}×`,
      ...goalOf('≤ 1.5 ms', '', goals.cpuAtMost1_5MsPerPage),
    ],
    [
      `${tag} peak RSS`,
      `${formatFixed(p.peakRssMb, 1)} MB`,
      `${formatFixed(c.peakRssMb, 1)} MB`,
      `${formatFixed(ratios.peakRss, 2)}×`,
      ...goalOf('≤ 0.25×', '≤ 0.5×', goals.peakRssAtMostQuarter, goals.peakRssAtMostHalf),
    ],
    [
      `${tag} GC / CPU (GC / wall)`,
      `${percent(p.gcShareOfCpu)} (${percent(p.gcShareOfWall)})`,
      `${percent(c.gcShareOfCpu)} (${percent(c.gcShareOfWall)})`,
      `${formatFixed(ratios.gcShareOfCpu, 2)}×`,
      ...goalOf('< 15 %', '', goals.gcUnder15PercentOfCpu),
    ],
    [
      `${tag} pages fetched / wall`,
      `${p.pagesFetched} / ${s(p.wallMs)}`,
      `${c.pagesFetched} / ${s(c.wallMs)}`,
      '',
      '',
      '',
    ],
    [
      `${tag} fleet server CPU/page`,
      `${formatFixed(p.serverCpuMsPerPage, 3)} ms`,
      `${formatFixed(c.serverCpuMsPerPage, 3)} ms`,
      '',
      '',
      '',
    ],
    [
      `${tag} robots violations`,
      String(p.robotsViolations),
      String(c.robotsViolations),
      '',
      '0',
      yes(goals.politelyZeroRobotsViolations),
    ],
  ];
}

if (scenarios.throughput) {
  for (const [profile, figures] of Object.entries(scenarios.throughput.profiles))
    rows.push(...throughputRows(profile, figures));
}
if (scenarios.polite) {
  const { politely: p, crawlee: c, setup, goals } = scenarios.polite;
  rows.push([
    '(b) wall / bound',
    `${s(p.wallMs)} / ${s(setup.boundMs)}`,
    `${s(c.wallMs)} / ${s(setup.boundMs)}`,
    `${formatFixed(p.wallOverBound, 3)}×`,
    '≤ 1.05×',
    yes(goals.wallWithin5PercentOfBound),
  ]);
  rows.push([
    '(b) server span / bound',
    `${s(p.serverSpanMs)}`,
    `${s(c.serverSpanMs)}`,
    `${formatFixed(p.serverSpanOverBound, 3)}×`,
    '',
    '',
  ]);
  rows.push([
    '(b) last page → run() ends',
    `${formatInteger(p.tailAfterLastPageMs)} ms`,
    `${formatInteger(c.tailAfterLastPageMs)} ms`,
    '',
    '',
    '',
  ]);
  rows.push([
    '(b) min gap per host',
    `${formatFixed(p.minGapMs, 1)} ms`,
    `${formatFixed(c.minGapMs, 1)} ms`,
    '',
    '≥ 500 ms',
    yes(goals.noGapUnderCrawlDelay),
  ]);
  rows.push([
    '(b) hosts with a gap < 500 ms',
    `${p.hostsWithAGapUnderDelay}`,
    `${c.hostsWithAGapUnderDelay}`,
    '',
    '0',
    yes(p.hostsWithAGapUnderDelay === 0),
  ]);
  rows.push([
    '(b) robots violations',
    String(p.robotsViolations),
    String(c.robotsViolations),
    '',
    '0',
    yes(goals.zeroRobotsViolations),
  ]);
}
if (scenarios.mixed) {
  const { politely: p, crawlee: c, goals } = scenarios.mixed;
  const maybe = (ms) => (Number.isFinite(ms) ? s(ms) : 'not run');
  rows.push(['(c) fast hosts done, alone', s(p.aloneFastDoneMs), maybe(c.aloneFastDoneMs), '', '', '']);
  rows.push([
    '(c) fast hosts done, mixed',
    s(p.mixedFastDoneMs),
    maybe(c.mixedFastDoneMs),
    `${formatFixed(p.mixedOverAlone, 3)}×`,
    '≤ 1.10×',
    yes(goals.fastHostsWithin10Percent),
  ]);
  rows.push([
    '(c) mixed / alone: best, CPU',
    `${formatFixed(p.bestMixedOverAlone, 3)}×, ${formatFixed(p.mixedOverAloneCpu, 3)}×`,
    Number.isFinite(c.mixedOverAlone) ? `${formatFixed(c.mixedOverAlone, 3)}×` : '',
    '',
    '',
    '',
  ]);
  rows.push([
    '(c) slow host: pages, min gap',
    `${p.slowHostPagesInMixed}, ${formatFixed(p.slowHostMinGapMs, 0)} ms`,
    `${c.slowHostPagesInMixed}, ${formatFixed(c.slowHostMinGapMs, 0)} ms`,
    '',
    '≥ 2000 ms',
    yes(goals.slowHostGapAtLeastCrawlDelay),
  ]);
  rows.push([
    '(c) robots violations',
    String(p.robotsViolations),
    String(c.robotsViolations),
    '',
    '0',
    yes(goals.zeroRobotsViolations),
  ]);
}
if (scenarios.asOthersMeasure?.ratios) {
  const { politely: p, crawlee: c, ratios, goals } = scenarios.asOthersMeasure;
  rows.push([
    '(d) pages/s, Crawlee autoscaled',
    formatInteger(p.pagesPerSecond),
    formatInteger(c.pagesPerSecond),
    `${formatFixed(ratios.pagesPerSecond, 2)}×`,
    '≥ 6×',
    yes(goals.pagesPerSecondAtLeast6x),
  ]);
  rows.push([
    '(d) CPU per page',
    `${formatFixed(p.cpuMsPerPage, 2)} ms`,
    `${formatFixed(c.cpuMsPerPage, 2)} ms`,
    '',
    '≤ 1.0 ms',
    yes(goals.cpuAtMost1MsPerPage),
  ]);
  rows.push([
    '(d) peak RSS',
    `${formatFixed(p.peakRssMb, 1)} MB`,
    `${formatFixed(c.peakRssMb, 1)} MB`,
    `${formatFixed(ratios.peakRss, 2)}×`,
    '≤ 150 MB, ≤ 0.2×',
    yes(goals.peakRssAtMost150Mb && goals.peakRssAtMostFifth),
  ]);
}
console.log(`\n${formatTable(['figure', 'politely', 'Crawlee', 'ratio', 'goal', ''], rows)}`);

const results = {
  benchmark: 'crawler',
  date: new Date().toISOString(),
  environment: machineEnvironment(),
  contestants: { politely: versionOf('@politely/crawler'), crawlee: versionOf('@crawlee/cheerio') },
  method: {
    processes:
      'each crawl in its own node process (crawler-contestant.js), the fleet in another (crawler-fleet-server.js); a fresh fleet per crawl',
    pagesCountedFrom: "the fleet servers' request logs (status 200, robots.txt excluded)",
    wall: 'crawler.run() start to end, inside the crawler process',
    peakRss: 'VmHWM of the crawler process (whole life, imports included); sampled every 50 ms as a cross-check',
    userAgent: USER_AGENT,
    concurrency: CONCURRENCY,
    cpuPerPage:
      'process.cpuUsage() of the crawler process (user + system, all threads) from run() start to end, divided by the pages the servers served with status 200',
    gcShare:
      'sum of the durations of V8 `gc` performance entries (main-thread pauses; PerformanceObserver in the crawler process) during run(), divided by that CPU time (gcShareOfCpu) and by the wall time (gcShareOfWall); GC on helper threads outside pauses is not counted',
    serverCpuPerPage:
      'process.cpuUsage() of the fleet server process from ready to report, divided by the pages it served with status 200',
    scope: `both crawl URLs matching ${FLEET_URL_PATTERN} (the fleet's hosts) and nothing else`,
    crawlee:
      'CheerioCrawler: respectRobotsTxtFile { userAgent: PolitelyBench }, sameDomainDelaySecs per scenario, minConcurrency = maxConcurrency, no maxRequestsPerCrawl (see crawler-run.js), default retries, enqueueLinks({ strategy: "all", regexps: [the fleet pattern] }), our User-Agent without generated browser headers, memory-only storage in a temp dir removed after each crawl',
    politely:
      'createCrawler: scope { include: [the fleet pattern] }, minDelayMs 0, perHostConcurrency = concurrency where no crawl-delay applies (Crawlee has no per-host cap) and 1 in (b), no maxPages, default retries, the default in-memory store',
    reps: { a: REPS_A, c: { politely: REPS_C, crawlee: 1 } },
  },
  scenarios: { ...previousScenarios(), ...scenarios },
  totalSeconds: (performance.now() - benchStarted) / 1000,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);

/**
 * The scenarios of the previous results file that this run did not run (BENCH_CRAWLER_ONLY),
 * each marked with the date it was measured, so that a partial run keeps the others' figures.
 */
function previousScenarios() {
  try {
    const previous = JSON.parse(readFileSync(RESULTS_FILE, 'utf8'));
    const kept = {};
    for (const [name, scenario] of Object.entries(previous.scenarios ?? {}))
      kept[name] = { measuredAt: scenario.measuredAt ?? previous.date, ...scenario };
    return kept;
  } catch {
    return {};
  }
}
console.log(`\nwrote ${RESULTS_FILE} (${formatFixed(results.totalSeconds, 1)} s)`);
