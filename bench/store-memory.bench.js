// Memory at scale for the frontier stores (issue 7):
// - SQLite: 5,000,000 queued URLs, added in batches; the process's peak RSS must stay under
//   300 MB (the page cache is bounded, no URL is held in JS), and claims stay fast at that size.
// - Memory: the bytes each queued URL costs (RSS and heap deltas after a full GC).
// Each part runs in its own node process, so one part's heap cannot colour the other's figures.
// Prints a table and writes bench/results/store-memory.json.
//   node --expose-gc bench/store-memory.bench.js          (both parts, ~1–2 minutes)
//   node --expose-gc bench/store-memory.bench.js --urls 1000000   (a quicker run)

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'store-memory.json');
const RSS_LIMIT_MB = 300;
const SQLITE_URLS = Number(argument('--urls') ?? 5_000_000);
const MEMORY_URLS = Number(argument('--memory-urls') ?? 1_000_000);
const BATCH = 10_000;
const HOSTS = 20_000;
const MB = 1024 * 1024;

function argument(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** The packages by name (linked in bench/node_modules), else the built files. */
async function importPackages() {
  try {
    return { ...(await import('@politely/frontier')), ...(await import('@politely/store-sqlite')) };
  } catch {
    return {
      ...(await import('../packages/frontier/dist/index.js')),
      ...(await import('../packages/store-sqlite/dist/index.js')),
    };
  }
}

/**
 * URL number `i`, the way a crawl finds them: links come in runs of 50 from one site (a page's
 * links), the runs go round 20,000 sites, and paths come in no particular order (so the dedupe
 * index is written all over, not appended to); about 60 characters. Fresh strings per entry.
 */
const LINKS_PER_PAGE = 50;
function entryAt(i) {
  const host = `www.site-${Math.floor(i / LINKS_PER_PAGE) % HOSTS}.example`;
  const scrambled = (Math.imul(i, 2654435761) >>> 0).toString(36);
  return {
    url: `https://${host}/articles/${scrambled}-${i.toString(36)}?page=${i % 7}`,
    hostKey: host,
    depth: 1 + (i % 5),
    priority: 0,
  };
}

function batchAt(start, size) {
  const entries = new Array(size);
  for (let k = 0; k < size; k++) entries[k] = entryAt(start + k);
  return entries;
}

const gc = () => globalThis.gc?.();
const rss = () => process.memoryUsage.rss();

async function sqlitePart() {
  const { createSqliteFrontierStore } = await importPackages();
  const dir = mkdtempSync(join(os.tmpdir(), 'politely-bench-'));
  const path = join(dir, 'frontier.db');
  try {
    const store = createSqliteFrontierStore({ path });
    let peakRss = rss();
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    for (let start = 0; start < SQLITE_URLS; start += BATCH) {
      await store.add(batchAt(start, Math.min(BATCH, SQLITE_URLS - start)));
      peakRss = Math.max(peakRss, rss());
    }
    const addSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStarted);
    const counts = await store.counts();
    // Claim + complete at full size: O(log n) whatever the frontier holds.
    const claims = 20_000;
    const claimStarted = performance.now();
    let now = Date.now();
    for (let n = 0; n < claims; n++) {
      const result = await store.claim({ now, leaseMs: 60_000 });
      if (result.lease === null) {
        now = result.nextReadyAt ?? now + 1;
        n--;
        continue;
      }
      await store.complete(result.lease.id);
    }
    const claimMicros = ((performance.now() - claimStarted) * 1000) / claims;
    peakRss = Math.max(peakRss, rss());
    gc();
    const rssAfterGc = rss();
    await store.close();
    const fileBytes = statSync(path).size;
    return {
      urls: SQLITE_URLS,
      queued: counts.queued,
      batch: BATCH,
      hosts: HOSTS,
      addSeconds: round(addSeconds, 1),
      addCpuSeconds: round((cpu.user + cpu.system) / 1e6, 1),
      urlsPerSecond: Math.round(SQLITE_URLS / addSeconds),
      // The kernel's high-water mark of the process (ru_maxrss), and the highest of our samples.
      peakRssMB: round(Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / MB, 1),
      sampledPeakRssMB: round(peakRss / MB, 1),
      rssAfterGcMB: round(rssAfterGc / MB, 1),
      claimCompleteMicros: round(claimMicros, 1),
      fileMB: round(fileBytes / MB, 1),
      bytesOnDiskPerUrl: Math.round(fileBytes / SQLITE_URLS),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function memoryPart() {
  const { createMemoryFrontierStore } = await importPackages();
  gc();
  gc();
  const rss0 = rss();
  const heap0 = process.memoryUsage().heapUsed;
  const store = createMemoryFrontierStore();
  const started = performance.now();
  for (let start = 0; start < MEMORY_URLS; start += BATCH) {
    // Fresh strings per entry (entryAt builds them), as the crawler's frontier makes them.
    await store.add(batchAt(start, Math.min(BATCH, MEMORY_URLS - start)));
  }
  const addSeconds = (performance.now() - started) / 1000;
  gc();
  gc();
  const rssDelta = rss() - rss0;
  const heapDelta = process.memoryUsage().heapUsed - heap0;
  const counts = await store.counts();
  return {
    urls: MEMORY_URLS,
    queued: counts.queued,
    addSeconds: round(addSeconds, 1),
    rssDeltaMB: round(rssDelta / MB, 1),
    bytesPerUrlRss: Math.round(rssDelta / MEMORY_URLS),
    bytesPerUrlHeap: Math.round(heapDelta / MEMORY_URLS),
    averageUrlChars: Math.round(averageUrlLength()),
  };
}

function averageUrlLength() {
  let sum = 0;
  for (let i = 0; i < 10_000; i++) sum += entryAt(i * 97).url.length;
  return sum / 10_000;
}

function round(value, digits) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Runs one part in a child node process and returns what it printed (JSON). */
function runPart(part) {
  const args = [
    '--expose-gc',
    fileURLToPath(import.meta.url),
    '--part',
    part,
    '--urls',
    String(SQLITE_URLS),
    '--memory-urls',
    String(MEMORY_URLS),
  ];
  const child = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: MB,
  });
  if (child.status !== 0) throw new Error(`part ${part} failed (${child.signal ?? `exit code ${child.status}`})`);
  return JSON.parse(child.stdout);
}

const part = argument('--part');
if (part === 'sqlite') process.stdout.write(JSON.stringify(await sqlitePart()));
else if (part === 'memory') process.stdout.write(JSON.stringify(await memoryPart()));
else {
  if (typeof globalThis.gc !== 'function')
    console.warn('note: run with --expose-gc for the memory figures (node --expose-gc bench/store-memory.bench.js)');
  const startedAt = Date.now();
  console.log(
    `SQLite store: adding ${SQLITE_URLS.toLocaleString('en')} URLs in batches of ${BATCH.toLocaleString('en')}…`,
  );
  const sqlite = runPart('sqlite');
  console.log(`memory store: adding ${MEMORY_URLS.toLocaleString('en')} URLs…`);
  const memory = runPart('memory');
  const pass = sqlite.peakRssMB < RSS_LIMIT_MB;
  console.log('');
  console.table({
    'SQLite store': {
      'queued URLs': sqlite.queued,
      'add time (s)': sqlite.addSeconds,
      'add CPU (s)': sqlite.addCpuSeconds,
      'URLs/s': sqlite.urlsPerSecond,
      'peak RSS (MB)': sqlite.peakRssMB,
      'RSS after GC (MB)': sqlite.rssAfterGcMB,
      'claim+complete (µs)': sqlite.claimCompleteMicros,
      'file (MB)': sqlite.fileMB,
    },
  });
  console.table({
    'memory store': {
      'queued URLs': memory.queued,
      'add time (s)': memory.addSeconds,
      'RSS delta (MB)': memory.rssDeltaMB,
      'bytes/URL (RSS)': memory.bytesPerUrlRss,
      'bytes/URL (heap)': memory.bytesPerUrlHeap,
      'URL chars (avg)': memory.averageUrlChars,
    },
  });
  console.log(
    `\nSQLite peak RSS ${sqlite.peakRssMB} MB with ${sqlite.queued.toLocaleString('en')} URLs queued: ${pass ? 'PASS' : 'FAIL'} (limit ${RSS_LIMIT_MB} MB)`,
  );
  const loadAverage = os.loadavg();
  const results = {
    benchmark: 'store-memory',
    date: new Date().toISOString(),
    environment: {
      node: process.version,
      platform: `${process.platform}/${process.arch}`,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cpus: os.cpus().length,
      totalMemoryMB: Math.round(os.totalmem() / MB),
      gcForced: typeof globalThis.gc === 'function',
      loadAverage: loadAverage.map((n) => round(n, 2)),
    },
    method: {
      urls: 'https://www.site-<h>.example/articles/<scrambled>-<n>?page=<k>: runs of 50 per site round 20,000 sites, paths unordered, fresh strings',
      sqlite:
        'createSqliteFrontierStore defaults (64 MiB page cache, WAL, synchronous=NORMAL), one add per batch; peak RSS = the kernel high-water mark (ru_maxrss); then 20,000 claim+complete pairs at full size',
      memory: 'createMemoryFrontierStore; RSS and heap deltas after a forced full GC, divided by the URL count',
    },
    rssLimitMB: RSS_LIMIT_MB,
    pass,
    sqlite,
    memory,
    runtimeSeconds: round((Date.now() - startedAt) / 1000, 1),
  };
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`wrote ${RESULTS_FILE} (${results.runtimeSeconds} s)`);
  if (!pass) process.exitCode = 1;
}
