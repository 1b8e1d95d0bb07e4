// The fleet of the crawler benchmark, served from its own process so that the crawler's peak RSS
// and CPU are its own. Started by crawler-run.js with `fork` (IPC):
//
//   argv[2]: JSON array of startFleet options, one fleet each (say one slow host beside forty
//            fast ones: two fleets with different firstAddress).
//   → sends { type: 'ready', fleets: [{ hosts: [{ origin, name, crawlDelaySeconds, pages }] }] }
//   ← { type: 'report', userAgent }  → sends { type: 'report', fleets: [FleetReport], server }
//                                       (gaps under each fleet's crawl-delay are listed with their
//                                       paths; `server` is this process's own CPU time since
//                                       'ready', to show that the fleet was not the bottleneck)
//   ← { type: 'cpu' }                → sends { type: 'cpu', cpuMs } (CPU time since 'ready', cheaply)
//   ← { type: 'close' }              → closes every server and exits.
//
// Everything reported comes from the servers' own request logs, never from a crawler's stats.
// A spec's `pageProfile: 'realistic'` serves pages of 20–60 KB instead of 2–5 KB.

import { minGapMsByOrigin, startFleet, violations } from '@politely/local-web';

const specs = JSON.parse(process.argv[2] ?? '[]');
const webs = [];
for (const spec of specs) webs.push(await startFleet(spec));
// Every public page of each fleet's first host, fetched once (then the requests forgotten): it
// measures the pages' sizes, and builds the realistic pages' pools outside the CPU time reported.
const pageBytes = [];
for (const web of webs) pageBytes.push(await pageSizes(web.hosts[0]));
for (const web of webs) web.resetLogs();
const cpuAtReady = process.cpuUsage();
const readyAt = performance.now();

async function pageSizes(host) {
  const sizes = [];
  for (const path of host.expectedAllowedPaths) {
    const response = await fetch(host.origin + path);
    sizes.push((await response.arrayBuffer()).byteLength);
  }
  return { pages: sizes.length, mean: sizes.reduce((sum, size) => sum + size, 0) / sizes.length, min: Math.min(...sizes), max: Math.max(...sizes) };
}

process.send({
  type: 'ready',
  fleets: webs.map((web) => ({
    hosts: web.hosts.map((host) => ({
      origin: host.origin,
      name: host.name,
      crawlDelaySeconds: host.crawlDelaySeconds ?? null,
      pages: host.expectedAllowedPaths.length,
    })),
  })),
  pageBytes,
});

/** Consecutive requests to one origin closer than `thresholdMs` (by arrival), at most `limit`. */
function gapsUnder(log, thresholdMs, limit = 20) {
  const last = new Map();
  const found = [];
  for (const entry of log) {
    const previous = last.get(entry.origin);
    last.set(entry.origin, entry);
    if (previous === undefined || entry.atMs - previous.atMs >= thresholdMs) continue;
    if (found.length < limit) found.push({ origin: entry.origin, gapMs: entry.atMs - previous.atMs, from: previous.path, to: entry.path });
  }
  return found;
}

/** What one fleet's servers saw: pages, robots.txt requests, violations, gaps and timings. */
function reportOf(web, userAgent, gapThresholdMs) {
  const log = web.requestLog().sort((a, b) => a.atMs - b.atMs);
  const robots = log.filter((entry) => entry.path === '/robots.txt');
  const pages = log.filter((entry) => entry.path !== '/robots.txt');
  const distinct = new Set(pages.map((entry) => entry.origin + entry.path));
  const gaps = minGapMsByOrigin(log);
  const statusCounts = {};
  for (const entry of pages) statusCounts[entry.status] = (statusCounts[entry.status] ?? 0) + 1;
  const pagesByOrigin = {};
  for (const entry of pages) pagesByOrigin[entry.origin] = (pagesByOrigin[entry.origin] ?? 0) + 1;
  const userAgents = [...new Set(log.map((entry) => entry.userAgent ?? '(none)'))];
  return {
    requests: log.length,
    robotsRequests: robots.length,
    pageRequests: pages.length,
    pagesOk: pages.filter((entry) => entry.status === 200).length,
    distinctPages: distinct.size,
    repeatedRequests: pages.length - distinct.size,
    statusCounts,
    pagesByOrigin,
    robotsViolations: violations(web, userAgent).length,
    minGapMs: gaps.size === 0 ? null : Math.min(...gaps.values()),
    minGapMsByOrigin: Object.fromEntries(gaps),
    gapsUnderThreshold: gapThresholdMs > 0 ? gapsUnder(log, gapThresholdMs) : [],
    firstRequestDateMs: log.length === 0 ? null : Math.min(...log.map((entry) => entry.dateMs)),
    lastPageDateMs: pages.length === 0 ? null : Math.max(...pages.map((entry) => entry.dateMs)),
    userAgents,
  };
}

process.on('message', async (message) => {
  if (message.type === 'report') {
    const cpu = process.cpuUsage(cpuAtReady);
    const server = { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - readyAt };
    process.send({ type: 'report', fleets: webs.map((web, i) => reportOf(web, message.userAgent, (specs[i].crawlDelaySeconds ?? 0) * 1000)), server });
  } else if (message.type === 'cpu') {
    const cpu = process.cpuUsage(cpuAtReady);
    process.send({ type: 'cpu', cpuMs: (cpu.user + cpu.system) / 1000 });
  } else if (message.type === 'close') {
    await Promise.all(webs.map((web) => web.close()));
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
