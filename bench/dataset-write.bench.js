// Datasets at scale (issue 14): one million records pushed and written to a JSON lines and a CSV
// output, with bounded memory. Two ways records are pushed, each in its own node process:
// - `page`: a crawl of a loopback site of 1,000 pages whose handler pushes 1,000 records per page
//   (`page.push` of arrays of 50, awaited), so the pages' tail and ledger commits are in the path;
// - `outside`: `crawler.push` of single records from 64 concurrent producers (each awaiting its
//   push), as code outside a handler would.
// Each part runs with 100,000 and with 1,000,000 records: peak RSS must not grow with the count.
// Prints a table and writes bench/results/dataset-write.json.
//   node --expose-gc bench/dataset-write.bench.js              (all parts, ~1 minute)
//   node bench/dataset-write.bench.js --part page --records 1000000   (one part)

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'dataset-write.json');
const MB = 1024 * 1024;
const PAGES = 1000;
const PER_PUSH = 50;
const PRODUCERS = 64;

function argument(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** The package by name (linked in bench/node_modules), else the built file. */
async function importCrawler() {
  try {
    return await import('@politely/crawler');
  } catch {
    return import('../packages/crawler/dist/index.js');
  }
}

/** Record number `i`: a product as a scraper keeps it, about 170 bytes of JSON, a fresh object. */
function recordAt(i, url) {
  return {
    id: i,
    url,
    title: `Product ${i}, "deluxe" edition`,
    price: (i % 10_000) / 100,
    inStock: i % 3 !== 0,
    tags: ['kitchen', `batch-${i % 17}`],
    seenAt: '2026-11-24T10:00:00.000Z',
  };
}

async function part(kind, total) {
  const { createCrawler } = await importCrawler();
  const dir = mkdtempSync(join(os.tmpdir(), 'politely-bench-dataset-'));
  const jsonl = join(dir, 'records.jsonl');
  const csv = join(dir, 'records.csv');
  let peakRss = process.memoryUsage.rss();
  const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage.rss()));
  const sampler = setInterval(sample, 20);
  const perPage = Math.ceil(total / PAGES);
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.end('User-agent: *\nAllow: /\n');
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (n < 0 || n >= PAGES) {
      res.statusCode = 404;
      return void res.end();
    }
    res.setHeader('content-type', 'text/html');
    res.end(
      `<html><body>${[n + 1, n + 2]
        .filter((m) => m < PAGES)
        .map((m) => `<a href="/p/${m}">${m}</a>`)
        .join('')}</body></html>`,
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  let pushed = 0;
  const crawler = createCrawler({
    userAgent: 'BenchBot/1.0 (+http://example.invalid/bot)',
    seeds: kind === 'page' ? [`${base}/p/0`] : [],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    maxDepth: Infinity,
    perHostConcurrency: 8,
    concurrency: 8,
    outputs: [{ path: jsonl }, { path: csv }],
    handler: async (page) => {
      const n = Number(page.finalUrl.split('/').pop());
      const first = n * perPage;
      const end = Math.min(total, first + perPage);
      for (let from = first; from < end; from += PER_PUSH) {
        const batch = [];
        for (let i = from; i < Math.min(end, from + PER_PUSH); i++) batch.push(recordAt(i, page.finalUrl));
        await page.push(batch);
        pushed += batch.length;
      }
      sample();
    },
  });
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  if (kind === 'outside') {
    // Before run(): push opens the outputs; run() (no seeds) then closes them.
    let next = 0;
    const producer = async () => {
      while (next < total) {
        const i = next++;
        await crawler.push(recordAt(i, 'outside'));
        pushed++;
        if ((i & 1023) === 0) sample();
      }
    };
    await Promise.all(Array.from({ length: PRODUCERS }, producer));
  }
  await crawler.run();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  clearInterval(sampler);
  sample();
  server.close();
  const outputs = crawler.outputs();
  const result = {
    kind,
    records: pushed,
    written: outputs.map((output) => output.records),
    seconds: Math.round(seconds * 100) / 100,
    recordsPerSecond: Math.round(pushed / seconds),
    cpuMsPerThousand: Math.round(((cpu.user + cpu.system) / 1000 / pushed) * 1000 * 100) / 100,
    peakRssMb: Math.round((peakRss / MB) * 10) / 10,
    jsonlMb: Math.round((statSync(jsonl).size / MB) * 10) / 10,
    csvMb: Math.round((statSync(csv).size / MB) * 10) / 10,
  };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const only = argument('--part');
if (only !== undefined) {
  const result = await part(only, Number(argument('--records') ?? 1_000_000));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

const results = [];
for (const kind of ['page', 'outside']) {
  for (const records of [100_000, 1_000_000]) {
    const run = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--part', kind, '--records', String(records)],
      { encoding: 'utf8', maxBuffer: 16 * MB },
    );
    if (run.status !== 0) {
      console.error(run.stderr);
      process.exit(1);
    }
    const result = JSON.parse(run.stdout.trim().split('\n').pop());
    if (result.written.some((count) => count !== records))
      throw new Error(`${kind}: ${records} records pushed, ${result.written.join(' / ')} written`);
    results.push(result);
    console.log(
      `${kind.padEnd(8)} ${String(records).padStart(9)} records  ${String(result.recordsPerSecond).padStart(8)} records/s  ${String(result.seconds).padStart(6)} s  ` +
        `peak RSS ${String(result.peakRssMb).padStart(6)} MB  files ${result.jsonlMb} MB jsonl + ${result.csvMb} MB csv`,
    );
  }
}
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(
  RESULTS_FILE,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg(), results }, null, 2)}\n`,
);
console.log(`results in ${RESULTS_FILE}`);
