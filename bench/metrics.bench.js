// What the crawl's OpenTelemetry metrics cost a page (issue 32): the same crawl of a loopback
// site, without a registered MeterProvider (the API's no-op meter: nothing is wrapped or read)
// and with one (@opentelemetry/sdk-metrics, a periodic reader exporting to memory every second,
// so collections and the gauges' store reads are in the figure too), side by side. The two take
// turns, round after round, so that noise hits both alike; the figures are medians.
//
// Per variant: wall time and CPU time of this process (the servers run in it too: the same work
// for both variants, so the difference is the metrics') per page.
//
//   node --expose-gc bench/metrics.bench.js          (~30 s at the default size)
//
// Environment: BENCH_METRICS_HOSTS × BENCH_METRICS_PAGES (default 10 × 100 pages),
// BENCH_METRICS_ROUNDS (default 5). Prints a table and writes bench/results/metrics.json.

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { collectGarbage, formatFixed, formatTable, median } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'metrics.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const HOSTS = Number(process.env.BENCH_METRICS_HOSTS ?? 10);
const PAGES = Number(process.env.BENCH_METRICS_PAGES ?? 100);
const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 5);

/** The crawler by name (linked in bench/node_modules), else the built files. */
async function importCrawler() {
  try {
    return await import('@politely/crawler');
  } catch {
    return import('../packages/crawler/dist/index.js');
  }
}

/** The SDK is the crawler's dev dependency (the crawler itself needs only the API). */
async function importSdk() {
  const require = createRequire(join(HERE, '..', 'packages', 'crawler', 'package.json'));
  return import(require.resolve('@opentelemetry/sdk-metrics'));
}

/** A site of `PAGES` pages, each linking to the next five and the front page, about 2 kB each. */
function page(i) {
  const links = [];
  for (let k = 1; k <= 5; k++) if (i + k < PAGES) links.push(`<a href="/p/${i + k}">page ${i + k}</a>`);
  const text = `<p>${'Some text of the page, a sentence long. '.repeat(40)}</p>`;
  return `<!doctype html><html><head><title>Page ${i}</title></head><body><a href="/">home</a>${links.join('')}${text}</body></html>`;
}

async function startSite() {
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.setHeader('content-type', 'text/plain');
      res.end('User-agent: *\nAllow: /\n');
      return;
    }
    const match = /^\/(?:p\/(\d+))?$/.exec(req.url ?? '');
    const i = match === null ? -1 : Number(match[1] ?? 0);
    if (i < 0 || i >= PAGES) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(page(i));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function crawlOnce(createCrawler, sites, meterProvider) {
  const crawler = createCrawler({
    userAgent: USER_AGENT,
    allowNet: ['127.0.0.0/8'],
    seeds: sites.map((site) => `${site.base}/`),
    minDelayMs: 0,
    concurrency: 32,
    perHostConcurrency: 4,
    ...(meterProvider === undefined ? {} : { meterProvider }),
  });
  collectGarbage();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const stats = await crawler.run();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (stats.pages !== HOSTS * PAGES) throw new Error(`expected ${HOSTS * PAGES} pages, got ${stats.pages}`);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, pages: stats.pages };
}

async function main() {
  const { createCrawler } = await importCrawler();
  const sdk = await importSdk();
  const sites = await Promise.all(Array.from({ length: HOSTS }, startSite));
  const variants = [
    { name: 'no provider', provider: () => undefined },
    {
      name: 'MeterProvider (sdk-metrics)',
      provider: () => {
        const exporter = new sdk.InMemoryMetricExporter(sdk.AggregationTemporality.CUMULATIVE);
        const reader = new sdk.PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 1000 });
        return new sdk.MeterProvider({ readers: [reader] });
      },
    },
  ];
  const samples = new Map(variants.map((v) => [v.name, []]));
  try {
    // One warm-up crawl each, thrown away.
    for (const variant of variants) {
      const provider = variant.provider();
      await crawlOnce(createCrawler, sites, provider);
      await provider?.shutdown();
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const provider = variant.provider();
        samples.get(variant.name).push(await crawlOnce(createCrawler, sites, provider));
        await provider?.shutdown();
      }
    }
  } finally {
    await Promise.all(sites.map((site) => site.close()));
  }

  const results = variants.map(({ name }) => {
    const runs = samples.get(name);
    return {
      name,
      pages: runs[0].pages,
      wallMsPerPage: median(runs.map((r) => r.wallMs / r.pages)),
      cpuUsPerPage: median(runs.map((r) => (r.cpuMs * 1000) / r.pages)),
      cpuUsPerPageMin: Math.min(...runs.map((r) => (r.cpuMs * 1000) / r.pages)),
      cpuUsPerPageMax: Math.max(...runs.map((r) => (r.cpuMs * 1000) / r.pages)),
      runs,
    };
  });
  const [none, withProvider] = results;
  const rows = results.map((r) => [
    r.name,
    String(r.pages),
    formatFixed(r.wallMsPerPage, 3),
    formatFixed(r.cpuUsPerPage, 1),
    `${formatFixed(r.cpuUsPerPageMin, 0)}–${formatFixed(r.cpuUsPerPageMax, 0)}`,
    r === none ? '1.00×' : `${formatFixed(r.cpuUsPerPage / none.cpuUsPerPage, 2)}×`,
  ]);
  console.log(
    `Metrics' cost: ${HOSTS} loopback hosts × ${PAGES} pages, ${ROUNDS} rounds each (medians; CPU includes the servers)\n`,
  );
  console.log(formatTable(['variant', 'pages', 'wall ms/page', 'CPU µs/page', 'CPU min–max', 'CPU ratio'], rows));
  console.log(
    `\nCPU per page, with a provider minus without: ${formatFixed(withProvider.cpuUsPerPage - none.cpuUsPerPage, 1)} µs (a difference within the runs' spread is noise).`,
  );
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpu: os.cpus()[0]?.model,
        loadAverage: os.loadavg(),
        hosts: HOSTS,
        pagesPerHost: PAGES,
        rounds: ROUNDS,
        results,
      },
      null,
      2,
    )}\n`,
  );
}

await main();
