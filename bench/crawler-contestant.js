// One crawl by one contestant (politely or Crawlee's CheerioCrawler), alone in its process so
// that its peak RSS is its own (the fleet is served from another process). Started by
// crawler-run.js with `fork` (IPC); argv[2] is the JSON job:
//
//   { contestant: 'politely' | 'crawlee', userAgent, seeds, maxPages, concurrency,
//     perHostConcurrency (politely), sameDomainDelaySecs (Crawlee), storageDir (Crawlee),
//     stopWhen?: { origins, pages } }  — abort once `pages` distinct pages of `origins` are in
//
// It sends back { type: 'result', wallMs, cpuMs, doneMs, handled, peakRssBytes, … }. Only the
// contestant's own library is imported, so neither pays for the other's modules.
// CRAWLEE_DEBUG=DEBUG (or PERF, INFO…) shows Crawlee's own log, which is silenced otherwise.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const job = JSON.parse(process.argv[2]);

// ---------------------------------------------------------------------------------------------
// Peak RSS: sampled every 50 ms, and the kernel's high-water mark (VmHWM) where there is one.

let sampledPeakRss = process.memoryUsage.rss();
const sampler = setInterval(() => {
  sampledPeakRss = Math.max(sampledPeakRss, process.memoryUsage.rss());
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

// ---------------------------------------------------------------------------------------------
// The contestants.

async function crawlWithPolitely() {
  const { createCrawler } = await import('@politely/crawler');
  const controller = new AbortController();
  stop = () => controller.abort();
  const crawler = createCrawler({
    userAgent: job.userAgent,
    allowNet: ['127.0.0.0/8'],
    seeds: job.seeds,
    // The fleet links only within itself (its hosts on 127.0.0.x): every link stays on it.
    scope: 'any',
    concurrency: job.concurrency,
    perHostConcurrency: job.perHostConcurrency,
    // No floor of our own: the hosts' robots.txt Crawl-delay is the only pacing, as for Crawlee.
    minDelayMs: 0,
    maxPages: job.maxPages,
    signal: controller.signal,
    handler: (page) => sawPage(page.finalUrl, page.status),
  });
  const baselineRss = process.memoryUsage.rss();
  cpuAtStart = process.cpuUsage();
  started = performance.now();
  const stats = await crawler.run();
  return { baselineRss, own: { pages: stats.pages, requests: stats.requests, skipped: stats.skipped, errors: stats.errors, retries: stats.retries, aborted: stats.aborted } };
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
      respectRobotsTxtFile: { userAgent: job.productToken },
      sameDomainDelaySecs: job.sameDomainDelaySecs,
      minConcurrency: job.concurrency,
      maxConcurrency: job.concurrency,
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
        // The fleet links only within itself (its hosts on 127.0.0.x): 'all' stays on it.
        await enqueueLinks({ strategy: 'all' });
      },
    },
    config,
  );
  stop = () => {
    void crawler.teardown();
  };
  const baselineRss = process.memoryUsage.rss();
  cpuAtStart = process.cpuUsage();
  started = performance.now();
  const stats = await crawler.run(job.seeds);
  return { baselineRss, own: { requestsFinished: stats.requestsFinished, requestsFailed: stats.requestsFailed, retries: stats.requestsRetries } };
}

const { baselineRss, own } = job.contestant === 'politely' ? await crawlWithPolitely() : await crawlWithCrawlee();
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuAtStart);
clearInterval(sampler);
sampledPeakRss = Math.max(sampledPeakRss, process.memoryUsage.rss());
process.send(
  {
    type: 'result',
    wallMs,
    // CPU time of this process during the crawl (user + system): robust to a busy machine.
    cpuMs: (cpu.user + cpu.system) / 1000,
    doneMs,
    lastPageMs,
    startedAtDateMs: Date.now() - wallMs,
    handled,
    watchedDone: watchedDone.size,
    baselineRssBytes: baselineRss,
    sampledPeakRssBytes: sampledPeakRss,
    peakRssBytes: kernelPeakRss() ?? sampledPeakRss,
    own,
  },
  () => process.exit(0),
);
