// Runs every benchmark of politely in sequence, each in its own node process (so that one
// benchmark's JIT state and heap cannot colour the next), with --expose-gc so the harness can
// force a GC between samples. `node run-all.js robots` runs only the files whose name matches.

import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** In the order they run; add new benchmark files here. */
const BENCHMARKS = [
  'robots-engine.bench.js',
  // Extraction (scanHtml, extractPage) over the fleet's pages, in µs per page.
  'extract.bench.js',
  // Main content on the article-extraction benchmark's 181 pages: F1 and CPU per page, @politely/content beside Readability.js.
  { file: 'content.bench.js', name: 'content', env: {} },
  // First among the crawls: the fleet they crawl must serve faster than any crawler fetches.
  'fleet-serve.bench.js',
  'crawler-run.js',
  // Where a page's CPU goes: politely against the floor (exchange + one tokenizer pass), and a CPU profile.
  'cost-per-page.bench.js',
  'sitemap-seeding.bench.js',
  'store-memory.bench.js',
  'store-crawl.bench.js',
  // The store's own CPU a page, without the crawl around it: a recorded crawl's completions replayed on each store.
  'store-cost.bench.js',
  // Completions that pile up on the Redis store (64 loops, no fetch between): settle scripts per page.
  'settle-burst.bench.js',
  // Memory that does not grow with the crawl: peak RSS of a 10k-page and a 100k-page SQLite crawl.
  'crawl-memory.bench.js',
  'recrawl.bench.js',
  'dataset-write.bench.js',
  // What the OpenTelemetry metrics cost a page, with and without a registered MeterProvider.
  'metrics.bench.js',
  // WARC records from real exchanges: politely's writer against warcio, and what archiving costs a crawl.
  'warc-write.bench.js',
  // What Web Bot Auth signing costs: CPU per request of a crawl, signed and unsigned, and one signature alone.
  'signing.bench.js',
  'redis-workers.bench.js',
  // What replicaAcks (Redis WAIT for a replica) costs a page: a primary and a replica of our own.
  'replica-acks.bench.js',
  // The scale curve: every store filled with 100k and 1M URLs (SQLite and Redis 10M with
  // SCALE_MAX=10000000): bytes per URL, add and claim rates, Redis commands and round trips per
  // page, for one Redis and a 3-primary Redis Cluster the bench starts itself.
  'scale.bench.js',
  // A rendered crawl in Chromium (/usr/bin/chromium): politely against Crawlee's PlaywrightCrawler,
  // under the sites' own rules only, then with a 250 ms delay floor for both.
  'render.bench.js',
  {
    file: 'render.bench.js',
    name: 'render-floor',
    env: { BENCH_RENDER_DELAY_MS: '250', BENCH_RENDER_RESULTS: 'render-floor.json' },
  },
];

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
/** A benchmark: its file, and for a variant its own name and environment. */
const entries = BENCHMARKS.map((entry) => (typeof entry === 'string' ? { file: entry, name: entry, env: {} } : entry));
const selected = entries.filter((entry) => filter === undefined || entry.name.includes(filter));
if (selected.length === 0) {
  console.error(`no benchmark matches "${filter}"; known: ${entries.map((entry) => entry.name).join(', ')}`);
  process.exit(1);
}

let failed = 0;
for (const { file, name, env } of selected) {
  console.log(`\n=== ${name} ===`);
  const { status, signal } = spawnSync(process.execPath, ['--expose-gc', file], {
    cwd: here,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (status !== 0) {
    failed++;
    console.error(`${name} failed (${signal ?? `exit code ${status}`})`);
  }
}
process.exit(failed === 0 ? 0 : 1);
