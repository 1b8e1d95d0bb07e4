// One crawl by one contestant (politely or Crawlee's CheerioCrawler), alone in its process so
// that its peak RSS and CPU time are its own (the fleet is served from another process). Started
// with `fork` (IPC) by crawler-run.js, store-crawl.bench.js and recrawl.bench.js; argv[2] is the
// JSON job:
//
//   { contestant: 'politely' | 'crawlee' | 'floor' (floor-crawl.js), userAgent, productToken, seeds, maxPages, concurrency,
//     perHostConcurrency (politely), sameDomainDelaySecs (Crawlee), storageDir (Crawlee),
//     scopePattern (a RegExp source: the URLs both contestants may crawl),
//     store?: { kind: 'memory' | 'sqlite' | 'redis', path?, redisUrl? (redis:// or redis-cluster://), crawlId?, knownUrlCache? } (politely:
//       an explicit frontier store and robots cache of that kind, their calls counted; without
//       it, the crawler's own default store),
//     recrawl?: boolean (politely: createCrawler's `recrawl`, revisiting what the store holds as
//       fetched with the validators it left; with a SQLite store, the same path reopens the file),
//     stopWhen?: { origins, pages } }  — abort once `pages` distinct pages of `origins` are in
//
// It sends back { type: 'result', wallMs, cpuMs, gc, doneMs, handled, peakRssBytes, storeCalls, … }.
// Only the contestant's own library is imported, so neither pays for the other's modules.
// CRAWLEE_DEBUG=DEBUG (or PERF, INFO…) shows Crawlee's own log, which is silenced otherwise.

import { readFileSync } from 'node:fs';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { countRedisWrites } from './redis-wire-count.js';

const job = JSON.parse(process.argv[2]);
const scope = new RegExp(job.scopePattern);

// ---------------------------------------------------------------------------------------------
// Peak RSS: sampled every 50 ms, and the kernel's high-water mark (VmHWM) where there is one.

let sampledPeakRss = process.memoryUsage.rss();
// What the peak sample was made of (V8's heap, Buffers and ArrayBuffers outside it): where the
// RSS goes, reported beside the peak.
let atPeak = process.memoryUsage();
const sampler = setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss <= sampledPeakRss) return;
  sampledPeakRss = rss;
  atPeak = process.memoryUsage();
}, 50);
sampler.unref();

function kernelPeakRss() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match === null ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Garbage collection during the crawl: V8's GC pauses as `gc` performance entries. Each entry's
// duration is main-thread time in that pause; GC work V8 does on helper threads outside pauses
// (concurrent marking and sweeping) is not in it, so the share is a floor of GC's true cost.

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const gc = { pauses: 0, ms: 0, msByKind: {} };
let gcWindow = { from: Infinity, to: Infinity };

function recordGc(entries) {
  for (const entry of entries) {
    if (entry.startTime < gcWindow.from || entry.startTime > gcWindow.to) continue;
    const kind = GC_KINDS[entry.detail?.kind] ?? 'other';
    gc.pauses++;
    gc.ms += entry.duration;
    gc.msByKind[kind] = (gc.msByKind[kind] ?? 0) + entry.duration;
  }
}

const gcObserver = new PerformanceObserver((list) => recordGc(list.getEntries()));
gcObserver.observe({ entryTypes: ['gc'] });

/** Entries are delivered asynchronously: take the ones still queued when the crawl ends. */
function finishGc() {
  recordGc(gcObserver.takeRecords());
  gcObserver.disconnect();
}

// ---------------------------------------------------------------------------------------------
// Store calls (politely with job.store): every method call of the frontier store and the robots
// cache counted, claims that found nothing ready apart, and for Redis every command sent. A
// measurement of the real store: the calls pass through unchanged.

const storeCalls = {};
const count = (name) => {
  storeCalls[name] = (storeCalls[name] ?? 0) + 1;
};

function countMethods(object, prefix) {
  for (const name of [
    'add',
    'claim',
    'complete',
    'completeAndClaim',
    'release',
    'retry',
    'setHostPolicy',
    'counts',
    'hostCounts',
    'get',
    'set',
    'delete',
    'acquireFetchLock',
  ]) {
    const original = object[name];
    if (typeof original !== 'function') continue;
    object[name] = function counted(...args) {
      count(`${prefix}.${name}`);
      const result = original.apply(this, args);
      if (name === 'claim')
        void result.then(
          (claimed) => claimed.lease === null && count(`${prefix}.claim (nothing ready)`),
          () => {},
        );
      if (name === 'completeAndClaim')
        void result.then(
          (done) => done.next === null && count(`${prefix}.completeAndClaim (nothing ready)`),
          () => {},
        );
      return result;
    };
  }
  return object;
}

