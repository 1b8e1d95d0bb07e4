// The scale curve (issue 31): each frontier store filled with 100,000, 1,000,000 and (SQLite and
// Redis, with SCALE_MAX=10000000) 10,000,000 URLs over 10,000 hosts, added as the crawler adds
// them (scale-workload.js), and at each size:
// - bytes per queued URL: SQLite, the file with its WAL after a checkpoint; Redis, the rise of
//   used_memory; memory, the rise of the heap after a full GC; over the URLs;
// - bytes per done URL: the same once a sample of them is claimed and completed (SQLite: by the
//   bytes of its pages in use, dbstat: the file keeps its size until later rows reuse the space);
// - add rate (URLs/s, one `add` per page of 40 links), and its CPU;
// - claim rate: claims + completions per second over that sample (up to 20,000, delay 0);
// - Redis: commands run per claim + complete (INFO commandstats, those run inside scripts
//   included) and round trips (commands the store's client wrote to any node: redis-wire-count.js).
// Each store at each size runs in its own node process, on a fresh file / flushed Redis / heap.
// Redis is a redis-server of its own (a free loopback port, no persistence), and the Redis Cluster
// one of its own too (3 primaries, no replicas: test/support/redis-launch.js), both stopped at the
// end; SCALE_REDIS_CLUSTER=host:port,… measures a cluster of yours instead (it is FLUSHALLed).
//
//   node --expose-gc bench/scale.bench.js                        (100k and 1M, a few minutes)
//   SCALE_MAX=10000000 nice -n 10 node --expose-gc bench/scale.bench.js   (adds 10M; long)
//   SCALE_STORES=sqlite SCALE_SIZES=10000000 …                     (one store, one size)
//
// Prints a table and merges its rows into bench/results/scale.json (one row per store and size,
// each with its date), so a run of one store or size keeps the others' rows.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedisCluster, startRedisServer } from '../test/support/redis-launch.js';
import { formatInteger, formatTable } from './harness.js';
import { averageUrlChars, HOSTS, LINKS_PER_PAGE, measure, round } from './scale-workload.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'scale.json');
const MAX = Number(process.env.SCALE_MAX ?? 1_000_000);
const SIZES = (process.env.SCALE_SIZES ?? '100000,1000000,10000000').split(',').map(Number);
const STORES = (process.env.SCALE_STORES ?? 'memory,sqlite,redis,redis-cluster').split(',');
/** The memory store stops at 1M: 10M URLs of heap is what the other stores are for. */
const MEMORY_MAX = 1_000_000;
const CLUSTER = process.env.SCALE_REDIS_CLUSTER;

async function importPackages() {
  return {
    ...(await import('@politely/frontier')),
    ...(await import('@politely/store-sqlite')),
    ...(await import('@politely/store-redis')),
  };
}

function argument(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** One store at one size, in a child process; its figures, or the reason it could not run. */
function runPart(kind, urls, nodes) {
  const args = ['--expose-gc', fileURLToPath(import.meta.url), '--part', kind, '--urls', String(urls)];
  if (nodes !== undefined) args.push('--nodes', nodes.join(','));
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.status !== 0) return { store: kind, urls, error: child.stderr.trim().split('\n').slice(0, 3).join(' ') };
  return JSON.parse(child.stdout);
}

function plan() {
  const sizes = SIZES.filter((n) => n <= MAX);
  const runs = [];
  for (const kind of STORES) {
    for (const urls of sizes) if (kind !== 'memory' || urls <= MEMORY_MAX) runs.push({ kind, urls });
  }
  return runs;
}

function tableOf(rows) {
  const cell = (value, digits = 0) =>
    value === null || value === undefined ? '–' : round(value, digits).toLocaleString('en-US');
  return formatTable(
    [
      'store',
      'URLs',
      'add URLs/s',
      'add CPU s',
      'B/queued URL',
      'B/done URL',
      'claims/s',
      'Redis cmds/page',
      'round trips/page',
    ],
    rows.map((r) =>
      r.error !== undefined
        ? [r.store, formatInteger(r.urls), `failed: ${r.error.slice(0, 120)}`, '', '', '', '', '', '']
        : [
            r.store,
            formatInteger(r.urls),
            formatInteger(r.addUrlsPerSecond),
            cell(r.addCpuSeconds, 1),
            cell(r.bytesPerQueuedUrl),
            cell(r.bytesPerDoneUrl),
            formatInteger(r.claimsPerSecond),
            cell(r.redisCommandsPerPage, 1),
            cell(r.redisRoundTripsPerPage, 1),
          ],
    ),
  );
}

