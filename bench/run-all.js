// Runs every benchmark of politely in sequence, each in its own node process (so that one
// benchmark's JIT state and heap cannot colour the next), with --expose-gc so the harness can
// force a GC between samples. `node run-all.js robots` runs only the files whose name matches.

import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** In the order they run; add new benchmark files here. */
const BENCHMARKS = [
  'robots-engine.bench.js',
  // First among the crawls: the fleet they crawl must serve faster than any crawler fetches.
  'fleet-serve.bench.js',
  'crawler-run.js',
  'sitemap-seeding.bench.js',
  'store-memory.bench.js',
  'store-crawl.bench.js',
  'recrawl.bench.js',
  'dataset-write.bench.js',
  'redis-workers.bench.js',
  // A rendered crawl in Chromium (/usr/bin/chromium): politely against Crawlee's PlaywrightCrawler.
  'render.bench.js',
];

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const selected = BENCHMARKS.filter((file) => filter === undefined || file.includes(filter));
if (selected.length === 0) {
  console.error(`no benchmark matches "${filter}"; known: ${BENCHMARKS.join(', ')}`);
  process.exit(1);
}

let failed = 0;
for (const file of selected) {
  console.log(`\n=== ${file} ===`);
  const { status, signal } = spawnSync(process.execPath, ['--expose-gc', file], { cwd: here, stdio: 'inherit' });
  if (status !== 0) {
    failed++;
    console.error(`${file} failed (${signal ?? `exit code ${status}`})`);
  }
}
process.exit(failed === 0 ? 0 : 1);
