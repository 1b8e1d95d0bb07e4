// What a store costs the crawler's process a page, without the crawl around it (issue 34, item 3).
// The crawl-level ratio of store-crawl.bench.js moves by ±10 % from run to run on a shared 2-CPU
// machine, more than a change to the store's own code; this bench measures that code alone.
//
// 1. Record: one politely crawl of the realistic fleet (20 hosts × 150 pages, as store-crawl
//    runs) with the memory store, in a child process; every completion is written down as the
//    crawler made it: the URL, its links (the FrontierEntry objects), its LastFetch (with the
//    response's cache policy) and failure, and the crawl's seeds.
// 2. Replay, each store in a fresh process, alternating: the seeds added, then LOOPS async loops
//    that claim a URL and complete it with what the crawl recorded for it (completeAndClaim where
//    the store has it, as the crawler does), until every recorded page is done. No fetch, no
//    parsing, no politeness: the process's CPU (user + system, from after the store opened to the
//    last completion) over the pages is the store's own cost a page, ioredis and the socket
//    writes included. Redis runs on the bench's own redis-server (test/support/redis-launch.js).
// 3. Passes: a process replays the recording PASSES times, each on a store of its own. The first
//    pass is a fresh process's (V8 compiling the store's hot code and ioredis's, the heap growing:
//    for one Redis, over twice a later pass's cost a page), the last a crawl's that has run a
//    while: the table gives both.
//
//   node bench/store-cost.bench.js          (~3 minutes)
//
// A child runs alone too, to profile one store's replay (its result printed):
//   node bench/store-cost.bench.js record '{"seeds":[…],"recording":"/tmp/crawl.json"}'
//   node --cpu-prof bench/store-cost.bench.js replay '{"kind":"redis","store":{"kind":"redis","redisUrl":…,"crawlId":…},"recording":"/tmp/crawl.json","loops":3,"passes":4}'
//
// Environment: STORE_COST_KINDS (default memory,sqlite,redis; also redis-cluster: 3 primaries of
// its own), STORE_COST_REPS (default 5; medians), STORE_COST_LOOPS (default 3: about
// what a crawl has waiting on its store at once), STORE_COST_PASSES (default 4). Prints a table;
// writes bench/results/store-cost.json.