/** The rows of earlier runs, with this run's in place of theirs of the same store and size. */
function mergedRows(rows) {
  const earlier = existsSync(RESULTS_FILE) ? JSON.parse(readFileSync(RESULTS_FILE, 'utf8')).rows : [];
  const key = (r) => `${r.store} ${r.urls}`;
  const fresh = new Set(rows.map(key));
  const order = ['memory', 'sqlite', 'redis', 'redis-cluster'];
  return [...earlier.filter((r) => !fresh.has(key(r))), ...rows].sort(
    (a, b) => order.indexOf(a.store) - order.indexOf(b.store) || a.urls - b.urls,
  );
}

async function main() {
  const runs = plan();
  const redis = runs.some((r) => r.kind === 'redis') ? await startRedisServer() : undefined;
  const cluster =
    runs.some((r) => r.kind === 'redis-cluster') && CLUSTER === undefined
      ? await startRedisCluster({ primaries: 3 })
      : undefined;
  const clusterNodes = cluster?.seeds ?? CLUSTER?.split(',');
  const rows = [];
  const started = Date.now();
  try {
    for (const { kind, urls } of runs) {
      const nodes = kind === 'redis' ? [redis.node] : kind === 'redis-cluster' ? clusterNodes : undefined;
      process.stdout.write(`${kind}: ${formatInteger(urls)} URLs… `);
      const row = { ...runPart(kind, urls, nodes), date: new Date().toISOString(), load: os.loadavg()[0] };
      console.log(row.error === undefined ? `${formatInteger(row.addUrlsPerSecond)} URLs/s added` : row.error);
      rows.push(row);
    }
  } finally {
    await redis?.stop();
    await cluster?.stop();
  }
  console.log(
    `\nScale: ${HOSTS.toLocaleString('en')} hosts, ${LINKS_PER_PAGE} links per add, ~${Math.round(averageUrlChars())}-character URLs with a same-host referrer, ${os.cpus().length} CPUs (load ${os.loadavg()[0].toFixed(1)})`,
  );
  console.log(tableOf(rows));
  const all = mergedRows(rows);
  const results = {
    benchmark: 'scale',
    date: new Date().toISOString(),
    environment: {
      node: process.version,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cpus: os.cpus().length,
      gcForced: typeof globalThis.gc === 'function',
    },
    method: {
      workload: `${HOSTS} hosts; a page of host h adds ${LINKS_PER_PAGE} links on h (about ${Math.round(averageUrlChars())} characters, the page as referrer, depth 1–5, priority 0, no label), one add per page, pages round the hosts`,
      bytes:
        'SQLite: file + WAL after wal_checkpoint(TRUNCATE); Redis: used_memory rise (primaries summed); memory: heap rise after gc(); per URL. Done: plus the change once a sample is completed, per completed URL (SQLite: the change in bytes of pages in use, dbstat, since the file keeps its size until later rows reuse the space)',
      claims: 'claim + complete of a sample (min(20,000, URLs/10)), delay 0, one in flight per host, one process',
      redis:
        'a redis-server started by the bench (--save "" --appendonly no), and a Redis Cluster of 3 primaries without replicas started by the bench (unless SCALE_REDIS_CLUSTER); commands/page from INFO commandstats summed over the primaries (inside scripts included), round trips/page: the commands the client wrote to any node (bench/redis-wire-count.js)',
      command:
        'SCALE_MAX=10000000 nice -n 10 node --expose-gc bench/scale.bench.js (SCALE_STORES, SCALE_SIZES to run part of it)',
    },
    rows: all,
  };
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`wrote ${RESULTS_FILE} (${Math.round((Date.now() - started) / 1000)} s)`);
  if (rows.some((r) => r.error !== undefined)) process.exitCode = 1;
}

const part = argument('--part');
if (part !== undefined) {
  const nodes = argument('--nodes')?.split(',');
  const result = await measure(part, Number(argument('--urls')), { nodes }, await importPackages());
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
} else {
  await main();
}
