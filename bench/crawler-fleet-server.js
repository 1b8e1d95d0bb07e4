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
//   ← { type: 'change', share }      → changes round(share × public pages) pages of every fleet
//                                       (web.changePages: new body, ETag and Last-Modified), spread
//                                       evenly over the sorted page URLs, so the same options always
//                                       change the same pages; sends { type: 'changed', urls }
//   ← { type: 'reset' }              → forgets every fleet's request log (a second crawl is then
//                                       measured alone); sends { type: 'reset' }
//   ← { type: 'close' }              → closes every server and exits.
//
// Everything reported comes from the servers' own request logs, never from a crawler's stats.
// A spec's `pageProfile: 'realistic'` serves pages of 20–60 KB instead of 2–5 KB. Every 200 carries
// an ETag and a Last-Modified, a conditional request the client holds already is answered 304
// without a body, and the report sums the body bytes the servers wrote (`bodyBytes` in the log).

import { minGapMsByOrigin, violations } from '@politely/demo-web';
import { startFleet } from '@politely/local-web';

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
  return {
    pages: sizes.length,
    mean: sizes.reduce((sum, size) => sum + size, 0) / sizes.length,
    min: Math.min(...sizes),
    max: Math.max(...sizes),
  };
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
    if (found.length < limit)
      found.push({ origin: entry.origin, gapMs: entry.atMs - previous.atMs, from: previous.path, to: entry.path });
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
  const sumBytes = (entries) => entries.reduce((sum, entry) => sum + entry.bodyBytes, 0);
  return {
    requests: log.length,
    robotsRequests: robots.length,
    pageRequests: pages.length,
    pagesOk: pages.filter((entry) => entry.status === 200).length,
    distinctPages: distinct.size,
    repeatedRequests: pages.length - distinct.size,
    statusCounts,
    // Body bytes written (as on the wire: gzip-encoded where the fleet gzips; 0 for a 304 or HEAD).
    bodyBytes: sumBytes(log),
    pageBodyBytes: sumBytes(pages),
    robotsBodyBytes: sumBytes(robots),
    conditionalPageRequests: pages.filter(
      (entry) => entry.ifNoneMatch !== undefined || entry.ifModifiedSince !== undefined,
    ).length,
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

/**
 * About `share` of all public pages of every fleet, evenly spread over their sorted URLs (the same ones every
 * time).
 */
function pagesToChange(web, share) {
  const urls = web.hosts.flatMap((host) => host.expectedAllowedPaths.map((path) => host.origin + path)).sort();
  const count = Math.min(urls.length, Math.max(0, Math.round(share * urls.length)));
  return Array.from({ length: count }, (_, i) => urls[Math.floor(((i + 0.5) * urls.length) / count)]);
}

process.on('message', async (message) => {
  if (message.type === 'report') {
    const cpu = process.cpuUsage(cpuAtReady);
    const server = { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - readyAt };
    process.send({
      type: 'report',
      fleets: webs.map((web, i) => reportOf(web, message.userAgent, (specs[i].crawlDelaySeconds ?? 0) * 1000)),
      server,
    });
  } else if (message.type === 'cpu') {
    const cpu = process.cpuUsage(cpuAtReady);
    process.send({ type: 'cpu', cpuMs: (cpu.user + cpu.system) / 1000 });
  } else if (message.type === 'change') {
    const urls = [];
    for (const web of webs) {
      const chosen = pagesToChange(web, message.share);
      web.changePages(chosen);
      urls.push(...chosen);
    }
    process.send({ type: 'changed', urls });
  } else if (message.type === 'reset') {
    for (const web of webs) web.resetLogs();
    process.send({ type: 'reset' });
  } else if (message.type === 'close') {
    await Promise.all(webs.map((web) => web.close()));
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
