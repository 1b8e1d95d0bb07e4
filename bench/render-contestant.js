// One rendered crawl by one contestant (politely with @politely/browser's ChromiumRenderer, or
// Crawlee's PlaywrightCrawler), alone in its process with the Chromium it starts, so that the
// process tree's CPU time and memory are the crawl's own (the render web is served from another
// process; render.bench.js samples this tree from /proc). Started with `fork` (IPC) by
// render.bench.js through processes.js; argv[2] is the JSON job:
//
//   { contestant: 'politely' | 'crawlee', userAgent, productToken, entryUrl, concurrency,
//     perHostConcurrency (politely), delayMs (politely: minDelayMs; Crawlee: sameDomainDelaySecs),
//     waitUntil, executablePath, args (Chromium switches: --no-sandbox --disable-gpu for both, and
//     for politely the proxy stand-in render.bench.js keeps), storageDir (Crawlee) }
//
// Crawlee puts a local forward proxy (proxy-chain, in this process) in front of every Chromium it
// launches, loopback included (Playwright's <-loopback>); here it is proxy-chain as well, in this
// process too, but one that refuses (403) every target off the loopback and counts it: the beacon
// app.js sends to 10.255.255.1 and Chromium's own background requests never leave the machine.
//
// It sends back { type: 'result', wallMs, cpuMs, reapedChildrenCpuMs, titles, errors, offLoopback, own }:
// `titles` maps each page URL the crawler handled to the rendered <title> it recorded;
// `reapedChildrenCpuMs` is the CPU time of the child processes that ended during the crawl and
// were waited for (/proc/self/stat cutime + cstime: the browser, and the processes it reaped).
// Only the contestant's own libraries are imported. CRAWLEE_DEBUG=DEBUG (or INFO…) shows
// Crawlee's own log, which is silenced otherwise.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const job = JSON.parse(process.argv[2]);
const titles = {};
const errors = [];
/** Requests Crawlee's browser sent for a target off the loopback, refused by its proxy. */
const offLoopback = [];

/** CPU time (ms) of this process's children that have ended and been waited for, from /proc. */
function reapedChildrenCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime, in clock ticks (100 per second on Linux).
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return null;
  }
}

let started = 0;
let cpuAtStart;
let childrenCpuAtStart;
function startClocks() {
  childrenCpuAtStart = reapedChildrenCpuMs();
  cpuAtStart = process.cpuUsage();
  started = performance.now();
}

async function crawlWithPolitely() {
  const { createCrawler } = await import('@politely/crawler');
  const { ChromiumRenderer } = await import('@politely/browser');
  const skips = {};
  const crawler = createCrawler({
    userAgent: job.userAgent,
    seeds: [job.entryUrl],
    allowNet: ['127.0.0.0/8'],
    concurrency: job.concurrency,
    perHostConcurrency: job.perHostConcurrency,
    // The floor every host gets; the cdn's robots.txt asks for 0.2 s, below it.
    minDelayMs: job.delayMs,
    render: true,
    renderer: new ChromiumRenderer({ executablePath: job.executablePath, args: job.args }),
    renderWaitUntil: job.waitUntil,
    handler: (page) => {
      titles[page.finalUrl] = page.$('title').text();
    },
  });
  crawler.on('skip', (skip) => {
    const key = `${skip.reason}${skip.kind === undefined ? '' : ` (${skip.kind})`}`;
    skips[key] = (skips[key] ?? 0) + 1;
  });
  crawler.on('error', (event) =>
    errors.push(
      `${event.url}: ${event.error?.message ?? event.error} (${event.stage}, attempt ${event.attempt}${event.willRetry ? ', will retry' : ''})`,
    ),
  );
  startClocks();
  const stats = await crawler.run();
  return {
    pages: stats.pages,
    requests: stats.requests,
    robotsRequests: stats.robotsRequests,
    byStatus: stats.byStatus,
    skipped: stats.skipped,
    skipEvents: skips,
    errors: stats.errors,
    retries: stats.retries,
    rendering: {
      pageLoads: stats.rendering.pageLoads,
      subRequests: stats.rendering.subRequests,
      fromCache: stats.rendering.fromCache,
      refused: stats.rendering.refused,
    },
  };
}

const isLoopback = (hostname) =>
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
  hostname === 'localhost' ||
  hostname === '::1' ||
  hostname === '[::1]';

/**
 * The forward proxy Crawlee's Chromium uses: proxy-chain, the library Crawlee's browser pool
 * starts for it (resolved through @crawlee/browser-pool), refusing every target off the loopback.
 */