import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redisToolsMissing, startRedisCluster, startRedisServer } from '../test/support/redis-launch.js';
import { formatFixed, formatInteger, formatTable, machineEnvironment, median } from './harness.js';
import { exitOf, FLEET_URL_PATTERN, frontPages, onMessage, startFleetServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const RESULTS_FILE = join(HERE, 'results', 'store-cost.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const FLEET = { hosts: 20, pagesPerHost: 150, pageProfile: 'realistic' };
const CONCURRENCY = 64;
const LEASE_MS = 60_000;
const RUN_TIMEOUT_MS = 300_000;

const role = process.argv[2];
if (role === 'record') await record(JSON.parse(process.argv[3]));
else if (role === 'replay') await replay(JSON.parse(process.argv[3]));
else await main();

/** The parent: records a crawl, replays it on each store REPS times, prints and saves the figures. */
async function main() {
  const kinds = (process.env.STORE_COST_KINDS ?? 'memory,sqlite,redis').split(',');
  const reps = Math.max(1, Number(process.env.STORE_COST_REPS ?? 5));
  const loops = Math.max(1, Number(process.env.STORE_COST_LOOPS ?? 3));
  const passes = Math.max(1, Number(process.env.STORE_COST_PASSES ?? 4));
  const redisMissing = redisToolsMissing(['redis-server', 'redis-cli']);
  const runnable = kinds.filter((kind) => !kind.startsWith('redis') || redisMissing === null);
  if (runnable.length < kinds.length) console.log(`store-cost: Redis rows skipped (${redisMissing})`);
  const dir = mkdtempSync(join(os.tmpdir(), 'politely-store-cost-'));
  const recording = join(dir, 'crawl.json');
  const servers = {};
  try {
    const fleet = await startFleetServer([FLEET]);
    try {
      const job = { seeds: frontPages(fleet.fleets[0]), recording };
      await runChild('record', job, 'the recorded crawl');
    } finally {
      await fleet.close();
    }
    const recorded = JSON.parse(readFileSync(recording, 'utf8'));
    const links = recorded.pages.reduce((sum, page) => sum + page.add.length, 0);
    console.log(
      `Store cost a page: ${formatInteger(recorded.pages.length)} completions recorded from a crawl of the realistic fleet ` +
        `(${FLEET.hosts} hosts × ${FLEET.pagesPerHost} pages; ${formatFixed(links / recorded.pages.length, 1)} links a page), ` +
        `replayed by ${loops} loops, ${passes} passes a process, ${reps} rep(s), stores: ${runnable.join(', ')}`,
    );
    if (runnable.includes('redis')) servers.redis = await startRedisServer();
    if (runnable.includes('redis-cluster')) servers['redis-cluster'] = await startRedisCluster({ primaries: 3 });
    const runs = Object.fromEntries(runnable.map((kind) => [kind, []]));
    for (let rep = 0; rep < reps; rep++) {
      const order = rep % 2 === 0 ? runnable : [...runnable].reverse();
      for (const kind of order) {
        const store = storeSpec(kind, servers, dir);
        const result = await runChild('replay', { kind, store, recording, loops, passes }, `the ${kind} replay`);
        runs[kind].push(result);
        console.log(
          `  ${kind.padEnd(13)} rep ${rep + 1}: ${formatInteger(result.pages)} pages, µs CPU a page by pass ` +
            `${result.cpuUsPerPageByPass.map((us) => formatFixed(us, 1)).join(', ')}; first pass ${formatInteger(result.pagesPerSecond)} pages/s`,
        );
      }
    }
    const medianOf = (kind, field) => median(runs[kind].map((r) => r[field]));
    const memory = runnable.includes('memory') ? medianOf('memory', 'cpuUsPerPage') : undefined;
    const memoryWarm = runnable.includes('memory') ? medianOf('memory', 'warmCpuUsPerPage') : undefined;
    const rows = runnable.map((kind) => {
      const cpu = medianOf(kind, 'cpuUsPerPage');
      const warm = medianOf(kind, 'warmCpuUsPerPage');
      return {
        store: kind,
        pages: runs[kind][0].pages,
        cpuUsPerPage: cpu,
        cpuUsPerPageByRep: runs[kind].map((r) => r.cpuUsPerPage),
        aboveMemoryUsPerPage: memory === undefined ? null : cpu - memory,
        warmCpuUsPerPage: warm,
        warmCpuUsPerPageByRep: runs[kind].map((r) => r.warmCpuUsPerPage),
        warmAboveMemoryUsPerPage: memoryWarm === undefined ? null : warm - memoryWarm,
        cpuUsPerPageByPassByRep: runs[kind].map((r) => r.cpuUsPerPageByPass),
        pagesPerSecond: medianOf(kind, 'pagesPerSecond'),
      };
    });
    const range = (values) => `${formatFixed(Math.min(...values), 1)}–${formatFixed(Math.max(...values), 1)} µs`;
    const above = (us) => (us === null ? '–' : `${formatFixed(us, 1)} µs`);
    console.log(
      `\n${formatTable(
        [
          'store',
          'pages',
          'CPU a page, first pass',
          'reps',
          'above memory',
          `warm (pass ${passes})`,
          'reps',
          'above memory',
          'pages/s (first)',
        ],
        rows.map((row) => [
          row.store,
          formatInteger(row.pages),
          `${formatFixed(row.cpuUsPerPage, 1)} µs`,
          range(row.cpuUsPerPageByRep),
          above(row.aboveMemoryUsPerPage),
          `${formatFixed(row.warmCpuUsPerPage, 1)} µs`,
          range(row.warmCpuUsPerPageByRep),
          above(row.warmAboveMemoryUsPerPage),
          formatInteger(row.pagesPerSecond),
        ]),
      )}`,
    );
    writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify(
        {
          benchmark: 'store-cost',
          environment: machineEnvironment(),
          fleet: FLEET,
          recordedPages: recorded.pages.length,
          linksPerPage: links / recorded.pages.length,
          loops,
          passes,
          reps,
          method:
            'a crawl of the realistic fleet with the memory store recorded (each completion: URL, links, LastFetch, failure); replayed on each store in a fresh process by STORE_COST_LOOPS loops of claim + complete (completeAndClaim where the store has it), STORE_COST_PASSES times in that process, each pass on a store of its own; CPU = process.cpuUsage from after the store opened and the seeds were added to the last completion, over the pages; first pass (cold: V8 compiling the hot code, the heap growing) and last pass (warm); medians of REPS alternating reps',
          rows,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nwrote ${RESULTS_FILE}`);
  } finally {
    await servers.redis?.stop();
    await servers['redis-cluster']?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The store a replay opens: a fresh SQLite file, a fresh crawl id on the bench's Redis. */
function storeSpec(kind, servers, dir) {
  if (kind === 'sqlite') return { kind, path: join(dir, `frontier-${randomUUID()}.db`) };
  if (kind === 'redis' || kind === 'redis-cluster') {
    return { kind: 'redis', redisUrl: servers[kind].url, crawlId: `politely-bench-store-cost-${randomUUID()}` };
  }
  return { kind: 'memory' };
}

/** Runs this file as a child in `childRole`; resolves with the result it sends. */
async function runChild(childRole, job, what) {
  const child = fork(SELF, [childRole, JSON.stringify(job)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const { result } = await onMessage(child, 'result', RUN_TIMEOUT_MS, what);
    await exitOf(child);
    return result;
  } catch (error) {
    child.kill('SIGKILL');
    await exitOf(child);
    throw error;
  }
}

/** Child: crawls the fleet with the memory store, writing down each completion as the crawler made it. */
async function record({ seeds, recording }) {
  const { createCrawler } = await import('@politely/crawler');
  const { createMemoryFrontierStore } = await import('@politely/frontier');
  const store = createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: CONCURRENCY } });
  const urlOfLease = new Map();
  const pages = [];
  const adds = [];
  const add = store.add.bind(store);
  store.add = (entries, options) => {
    adds.push({ entries, options });
    return add(entries, options);
  };
  const claim = store.claim.bind(store);
  store.claim = async (request) => {
    const result = await claim(request);
    if (result.lease !== null) urlOfLease.set(result.lease.id, result.lease.entry.url);
    return result;
  };
  const complete = store.complete.bind(store);
  store.complete = (leaseId, options = {}) => {
    const { add = [], lastFetch, failure } = options;
    pages.push({ url: urlOfLease.get(leaseId), add, lastFetch, failure });
    urlOfLease.delete(leaseId);
    return complete(leaseId, options);
  };
  const crawler = createCrawler({
    userAgent: USER_AGENT,
    allowNet: ['127.0.0.0/8'],
    seeds,
    scope: { include: [new RegExp(FLEET_URL_PATTERN)] },
    concurrency: CONCURRENCY,
    perHostConcurrency: CONCURRENCY,
    minDelayMs: 0,
    store,
  });
  await crawler.run();
  // The seeds (and any other add) as the crawler made them.
  writeFileSync(recording, JSON.stringify({ adds, pages }));
  report({ pages: pages.length });
}

/**
 * Child: replays the recording on one store `passes` times, each on a store of its own (a new
 * crawl id, a new SQLite file); sends the process's CPU a page in each pass. The first pass pays
 * for V8 compiling the store's hot code (and ioredis's) and for sizing the heap; the last is
 * what a page costs a crawl that has run a while.
 */
async function replay({ store: spec, recording, loops, passes = 1 }) {
  const { adds, pages } = JSON.parse(readFileSync(recording, 'utf8'));
  const byUrl = new Map(pages.filter((page) => page.url !== undefined).map((page) => [page.url, page]));
  const cpuUsPerPageByPass = [];
  const pagesPerSecondByPass = [];
  let done = 0;
  let idleClaims = 0;
  for (let pass = 0; pass < passes; pass++) {
    const measured = await replayOnce(passSpec(spec, pass), adds, byUrl, loops);
    cpuUsPerPageByPass.push(measured.cpuUsPerPage);
    pagesPerSecondByPass.push(measured.pagesPerSecond);
    done = measured.pages;
    idleClaims += measured.idleClaims;
  }
  report({
    pages: done,
    cpuUsPerPage: cpuUsPerPageByPass[0],
    warmCpuUsPerPage: cpuUsPerPageByPass.at(-1),
    cpuUsPerPageByPass,
    pagesPerSecond: pagesPerSecondByPass[0],
    idleClaims,
  });
}

/** A pass's own store: the spec's, under another crawl id or file after the first pass. */
function passSpec(spec, pass) {
  if (pass === 0) return spec;
  if (spec.kind === 'sqlite') return { ...spec, path: `${spec.path}.${pass}` };
  if (spec.kind === 'redis') return { ...spec, crawlId: `${spec.crawlId}-${pass}` };
  return spec;
}

/** One replay of the recorded completions on a store opened for it (and closed after). */
async function replayOnce(spec, adds, byUrl, loops) {
  const { store, close } = await openStore(spec);
  for (const { entries, options } of adds) await store.add(entries, options);
  await store.counts(); // opened (Redis: every bucket marked), outside the measure
  const total = byUrl.size;
  let done = 0;
  let held = 0;
  let idleClaims = 0;
  const cpuAtStart = process.cpuUsage();
  const startedAt = performance.now();
  const completeOne = async (lease) => {
    const page = byUrl.get(lease.entry.url);
    const options = {};
    if (page !== undefined) {
      if (page.add.length > 0) options.add = page.add;
      if (page.lastFetch !== undefined) options.lastFetch = page.lastFetch;
      if (page.failure !== undefined) options.failure = page.failure;
    }
    done++;
    if (store.completeAndClaim === undefined || done >= total) {
      await store.complete(lease.id, options);
      return null;
    }
    const { next } = await store.completeAndClaim(lease.id, options, { now: Date.now(), leaseMs: LEASE_MS });
    return next;
  };
  const loop = async () => {
    let lease = null;
    // Bounded: every recorded page is claimed once, and an idle claim waits a millisecond.
    for (let turn = 0; turn < 20 * total && done < total; turn++) {
      if (lease === null) {
        const claimed = await store.claim({ now: Date.now(), leaseMs: LEASE_MS });
        if (claimed.lease === null) {
          idleClaims++;
          if (claimed.nextReadyAt === null && held === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 1));
          continue;
        }
        lease = claimed.lease;
        held++;
      }
      lease = await completeOne(lease);
      if (lease === null) held--;
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
  const cpu = process.cpuUsage(cpuAtStart);
  const wallMs = performance.now() - startedAt;
  await close();
  return {
    pages: done,
    cpuUsPerPage: (cpu.user + cpu.system) / done,
    pagesPerSecond: done / (wallMs / 1000),
    idleClaims,
  };
}

/** A child's result: to the parent, or printed when the child runs alone (say, under `node --cpu-prof`). */
function report(result) {
  if (process.send === undefined) console.log(JSON.stringify(result));
  else process.send({ type: 'result', result });
}

async function openStore(spec) {
  const defaultHostPolicy = { delayMs: 0, maxInFlight: CONCURRENCY };
  if (spec.kind === 'memory') {
    const { createMemoryFrontierStore } = await import('@politely/frontier');
    return { store: createMemoryFrontierStore({ defaultHostPolicy }), close: async () => {} };
  }
  if (spec.kind === 'sqlite') {
    const { createSqliteFrontierStore } = await import('@politely/store-sqlite');
    const store = createSqliteFrontierStore({ path: spec.path, defaultHostPolicy });
    return { store, close: () => store.close() };
  }
  const { createRedisFrontierStore, deleteRedisCrawl } = await import('@politely/store-redis');
  const store = createRedisFrontierStore({ redis: spec.redisUrl, crawlId: spec.crawlId, defaultHostPolicy });
  await store.ready();
  return {
    store,
    close: async () => {
      await store.close();
      await deleteRedisCrawl({ redis: spec.redisUrl, crawlId: spec.crawlId });
    },
  };
}