async function openStore(store) {
  const { createMemoryFrontierStore } = await import('@politely/frontier');
  const defaultHostPolicy = { delayMs: 0, maxInFlight: job.perHostConcurrency };
  if (store.kind === 'memory') {
    // What the crawler makes by default, made here so that its calls can be counted.
    const { createMemoryRobotsCache } = await import('@politely/core');
    return {
      store: countMethods(createMemoryFrontierStore({ defaultHostPolicy }), 'store'),
      robotsCache: countMethods(createMemoryRobotsCache(), 'robotsCache'),
      close: async () => {},
    };
  }
  if (store.kind === 'sqlite') {
    const { createSqliteFrontierStore, createSqliteRobotsCache } = await import('@politely/store-sqlite');
    const frontier = createSqliteFrontierStore({
      path: store.path,
      defaultHostPolicy,
      ...(store.cacheSizeKiB === undefined ? {} : { cacheSizeKiB: store.cacheSizeKiB }),
    });
    return {
      store: countMethods(frontier, 'store'),
      robotsCache: countMethods(createSqliteRobotsCache(frontier), 'robotsCache'),
      close: () => frontier.close(),
    };
  }
  if (store.kind === 'redis') {
    const { createRedisFrontierStore, createRedisLink, createRedisRobotsCache } = await import('@politely/store-redis');
    // One connection for the frontier and the robots cache, as a worker of a distributed crawl has.
    // Every command written to Redis (each node of a cluster), by name: redis-wire-count.js.
    countRedisWrites((name) => count(`redis.${name}`));
    const link = createRedisLink(store.redisUrl);
    const frontier = createRedisFrontierStore({
      redis: link,
      crawlId: store.crawlId,
      defaultHostPolicy,
      // A durability setting under measure (bench/replica-acks.bench.js): each change waits for replicas.
      ...(store.replicaAcks === undefined ? {} : { replicaAcks: store.replicaAcks }),
      // The links a worker knows are held, left out of completions (0 in store-crawl.bench.js's control row).
      ...(store.knownUrlCache === undefined ? {} : { knownUrlCache: store.knownUrlCache }),
    });
    const robotsCache = createRedisRobotsCache({ redis: link, crawlId: store.crawlId });
    await frontier.ready();
    return {
      store: countMethods(frontier, 'store'),
      robotsCache: countMethods(robotsCache, 'robotsCache'),
      close: async () => {
        await frontier.close();
        await robotsCache.close();
        await link.close();
      },
    };
  }
  throw new Error(`unknown store kind ${store.kind}`);
}

// ---------------------------------------------------------------------------------------------
// Stopping once the watched origins are done (scenario c).

const watched = job.stopWhen === undefined ? null : new Set(job.stopWhen.origins);
const watchedDone = new Set();
let doneMs = null;
let started = 0;
let stop = () => {};
let handled = 0;
let lastPageMs = null;
let cpuAtStart;

/** Called for every page a handler sees; returns nothing, may stop the crawl. */
function sawPage(url, status) {
  handled++;
  lastPageMs = performance.now() - started;
  if (watched === null || doneMs !== null || status !== 200) return;
  const parsed = new URL(url);
  if (!watched.has(parsed.origin)) return;
  watchedDone.add(parsed.origin + parsed.pathname + parsed.search);
  if (watchedDone.size >= job.stopWhen.pages) {
    doneMs = performance.now() - started;
    stop();
  }
}

/** The crawl's clocks start here: wall, CPU and the GC window. */
function startClocks() {
  cpuAtStart = process.cpuUsage();
  started = performance.now();
  gcWindow = { from: started, to: Infinity };
}

// ---------------------------------------------------------------------------------------------
// The contestants.

async function crawlWithPolitely() {
  const { createCrawler } = await import('@politely/crawler');
  const opened = job.store === undefined ? undefined : await openStore(job.store);
  const controller = new AbortController();
  stop = () => controller.abort();
  const crawler = createCrawler({
    userAgent: job.userAgent,
    allowNet: ['127.0.0.0/8'],
    seeds: job.seeds,
    // The fleet's hosts, nothing else: a realistic page also links origins outside the fleet.
    scope: { include: [scope] },
    concurrency: job.concurrency,
    perHostConcurrency: job.perHostConcurrency,
    // No floor of our own: the hosts' robots.txt Crawl-delay is the only pacing, as for Crawlee.
    minDelayMs: 0,
    maxPages: job.maxPages,
    recrawl: job.recrawl === true,
    signal: controller.signal,
    handler: (page) => sawPage(page.finalUrl, page.status),
    ...(opened === undefined ? {} : { store: opened.store }),
    ...(opened?.robotsCache === undefined ? {} : { robotsCache: opened.robotsCache }),
  });
  const baselineRss = process.memoryUsage.rss();
  startClocks();
  try {
    const stats = await crawler.run();
    const { byHost: _byHost, ...revisits } = stats.revisits;
    return {
      baselineRss,
      own: {
        pages: stats.pages,
        requests: stats.requests,
        byStatus: stats.byStatus,
        bytes: stats.bytes,
        skipped: stats.skipped,
        errors: stats.errors,
        retries: stats.retries,
        aborted: stats.aborted,
        revisits,
      },
    };
  } finally {
    await opened?.close();
  }
}

