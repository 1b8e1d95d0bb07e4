// A rendered crawl of the render web (startRenderWeb of @politely/demo-web: an app whose pages are
// JavaScript shells filled from a JSON API, and a third-party script host with its own robots.txt),
// politely (createCrawler with render: true and @politely/browser's ChromiumRenderer) against
// Crawlee's PlaywrightCrawler, in one run, side by side. Both drive the same Chromium
// (/usr/bin/chromium, headless, given --no-sandbox --disable-gpu; each tool adds its own quiet
// defaults: politely's BASE_ARGS, Playwright's), 4 pages at once, wait for 'networkidle', send
// our user agent, obey robots.txt for our product token and get the same delay floor (politely:
// minDelayMs, and per-host concurrency 4 — as many pages of one host in flight as Crawlee, which
// has no per-host cap; Crawlee: sameDomainDelaySecs, which paces navigations only). Both start from the app's
// front page and record each page's rendered <title>: politely follows links itself, Crawlee by
// enqueueLinks() on the rendered DOM (same-hostname).
//
// Each contestant runs in its own process (render-contestant.js) with the Chromium it starts,
// against a fresh render web served from another process (render-web-server.js) on 127.0.0.220–221
// by default (no other benchmark uses them). This process samples the crawler's process tree
// from /proc every 100 ms (the node process and every Chromium descendant: RSS summed per sample,
// CPU time per process). Every count below comes from the servers' request logs, never from a
// crawler's own figures:
//
//   pages rendered     distinct app pages requested whose rendered title the crawler recorded is
//                      the truth's (renderManifest(web).renderedTitles: 19 pages)
//   requests           every request the two servers saw (robots.txt, pages, scripts, API, pictures,
//                      WebSocket upgrades), and by kind
//   robots violations  requests the host's robots.txt disallows for the product token (violations():
//                      /api/tracking and /private/ on the app, /lib/analytics.js on the cdn)
//   delay violations   consecutive requests to one origin (by arrival) closer than its delay: the
//                      app's is the floor both got (none by default, 250 ms in render-floor), the cdn's its
//                      Crawl-delay (200 ms); 2 ms of slack for the two clocks, as in
//                      test/render/render-crawl.test.ts
//   other UA           requests whose User-Agent is not ours
//   WebSocket upgrades the servers have no upgrade handler: Node answers an upgrade request as a
//                      plain GET, so the log shows it as GET /live answered 404
//   off-loopback       requests the browser tried to send off the loopback (the beacon app.js sends
//                      to 10.255.255.1, Chromium's own background requests), refused and counted by
//                      a proxy, so that nothing leaves the machine. Crawlee always puts a local
//                      forward proxy (proxy-chain) in front of its Chromium, loopback included: its
//                      contestant uses proxy-chain too, in its own process, refusing (403) every
//                      target off the loopback. politely's Chromium sends nothing to the network
//                      (every request is answered by the crawler); it gets --proxy-server to a
//                      stand-in here that refuses (502) and counts anything at all it would send,
//                      loopback included (--proxy-bypass-list=<-loopback>)
//   pages/s            pages rendered ÷ wall time of crawler.run() (browser start and stop included)
//   requests per page  requests ÷ pages rendered; allowed ones: robots violations left out
//   pages/s per allowed request   pages rendered ÷ (wall s × allowed requests), allowed requests
//                      being every request the servers saw less the robots violations: the
//                      throughput a crawler gets for the requests a site lets it make
//   CPU                the crawler's node process during run(), plus its browser processes: the
//                      larger of the CPU of the children it waited for (/proc/self/stat cutime +
//                      cstime; it runs far lower, as not every Chromium process is waited for up
//                      the tree) and the sum of each descendant's last sampled CPU time (a floor:
//                      up to 100 ms of each process's last moments is missed); also by kind of
//                      Chromium process (renderer, gpu-process, …)
//   peak RSS           the largest sum of RSS over the node process and its Chromium descendants
//                      in one sample (shared pages count once per process: an upper bound)
//
// Goal (the issue's): zero robots and delay violations for politely, at no worse pages/s per allowed
// request than Crawlee's.
//
//   node bench/render.bench.js            (~30 s; or node bench/run-all.js render)
//
// Environment: BENCH_RENDER_CONTESTANTS=politely,crawlee, BENCH_RENDER_CONCURRENCY (pages at once,
// default 4), BENCH_RENDER_DELAY_MS (a delay floor both get, default 0: the sites' own robots.txt
// rules only; `render-floor` in run-all.js runs it again with 250), BENCH_RENDER_RESULTS (the
// results file in bench/results, default render.json),
// BENCH_RENDER_WAIT_UNTIL (default networkidle), BENCH_RENDER_CHROMIUM (default /usr/bin/chromium),
// BENCH_RENDER_ADDRESS (the app's last octet, the cdn the next one; default 220), CRAWLEE_DEBUG.
// Prints tables and writes bench/results/render.json.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { formatFixed, formatInteger, formatTable, machineEnvironment } from './harness.js';
import { runContestant, startRenderWebServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', process.env.BENCH_RENDER_RESULTS ?? 'render.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const PRODUCT_TOKEN = 'PolitelyBench';
const CONTESTANTS = (process.env.BENCH_RENDER_CONTESTANTS ?? 'politely,crawlee').split(',');
const CONCURRENCY = Number(process.env.BENCH_RENDER_CONCURRENCY ?? 4);
/** The delay floor both get: the app's delay (it has no Crawl-delay of its own). */
const DELAY_MS = Number(process.env.BENCH_RENDER_DELAY_MS ?? 0);
const WAIT_UNTIL = process.env.BENCH_RENDER_WAIT_UNTIL ?? 'networkidle';
const CHROMIUM = process.env.BENCH_RENDER_CHROMIUM ?? '/usr/bin/chromium';
const FIRST_ADDRESS = Number(process.env.BENCH_RENDER_ADDRESS ?? 220);
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu'];
/** The server's clock and the crawler's tick apart: a gap may read this much short. */
const CLOCK_SLACK_MS = 2;
const SAMPLE_MS = 100;
const RUN_TIMEOUT_MS = 180_000;
if (!(CONCURRENCY >= 1 && Number.isInteger(CONCURRENCY)))
  throw new Error(`BENCH_RENDER_CONCURRENCY must be a whole number ≥ 1, got ${process.env.BENCH_RENDER_CONCURRENCY}`);
if (!(DELAY_MS >= 0)) throw new Error(`BENCH_RENDER_DELAY_MS must be ≥ 0, got ${process.env.BENCH_RENDER_DELAY_MS}`);

const require = createRequire(import.meta.url);
const versionOf = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const chromiumVersion = () => {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
};

// ---------------------------------------------------------------------------------------------
// The stand-in for the network of politely's Chromium: an HTTP proxy on 127.0.0.1 that its
// Chromium would send every request to (loopback included), if it sent any; it answers 502 and
// counts them. (Crawlee's contestant has its own: see render-contestant.js.)

async function startOffLoopbackTrap() {
  let attempts = [];
  const server = createServer((req, res) => {
    attempts.push({ method: req.method, url: req.url });
    res.writeHead(502, { connection: 'close', 'content-type': 'text/plain' });
    res.end('off-loopback request refused by the benchmark\n');
  });
  const refuse = (req, socket) => {
    attempts.push({ method: req.method === 'CONNECT' ? 'CONNECT' : `${req.method} (upgrade)`, url: req.url });
    socket.destroy();
  };
  server.on('connect', refuse);
  server.on('upgrade', refuse);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    args: [`--proxy-server=http://127.0.0.1:${server.address().port}`, '--proxy-bypass-list=<-loopback>'],
    take() {
      const taken = attempts;
      attempts = [];
      return taken;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading the servers' logs.

/** What a logged request is, by host and path. */
function kindOf(entry, pagePaths) {
  const path = entry.path;
  if (path === '/robots.txt') return 'robots.txt';
  if (entry.host === 'cdn') {
    if (path === '/lib/widget.js') return 'widget.js';
    if (path === '/lib/analytics.js') return 'analytics.js';
    return 'cdn other';
  }
  if (pagePaths.has(path)) return 'page';
  if (path === '/static/app.js') return 'app.js';
  if (path === '/api/tracking' || path.startsWith('/api/tracking?')) return 'tracking';
  if (path.startsWith('/api/')) return 'api';
  if (path.startsWith('/images/')) return 'picture';
  if (path === '/live' || path.startsWith('/live?')) return 'websocket';
  if (path.startsWith('/private/')) return 'private';
  return 'app other';
}
const KINDS = [
  'robots.txt',
  'page',
  'app.js',
  'api',
  'tracking',
  'private',
  'picture',
  'websocket',
  'app other',
  'widget.js',
  'analytics.js',
  'cdn other',
];

/** Consecutive requests to one origin closer than its delay (less the clock slack). */
function delayViolations(log, delayByOrigin) {
  const last = new Map();
  const found = [];
  const minGap = {};
  for (const entry of log) {
    const previous = last.get(entry.origin);
    last.set(entry.origin, entry);
    if (previous === undefined) continue;
    const gap = entry.atMs - previous.atMs;
    minGap[entry.origin] = Math.min(minGap[entry.origin] ?? Infinity, gap);
    const delay = delayByOrigin[entry.origin] ?? 0;
    if (gap < delay - CLOCK_SLACK_MS)
      found.push({ origin: entry.origin, gapMs: gap, delayMs: delay, from: previous.path, to: entry.path });
  }
  return { found, minGap };
}

/** The figures of one contestant's crawl: the servers' log for the requests, the crawler's tree for time and memory. */
function figuresOf(web, run, report, offLoopback) {
  const log = report.log;
  const app = web.hosts.find((host) => host.name === 'app');
  const cdn = web.hosts.find((host) => host.name === 'cdn');
  const pagePaths = new Set(web.truth.pages.map((page) => page.path));
  const byKind = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  for (const entry of log) byKind[kindOf(entry, pagePaths)]++;

  // The pages: requested as documents (an app page path), and the title the crawler recorded for them.
  const requestedPaths = new Set(
    log.filter((entry) => entry.origin === app.origin && pagePaths.has(entry.path)).map((entry) => entry.path),
  );
  const recorded = new Map();
  for (const [url, title] of Object.entries(run.titles)) {
    const parsed = new URL(url);
    if (parsed.origin === app.origin) recorded.set(parsed.pathname + parsed.search, title);
  }
  const rendered = [];
  const notRendered = [];
  for (const page of web.truth.pages) {
    const title = recorded.get(page.path);
    if (requestedPaths.has(page.path) && title === page.title) rendered.push(page.path);
    else
      notRendered.push({
        path: page.path,
        requested: requestedPaths.has(page.path),
        recordedTitle: title ?? null,
        truthTitle: page.title,
      });
  }

  const delays = { [app.origin]: DELAY_MS, [cdn.origin]: (cdn.crawlDelaySeconds ?? 0) * 1000 };
  const gaps = delayViolations(log, delays);
  const otherUa = {};
  for (const entry of log) {
    if (entry.userAgent === USER_AGENT) continue;
    const ua = entry.userAgent ?? '(none)';
    otherUa[ua] ??= { count: 0, paths: [] };
    otherUa[ua].count++;
    if (otherUa[ua].paths.length < 5) otherUa[ua].paths.push(`${entry.host} ${entry.path}`);
  }
  const robotsViolationsByPath = {};
  for (const entry of report.violations) {
    const key = `${entry.host} ${entry.path.replace(/\?.*$/, '?…')}`;
    robotsViolationsByPath[key] = (robotsViolationsByPath[key] ?? 0) + 1;
  }
  const statusCounts = {};
  for (const entry of log) statusCounts[entry.status] = (statusCounts[entry.status] ?? 0) + 1;

  const pages = rendered.length;
  const requests = log.length;
  const allowedRequests = requests - report.violations.length;
  const wallS = run.wallMs / 1000;
  const browserCpuMs = Math.max(run.reapedChildrenCpuMs ?? 0, run.tree.descendantsCpuMs);
  return {
    pagesRendered: pages,
    pagesOfTruth: web.truth.pages.length,
    pagesRequested: requestedPaths.size,
    pageRequests: byKind.page,
    notRendered,
    requests,
    allowedRequests,
    byKind,
    statusCounts,
    robotsViolations: report.violations.length,
    robotsViolationsByPath,
    delayViolations: gaps.found.length,
    delayViolationsByOrigin: Object.fromEntries(
      web.hosts.map((host) => [host.name, gaps.found.filter((v) => v.origin === host.origin).length]),
    ),
    delayViolationExamples: gaps.found
      .slice(0, 10)
      .map((v) => ({ ...v, origin: web.hosts.find((host) => host.origin === v.origin)?.name })),
    minGapMsByHost: Object.fromEntries(web.hosts.map((host) => [host.name, gaps.minGap[host.origin] ?? null])),
    delayMsByHost: Object.fromEntries(web.hosts.map((host) => [host.name, delays[host.origin]])),
    otherUaRequests: Object.values(otherUa).reduce((sum, ua) => sum + ua.count, 0),
    otherUa,
    pictures: byKind.picture,
    websocketUpgrades: byKind.websocket,
    offLoopbackAttempts: offLoopback.length,
    offLoopbackTargets: [...new Set(offLoopback.map((attempt) => attempt.url))].slice(0, 10),
    wallMs: run.wallMs,
    pagesPerSecond: pages / wallS,
    requestsPerPage: pages === 0 ? null : requests / pages,
    allowedRequestsPerPage: pages === 0 ? null : allowedRequests / pages,
    pagesPerSecondPerAllowedRequest: allowedRequests === 0 ? null : pages / (wallS * allowedRequests),
    crawlerCpuMs: run.cpuMs,
    browserCpuMs,
    browserCpuMsReaped: run.reapedChildrenCpuMs,
    browserCpuMsSampled: run.tree.descendantsCpuMs,
    browserCpuMsByKind: run.tree.descendantsCpuMsByKind,
    browserProcessesByKind: run.tree.processesByKind,
    cpuMs: run.cpuMs + browserCpuMs,
    peakRssMb: run.tree.peakRssBytes / 1024 / 1024,
    peakCrawlerRssMb: run.tree.peakRootRssBytes / 1024 / 1024,
    peakProcesses: run.tree.peakProcesses,
    processesSeen: run.tree.processesSeen,
    samples: run.tree.samples,
    meanSampleMs: run.tree.meanSampleMs,
    serverCpuMs: report.server.cpuMs,
    crawlerErrors: run.errors,
    own: run.own,
  };
}

// ---------------------------------------------------------------------------------------------

async function crawl(contestant, trap) {
  const web = await startRenderWebServer({ firstAddress: FIRST_ADDRESS, productToken: PRODUCT_TOKEN });
  try {
    trap.take();
    const job = {
      contestant,
      userAgent: USER_AGENT,
      productToken: PRODUCT_TOKEN,
      entryUrl: web.entryUrl,
      concurrency: CONCURRENCY,
      // As many of one host's pages at once as Crawlee renders: the delay still spaces every request.
      perHostConcurrency: CONCURRENCY,
      delayMs: DELAY_MS,
      waitUntil: WAIT_UNTIL,
      executablePath: CHROMIUM,
      args: contestant === 'politely' ? [...CHROMIUM_ARGS, ...trap.args] : CHROMIUM_ARGS,
    };
    const run = await runContestant(job, RUN_TIMEOUT_MS, { script: 'render-contestant.js', watchTree: SAMPLE_MS });
    const report = await web.report();
    return figuresOf(web, run, report, [...trap.take(), ...(run.offLoopback ?? [])]);
  } finally {
    await web.close();
  }
}

const startedAt = performance.now();
console.log(
  `Rendered crawl of the render web (127.0.0.${FIRST_ADDRESS}–${FIRST_ADDRESS + 1}): ${CHROMIUM} (${chromiumVersion()}), ${CONCURRENCY} pages at once, ` +
    `waitUntil '${WAIT_UNTIL}', delay floor ${DELAY_MS} ms (politely: minDelayMs ${DELAY_MS}, perHostConcurrency ${CONCURRENCY}; ` +
    `Crawlee: sameDomainDelaySecs ${DELAY_MS / 1000}, no per-host concurrency), contestants: ${CONTESTANTS.join(', ')}`,
);

const trap = await startOffLoopbackTrap();
const results = {};
try {
  for (const contestant of CONTESTANTS) {
    try {
      const r = await crawl(contestant, trap);
      results[contestant] = r;
      console.log(
        `  ${contestant.padEnd(8)} ${r.pagesRendered}/${r.pagesOfTruth} pages rendered, ${r.requests} requests, ${r.robotsViolations} robots and ${r.delayViolations} delay violations, ` +
          `${formatFixed(r.wallMs / 1000, 2)} s, ${formatInteger(r.cpuMs)} ms CPU, peak RSS ${formatFixed(r.peakRssMb, 0)} MB`,
      );
    } catch (error) {
      console.log(`  ${contestant}: FAILED (${error instanceof Error ? error.message : String(error)})`);
    }
  }
} finally {
  await trap.close();
}

const fixed = (value, digits) =>
  value === null || value === undefined || !Number.isFinite(value) ? '–' : formatFixed(value, digits);
const ratio = (a, b) => (a === undefined || a === null || b === undefined || b === null || b === 0 ? null : a / b);
const p = results.politely;
const c = results.crawlee;
const names = Object.keys(results);
const label = (name) => (name === 'crawlee' ? 'Crawlee' : name);

const ROWS = [
  ['pages rendered (title = truth)', (r) => `${r.pagesRendered} / ${r.pagesOfTruth}`, (r) => r.pagesRendered],
  ['requests (servers saw)', (r) => String(r.requests), (r) => r.requests],
  ['allowed requests (robots.txt)', (r) => String(r.allowedRequests), (r) => r.allowedRequests],
  ['robots violations', (r) => String(r.robotsViolations), null],
  [
    'delay violations (app / cdn)',
    (r) => `${r.delayViolations} (${r.delayViolationsByOrigin.app} / ${r.delayViolationsByOrigin.cdn})`,
    null,
  ],
  ['smallest gap app / cdn', (r) => `${fixed(r.minGapMsByHost.app, 1)} / ${fixed(r.minGapMsByHost.cdn, 1)} ms`, null],
  ['requests with another UA', (r) => String(r.otherUaRequests), null],
  ['pictures requested', (r) => String(r.pictures), null],
  ['WebSocket upgrades (GET /live)', (r) => String(r.websocketUpgrades), null],
  ['off-loopback attempts (trap)', (r) => String(r.offLoopbackAttempts), null],
  ['wall time', (r) => `${fixed(r.wallMs / 1000, 2)} s`, (r) => r.wallMs],
  ['pages/s', (r) => fixed(r.pagesPerSecond, 3), (r) => r.pagesPerSecond],
  ['requests per page', (r) => fixed(r.requestsPerPage, 2), (r) => r.requestsPerPage],
  ['allowed requests per page', (r) => fixed(r.allowedRequestsPerPage, 2), (r) => r.allowedRequestsPerPage],
  [
    'pages/s per allowed request',
    (r) => fixed(r.pagesPerSecondPerAllowedRequest, 5),
    (r) => r.pagesPerSecondPerAllowedRequest,
  ],
  ['CPU crawler (node)', (r) => `${formatInteger(r.crawlerCpuMs)} ms`, (r) => r.crawlerCpuMs],
  ['CPU browser', (r) => `${formatInteger(r.browserCpuMs)} ms`, (r) => r.browserCpuMs],
  ['CPU total', (r) => `${formatInteger(r.cpuMs)} ms`, (r) => r.cpuMs],
  ['peak RSS crawler + browser', (r) => `${fixed(r.peakRssMb, 1)} MB`, (r) => r.peakRssMb],
  ['peak RSS crawler (node)', (r) => `${fixed(r.peakCrawlerRssMb, 1)} MB`, (r) => r.peakCrawlerRssMb],
  ['processes (peak / seen)', (r) => `${r.peakProcesses} / ${r.processesSeen}`, null],
];
const ratioHeader = p !== undefined && c !== undefined ? ['politely ÷ Crawlee'] : [];
console.log(
  `\n${formatTable(
    ['', ...names.map(label), ...ratioHeader],
    ROWS.map(([name, cell, value]) => [
      name,
      ...names.map((n) => cell(results[n])),
      ...(ratioHeader.length === 0 ? [] : [value === null ? '' : `${fixed(ratio(value(p), value(c)), 3)}×`]),
    ]),
  )}`,
);

console.log(
  `\nRequests by kind (servers' logs):\n${formatTable(
    ['', ...KINDS],
    names.map((n) => [label(n), ...KINDS.map((kind) => String(results[n].byKind[kind]))]),
  )}`,
);

for (const n of names) {
  const r = results[n];
  const lines = [];
  if (r.robotsViolations > 0)
    lines.push(
      `robots violations: ${Object.entries(r.robotsViolationsByPath)
        .map(([path, count]) => `${path} × ${count}`)
        .join(', ')}`,
    );
  if (r.delayViolations > 0)
    lines.push(
      `delay violations, first: ${r.delayViolationExamples
        .slice(0, 4)
        .map((v) => `${v.origin} ${v.from} → ${v.to} ${fixed(v.gapMs, 1)} ms`)
        .join('; ')}`,
    );
  for (const [ua, { count, paths }] of Object.entries(r.otherUa))
    lines.push(`${count} requests with User-Agent "${ua}" (${paths.join(', ')}${count > paths.length ? ', …' : ''})`);
  if (r.offLoopbackAttempts > 0)
    lines.push(`off-loopback requests the trap caught: ${r.offLoopbackTargets.join(', ')}`);
  for (const page of r.notRendered)
    lines.push(
      `not rendered: ${page.path} (${page.requested ? 'requested' : 'never requested'}, title ${page.recordedTitle === null ? 'not recorded' : JSON.stringify(page.recordedTitle)}, truth ${JSON.stringify(page.truthTitle)})`,
    );
  for (const error of r.crawlerErrors) lines.push(`crawler error: ${error}`);
  if (n === 'politely' && r.own.rendering !== undefined)
    lines.push(
      `its stats.rendering: ${r.own.rendering.pageLoads} page loads, ${r.own.rendering.subRequests} sub-requests, ${r.own.rendering.fromCache} from its cache, refused ${JSON.stringify(r.own.rendering.refused)}; skips ${JSON.stringify(r.own.skipEvents)}`,
    );
  if (n === 'crawlee')
    lines.push(
      `its statistics: ${r.own.requestsFinished} requests finished, ${r.own.requestsFailed} failed, ${r.own.retries} retries`,
    );
  lines.push(
    `CPU of the browser: ${formatInteger(r.browserCpuMsReaped ?? 0)} ms reaped, ${formatInteger(r.browserCpuMsSampled)} ms sampled (the larger counts); ${r.samples} samples of ${fixed(r.meanSampleMs, 1)} ms each; server CPU ${formatInteger(r.serverCpuMs)} ms`,
  );
  lines.push(
    `sampled CPU by process kind: ${Object.entries(r.browserCpuMsByKind)
      .sort((a, b) => b[1] - a[1])
      .map(([kind, ms]) => `${kind} ${formatInteger(ms)} ms (${r.browserProcessesByKind[kind]} processes)`)
      .join(', ')}`,
  );
  console.log(`\n${label(n)}:\n${lines.map((line) => `  - ${line}`).join('\n')}`);
}

const ratios = {
  pagesPerSecond: ratio(p?.pagesPerSecond, c?.pagesPerSecond),
  requestsPerPage: ratio(p?.requestsPerPage, c?.requestsPerPage),
  allowedRequestsPerPage: ratio(p?.allowedRequestsPerPage, c?.allowedRequestsPerPage),
  pagesPerSecondPerAllowedRequest: ratio(p?.pagesPerSecondPerAllowedRequest, c?.pagesPerSecondPerAllowedRequest),
  peakRss: ratio(p?.peakRssMb, c?.peakRssMb),
  cpu: ratio(p?.cpuMs, c?.cpuMs),
  wall: ratio(p?.wallMs, c?.wallMs),
};
const goal =
  p === undefined
    ? null
    : {
        politelyRobotsViolations: p.robotsViolations,
        politelyDelayViolations: p.delayViolations,
        pagesPerSecondPerAllowedRequestRatio: ratios.pagesPerSecondPerAllowedRequest,
        met:
          p.robotsViolations === 0 &&
          p.delayViolations === 0 &&
          p.pagesRendered === p.pagesOfTruth &&
          (ratios.pagesPerSecondPerAllowedRequest === null || ratios.pagesPerSecondPerAllowedRequest >= 1),
      };
if (goal !== null) {
  console.log(
    `\nGoal: politely with 0 robots and 0 delay violations (${p.robotsViolations} and ${p.delayViolations}), every page rendered (${p.pagesRendered}/${p.pagesOfTruth}), ` +
      `pages/s per allowed request ≥ Crawlee's (${fixed(ratios.pagesPerSecondPerAllowedRequest, 3)}×): ${goal.met ? 'met' : 'MISSED'}`,
  );
}

const out = {
  benchmark: 'render',
  date: new Date().toISOString(),
  environment: machineEnvironment(),
  versions: {
    chromium: chromiumVersion(),
    crawlee: versionOf('@crawlee/playwright'),
    playwright: versionOf('playwright'),
    politelyBrowser: versionOf('@politely/browser'),
  },
  method: {
    web: `startRenderWeb({ firstAddress: ${FIRST_ADDRESS} }) in its own process, a fresh one per contestant: app (JS shells, JSON API; robots.txt disallows /api/tracking and /private/) and cdn (Crawl-delay 0.2; /lib/analytics.js disallowed); the truth is renderManifest(web, '${PRODUCT_TOKEN}')`,
    browser: `${CHROMIUM} for both, headless, switches ${JSON.stringify(CHROMIUM_ARGS)}; Crawlee's behind proxy-chain in its own process (as Crawlee always has it) refusing (403) and counting every target off the loopback; politely's with --proxy-server to a stand-in here that refuses (502) and counts anything it sends to the network, loopback included`,
    politely: `createCrawler: seeds [entryUrl], allowNet 127.0.0.0/8, concurrency ${CONCURRENCY}, perHostConcurrency ${CONCURRENCY}, minDelayMs ${DELAY_MS}, render: true, renderer new ChromiumRenderer({ executablePath, args }), renderWaitUntil '${WAIT_UNTIL}'; the handler records page.$('title').text() by page.finalUrl; it follows links by itself`,
    crawlee: `PlaywrightCrawler ${versionOf('@crawlee/playwright')}: launchContext { launcher: chromium (playwright ${versionOf('playwright')}), userAgent (as --user-agent), launchOptions { executablePath, args, headless: true } }, browserPoolOptions { useFingerprints: false }, respectRobotsTxtFile { userAgent: '${PRODUCT_TOKEN}' }, sameDomainDelaySecs ${DELAY_MS / 1000}, minConcurrency = maxConcurrency ${CONCURRENCY}, preNavigationHooks set gotoOptions.waitUntil '${WAIT_UNTIL}'; requestHandler records page.title() and calls enqueueLinks({ strategy: 'same-hostname' }); a memory-only storage dir`,
    pages:
      "distinct app page paths the servers saw requested whose rendered title the crawler recorded equals renderManifest's renderedTitles",
    robotsViolations: `violations(web, '${PRODUCT_TOKEN}'): logged requests the host's robots.txt disallows`,
    delayViolations: `consecutive requests to one origin by arrival (server clock) closer than its delay less ${CLOCK_SLACK_MS} ms: app ${DELAY_MS} ms (the floor both got), cdn its Crawl-delay`,
    websocketUpgrades:
      'the servers have no upgrade handler: Node treats an upgrade request as a plain request, so each WebSocket attempt is logged as GET /live (404)',
    pagesPerSecondPerAllowedRequest: 'pages rendered ÷ (wall s × requests robots.txt allows)',
    cpu: "the crawler's node process during run() (process.cpuUsage) plus its browser: the larger of the reaped children's CPU (/proc/self/stat cutime + cstime over run()) and the sum of each descendant's last sampled CPU time",
    peakRss: `the largest sum, over one /proc sample every ${SAMPLE_MS} ms, of the RSS of the crawler's node process and all its descendants (shared pages count once per process)`,
  },
  settings: {
    concurrency: CONCURRENCY,
    delayMs: DELAY_MS,
    waitUntil: WAIT_UNTIL,
    chromium: CHROMIUM,
    chromiumArgs: CHROMIUM_ARGS,
    firstAddress: FIRST_ADDRESS,
    clockSlackMs: CLOCK_SLACK_MS,
    sampleMs: SAMPLE_MS,
    userAgent: USER_AGENT,
  },
  ratios,
  goal,
  contestants: results,
  runtimeSeconds: (performance.now() - startedAt) / 1000,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
console.log(`\nwrote ${RESULTS_FILE} (${formatFixed(out.runtimeSeconds, 1)} s)`);