async function startLoopbackOnlyProxy() {
  const fromBench = createRequire(import.meta.url);
  const fromPool = createRequire(
    createRequire(fromBench.resolve('@crawlee/playwright')).resolve('@crawlee/browser-pool'),
  );
  const { Server, RequestError } = fromPool('proxy-chain');
  const server = new Server({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ hostname, port, isHttp, request }) => {
      if (isLoopback(hostname)) return {};
      offLoopback.push({
        method: isHttp ? request.method : 'CONNECT',
        url: isHttp ? request.url : `${hostname}:${port}`,
      });
      throw new RequestError('off-loopback request refused by the benchmark', 403);
    },
  });
  await server.listen();
  return { url: `http://127.0.0.1:${server.port}`, close: () => server.close(true) };
}

async function crawlWithCrawlee() {
  // Storage in memory only, under a temp dir the runner removes afterwards.
  process.env.CRAWLEE_STORAGE_DIR = job.storageDir;
  process.env.CRAWLEE_PERSIST_STORAGE = 'false';
  process.env.CRAWLEE_PURGE_ON_START = 'true';
  const { PlaywrightCrawler, Configuration, log } = await import('@crawlee/playwright');
  const { chromium } = await import('playwright');
  log.setLevel(process.env.CRAWLEE_DEBUG ? log.LEVELS[process.env.CRAWLEE_DEBUG] : log.LEVELS.ERROR);
  const config = new Configuration({
    persistStorage: false,
    purgeOnStart: true,
    storageClientOptions: { localDataDirectory: job.storageDir, persistStorage: false, writeMetadata: false },
  });
  const failed = [];
  const proxy = await startLoopbackOnlyProxy();
  const crawler = new PlaywrightCrawler(
    {
      launchContext: {
        launcher: chromium,
        // Passed to Chromium as --user-agent: every request the browser makes carries it.
        userAgent: job.userAgent,
        // proxy: Crawlee's browser pool keeps it in place of its own local proxy (see above).
        launchOptions: {
          executablePath: job.executablePath,
          args: job.args,
          headless: true,
          proxy: { server: proxy.url },
        },
      },
      // No generated browser fingerprint: it would replace our user agent with a browser's.
      browserPoolOptions: { useFingerprints: false },
      // A careful user: robots.txt on, matched for our product token; the same delay floor as
      // politely's (between navigations to one domain: Crawlee has nothing for sub-requests); the
      // same concurrency, pinned (min = max) so that the autoscaler's ramp-up does not count
      // against Crawlee in a short run. Crawlee has no per-host concurrency.
      respectRobotsTxtFile: { userAgent: job.productToken },
      sameDomainDelaySecs: job.delayMs / 1000,
      minConcurrency: job.concurrency,
      maxConcurrency: job.concurrency,
      preNavigationHooks: [
        async (_context, gotoOptions) => {
          gotoOptions.waitUntil = job.waitUntil;
        },
      ],
      async requestHandler({ page, request, enqueueLinks }) {
        titles[request.loadedUrl ?? request.url] = await page.title();
        // Links of the rendered DOM, on the page's own host name.
        await enqueueLinks({ strategy: 'same-hostname' });
      },
      failedRequestHandler({ request }, error) {
        failed.push(request.url);
        errors.push(`${request.url}: ${String(error?.message ?? error)}`);
      },
    },
    config,
  );
  startClocks();
  const stats = await crawler.run([job.entryUrl]).finally(() => proxy.close());
  return {
    requestsFinished: stats.requestsFinished,
    requestsFailed: stats.requestsFailed,
    retries: crawler.stats.state.requestsRetries,
    failed,
  };
}

const own = job.contestant === 'politely' ? await crawlWithPolitely() : await crawlWithCrawlee();
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuAtStart);
const childrenCpuAtEnd = reapedChildrenCpuMs();
process.send(
  {
    type: 'result',
    wallMs,
    // CPU time of this process during the crawl (user + system, every thread).
    cpuMs: (cpu.user + cpu.system) / 1000,
    reapedChildrenCpuMs:
      childrenCpuAtEnd === null || childrenCpuAtStart === null ? null : childrenCpuAtEnd - childrenCpuAtStart,
    startedAtDateMs: Date.now() - wallMs,
    titles,
    errors: errors.slice(0, 20),
    offLoopback,
    own,
  },
  () => process.exit(0),
);