async function crawlWithCrawlee() {
  // Storage in memory only, under a temp dir the runner removes afterwards.
  process.env.CRAWLEE_STORAGE_DIR = job.storageDir;
  process.env.CRAWLEE_PERSIST_STORAGE = 'false';
  process.env.CRAWLEE_PURGE_ON_START = 'true';
  const { CheerioCrawler, Configuration, log } = await import('@crawlee/cheerio');
  log.setLevel(process.env.CRAWLEE_DEBUG ? log.LEVELS[process.env.CRAWLEE_DEBUG] : log.LEVELS.ERROR);
  const config = new Configuration({
    persistStorage: false,
    purgeOnStart: true,
    storageClientOptions: { localDataDirectory: job.storageDir, persistStorage: false, writeMetadata: false },
  });
  const crawler = new CheerioCrawler(
    {
      // A careful user: robots.txt on, matched for our product token; the same-domain delay the
      // scenario's Crawl-delay asks for; the same concurrency, pinned (min = max) so that the
      // autoscaler's slow ramp-up does not count against Crawlee in a short run.
      // With `crawleeAutoscale` (the bench's (d)) Crawlee keeps its own defaults, autoscaler and all.
      respectRobotsTxtFile: { userAgent: job.productToken },
      sameDomainDelaySecs: job.sameDomainDelaySecs,
      ...(job.crawleeAutoscale === true ? {} : { minConcurrency: job.concurrency, maxConcurrency: job.concurrency }),
      maxRequestsPerCrawl: job.maxPages,
      preNavigationHooks: [
        (_context, gotOptions) => {
          // Our user agent on every page request, as politely sends it (no browser headers).
          gotOptions.useHeaderGenerator = false;
          gotOptions.headers = { ...gotOptions.headers, 'user-agent': job.userAgent };
        },
      ],
      async requestHandler({ request, response, enqueueLinks }) {
        sawPage(request.loadedUrl ?? request.url, response.statusCode);
        if (doneMs !== null) return;
        // Any host of the fleet (strategy 'all'), nothing else (the pattern): the scope politely has.
        await enqueueLinks({ strategy: 'all', regexps: [scope] });
      },
    },
    config,
  );
  stop = () => {
    void crawler.teardown();
  };
  const baselineRss = process.memoryUsage.rss();
  startClocks();
  const stats = await crawler.run(job.seeds);
  return {
    baselineRss,
    own: {
      requestsFinished: stats.requestsFinished,
      requestsFailed: stats.requestsFailed,
      retries: stats.requestsRetries,
    },
  };
}

/** The floor (floor-crawl.js): the exchange, one tokenizer pass and the links' dedupe, nothing else. */
async function crawlFloorOnly() {
  const { crawlFloor } = await import('./floor-crawl.js');
  const controller = new AbortController();
  stop = () => controller.abort();
  const baselineRss = process.memoryUsage.rss();
  startClocks();
  const pages = await crawlFloor({
    seeds: job.seeds,
    scope,
    concurrency: job.concurrency,
    sawPage,
    signal: controller.signal,
  });
  return { baselineRss, own: { pages } };
}

const CONTESTANTS = { politely: crawlWithPolitely, crawlee: crawlWithCrawlee, floor: crawlFloorOnly };
const { baselineRss, own } = await CONTESTANTS[job.contestant]();
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuAtStart);
gcWindow.to = performance.now();
finishGc();
clearInterval(sampler);
sampledPeakRss = Math.max(sampledPeakRss, process.memoryUsage.rss());
const cpuMs = (cpu.user + cpu.system) / 1000;
process.send(
  {
    type: 'result',
    wallMs,
    // CPU time of this process during the crawl (user + system, every thread): robust to a busy machine.
    cpuMs,
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    gc: { ...gc, shareOfCpu: gc.ms / cpuMs, shareOfWall: gc.ms / wallMs },
    doneMs,
    lastPageMs,
    startedAtDateMs: Date.now() - wallMs,
    handled,
    watchedDone: watchedDone.size,
    baselineRssBytes: baselineRss,
    sampledPeakRssBytes: sampledPeakRss,
    atPeakBytes: {
      heapTotal: atPeak.heapTotal,
      heapUsed: atPeak.heapUsed,
      external: atPeak.external,
      arrayBuffers: atPeak.arrayBuffers,
    },
    peakRssBytes: kernelPeakRss() ?? sampledPeakRss,
    storeCalls,
    own,
  },
  () => process.exit(0),
);
