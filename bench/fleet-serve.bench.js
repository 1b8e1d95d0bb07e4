// How fast the benchmark fleet serves its pages, so that the crawler benchmarks measure crawlers
// and not the fleet: crawler-fleet-server.js (its own process, as in crawler-run.js) serves every
// page of a 50 × 200 fleet to a plain keep-alive HTTP client with 64 requests in flight, which
// takes the machine's other core as a crawler would. For each page profile: pages/s and MB/s
// served, and the server's CPU time per page, whence the pages/s one core of server can give.
// The realistic profile should serve well over 2,000 pages/s of ~40 KB on this 2-core machine.
//
//   node bench/fleet-serve.bench.js          (BENCH_FLEET_PROFILES=small,realistic; ~15 s)
//
// Prints a table and writes bench/results/fleet-serve.json.

import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { formatFixed, formatInteger, formatTable } from './harness.js';
import { startFleetServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'fleet-serve.json');
const FLEET = { hosts: 50, pagesPerHost: 200 };
const IN_FLIGHT = 64;
/** Pages served before the measured pass (JIT, pools, connections), not counted. */
const WARM_UP_PAGES = 2_000;
const PROFILES = (process.env.BENCH_FLEET_PROFILES ?? 'small,realistic').split(',');
const USER_AGENT = 'PolitelyBench/1.0 (fleet load)';
/** The page rate the realistic fleet must sustain with room to spare (issue 13). */
const WANTED_PAGES_PER_SECOND = 2_000;

/** Every public page of the fleet, hosts interleaved (a crawl of many hosts asks them in turn). */
function pageUrls(fleet) {
  const urls = [];
  for (let n = 0; n < FLEET.pagesPerHost; n++) {
    for (const host of fleet.hosts) urls.push(`${host.origin}${n === 0 ? '/' : `/pages/${n}`}`);
  }
  return urls;
}

function fetchBytes(agent, url) {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent, headers: { 'user-agent': USER_AGENT } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => (bytes += chunk.length));
      response.on('end', () =>
        response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${response.statusCode}`)),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Fetches `urls` with IN_FLIGHT requests at a time; resolves with the bytes received. */
async function load(agent, urls) {
  let next = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < urls.length) {
      const received = await fetchBytes(agent, urls[next++]);
      bytes += received;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return bytes;
}

async function measure(profile) {
  const server = await startFleetServer([{ ...FLEET, pageProfile: profile }]);
  const agent = new Agent({ keepAlive: true, maxSockets: 8, maxTotalSockets: IN_FLIGHT });
  try {
    const urls = pageUrls(server.fleets[0]);
    await load(agent, urls.slice(0, WARM_UP_PAGES));
    const serverCpuBefore = await server.cpuMs();
    const clientCpuBefore = process.cpuUsage();
    const started = performance.now();
    const bytes = await load(agent, urls);
    const wallMs = performance.now() - started;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const serverCpuMs = (await server.cpuMs()) - serverCpuBefore;
    const pages = urls.length;
    return {
      profile,
      pages,
      meanPageBytes: bytes / pages,
      wallMs,
      pagesPerSecond: pages / (wallMs / 1000),
      megabytesPerSecond: bytes / 1024 / 1024 / (wallMs / 1000),
      serverCpuMsPerPage: serverCpuMs / pages,
      serverCpuShare: serverCpuMs / wallMs,
      serverPagesPerCoreSecond: 1000 / (serverCpuMs / pages),
      clientCpuMsPerPage: (clientCpu.user + clientCpu.system) / 1000 / pages,
    };
  } finally {
    agent.destroy();
    await server.close();
  }
}

const startedAt = performance.now();
const results = [];
for (const profile of PROFILES) {
  const result = await measure(profile);
  results.push(result);
  console.log(
    `  ${profile}: ${formatInteger(result.pagesPerSecond)} pages/s served, server ${formatFixed(result.serverCpuMsPerPage, 3)} ms CPU/page`,
  );
}
const rows = results.map((r) => [
  r.profile,
  `${formatFixed(r.meanPageBytes / 1024, 1)} KB`,
  formatInteger(r.pagesPerSecond),
  `${formatFixed(r.megabytesPerSecond, 1)} MB/s`,
  `${formatFixed(r.serverCpuMsPerPage, 3)} ms`,
  `${formatFixed(r.serverCpuShare * 100, 0)} %`,
  formatInteger(r.serverPagesPerCoreSecond),
  `${formatFixed(r.clientCpuMsPerPage, 3)} ms`,
]);
console.log(
  `\nFleet ${FLEET.hosts} × ${FLEET.pagesPerHost}, ${IN_FLIGHT} requests in flight, keep-alive, ${os.cpus().length} CPUs shared by server and client`,
);
console.log(
  formatTable(
    [
      'profile',
      'page',
      'pages/s',
      'served',
      'server CPU/page',
      'server CPU',
      'pages per server core-s',
      'client CPU/page',
    ],
    rows,
  ),
);
const realistic = results.find((r) => r.profile === 'realistic');
if (realistic !== undefined) {
  const ok = realistic.pagesPerSecond >= WANTED_PAGES_PER_SECOND;
  console.log(
    `realistic pages: ${formatInteger(realistic.pagesPerSecond)} pages/s served while the client takes the other core (want well over ${formatInteger(WANTED_PAGES_PER_SECOND)}): ${ok ? 'met' : 'MISSED'}`,
  );
}

const out = {
  benchmark: 'fleet-serve',
  date: new Date().toISOString(),
  environment: {
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
  },
  method: {
    server:
      'bench/crawler-fleet-server.js in its own process (as in crawler-run.js); CPU time = its process.cpuUsage() over the measured pass',
    client: `node:http keep-alive Agent, ${IN_FLIGHT} requests in flight (at most 8 per host), each body read to the end; every public page of the fleet once, hosts interleaved, after ${WARM_UP_PAGES} warm-up pages`,
  },
  fleet: FLEET,
  wantedRealisticPagesPerSecond: WANTED_PAGES_PER_SECOND,
  results,
  runtimeSeconds: (performance.now() - startedAt) / 1000,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${RESULTS_FILE} (${formatFixed(out.runtimeSeconds, 1)} s)`);
