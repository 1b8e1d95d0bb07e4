// Seeding a frontier from a sitemap index of 20 files × 50,000 URLs (one million URLs), served on
// 127.0.0.1: politely's `sitemaps()` plugin against sitemapper's own `fetch()`, same files.
//
// - politely: a crawler with `sitemaps({ enqueuePages: true })` seeds a counting FrontierStore
//   that keeps no page URL (it counts page entries and never hands them out), so no page is
//   fetched; the sitemap files are fetched politely, one at a time (minDelayMs: 0).
// - sitemapper: `new Sitemapper({ url }).fetch()`, which fetches up to 10 files at once and returns
//   every URL in one array.
//
// Each run is its own node process (peak RSS is the process's: sampled every 50 ms), and the
// server is another one, so its memory counts for neither. Contestants take turns, BENCH_ROUNDS
// runs each (default 3); the medians are reported. Writes bench/results/sitemap-seeding.json.
//
//   node bench/sitemap-seeding.bench.js            (after `pnpm build`)

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatFixed, formatInteger, formatTable, median } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const RESULTS_FILE = join(HERE, 'results', 'sitemap-seeding.json');
const FILES = Number(process.env.BENCH_SITEMAP_FILES ?? 20);
const URLS_PER_FILE = Number(process.env.BENCH_SITEMAP_URLS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const USER_AGENT = 'PolitelyBench/0.1 (+https://example.invalid/bench)';

const mode = process.argv[2];
if (mode === 'serve') await serve();
else if (mode === 'politely' || mode === 'sitemapper') await runContestant(mode, process.argv[3]);
else await orchestrate();

// ---------------------------------------------------------------------------------------------
// The site: robots.txt → index.xml → sitemap-<i>.xml, each file generated on request.

async function serve() {
  const server = createServer((req, res) => {
    const base = `http://127.0.0.1:${server.address().port}`;
    const file = /^\/sitemap-(\d+)\.xml$/.exec(req.url ?? '');
    if (req.url === '/robots.txt') return res.end(`User-agent: *\nAllow: /\nSitemap: ${base}/index.xml\n`);
    res.setHeader('content-type', 'application/xml');
    if (req.url === '/index.xml') {
      const children = Array.from(
        { length: FILES },
        (_, i) => `<sitemap><loc>${base}/sitemap-${i}.xml</loc></sitemap>`,
      );
      return res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children.join('\n')}\n</sitemapindex>\n`,
      );
    }
    if (file !== null && Number(file[1]) < FILES) {
      const i = Number(file[1]);
      const urls = [];
      for (let j = 0; j < URLS_PER_FILE; j++)
        urls.push(`<url><loc>${base}/p/${i}/${j}</loc><lastmod>2024-01-01</lastmod><priority>0.5</priority></url>`);
      return res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
      );
    }
    res.statusCode = 404;
    res.end();
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
}

// ---------------------------------------------------------------------------------------------
// One run in this process: seed, measure, print one JSON line.

async function runContestant(name, base) {
  const seed = name === 'politely' ? await politelySeeder() : await sitemapperSeeder();
  global.gc?.();
  const baselineRss = process.memoryUsage().rss;
  let peakRss = baselineRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const { urls, requests } = await seed(base);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuAtStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  process.stdout.write(`${JSON.stringify({ name, urls, requests, wallMs, cpuMs, baselineRss, peakRss })}\n`);
}

async function politelySeeder() {
  const { createCrawler } = await import('@politely/crawler');
  const { dedupeKeyOf } = await import('@politely/frontier');
  const { sitemaps } = await import('@politely/sitemap');
  return async (base) => {
    const store = createCountingStore(dedupeKeyOf);
    const crawler = createCrawler({
      userAgent: USER_AGENT,
      allowNet: ['127.0.0.0/8'],
      seeds: [],
      minDelayMs: 0,
      store,
      plugins: [sitemaps({ origins: [base], enqueuePages: true })],
    });
    let requests = 0;
    crawler.on('request', () => requests++);
    crawler.on('error', (event) => {
      if (!event.willRetry) console.error(`politely: ${event.error.message}`);
    });
    await crawler.run();
    return { urls: store.pageEntries, requests };
  };
}

async function sitemapperSeeder() {
  // sitemapper is a dependency of @politely/sitemap: loaded from there.
  const sitemapPackage = createRequire(import.meta.url).resolve('@politely/sitemap/package.json');
  const { default: Sitemapper } = await import(pathToFileURL(createRequire(sitemapPackage).resolve('sitemapper')).href);
  return async (base) => {
    const sitemapper = new Sitemapper({ url: `${base}/index.xml`, timeout: 300_000 });
    const { sites, errors } = await sitemapper.fetch();
    for (const error of errors) console.error(`sitemapper: ${error.type} ${error.url}`);
    return { urls: sites.length, requests: FILES + 1 };
  };
}

/**
 * A FrontierStore that keeps the sitemap entries (a few dozen) and only counts page entries: it
 * never hands a page out, so the crawl ends when the sitemaps are read, with no page fetched.
 */
function createCountingStore(dedupeKeyOf) {
  const seen = new Set();
  const queue = [];
  const leases = new Map();
  const host = { readyAt: 0, inFlight: 0, delayMs: 0 };
  let leaseCounter = 0;
  let done = 0;
  const store = {
    pageEntries: 0,
    async add(entries) {
      return entries.map((entry) => {
        if (entry.kind === undefined || entry.kind === 'page') {
          store.pageEntries++;
          return 'added';
        }
        const key = dedupeKeyOf(entry);
        if (seen.has(key)) return 'duplicate';
        seen.add(key);
        queue.push(entry);
        return 'added';
      });
    },
    async claim({ now, leaseMs }) {
      if (queue.length === 0) return { lease: null, nextReadyAt: host.inFlight > 0 ? now + 10 : null };
      if (host.inFlight > 0 || host.readyAt > now) return { lease: null, nextReadyAt: Math.max(host.readyAt, now + 1) };
      const entry = queue.shift();
      const lease = {
        id: String(++leaseCounter),
        entry,
        leaseExpiresAt: now + leaseMs,
        previousHostReadyAt: host.readyAt,
      };
      host.inFlight++;
      host.readyAt = now + host.delayMs;
      leases.set(lease.id, lease);
      return { lease };
    },
    async complete(id, options = {}) {
      finish(id, options, () => done++);
    },
    async release(id, options = {}) {
      finish(id, options, (lease) => queue.unshift(lease.entry));
    },
    async retry(id, options = {}) {
      finish(id, options, (lease) => queue.unshift({ ...lease.entry, retries: (lease.entry.retries ?? 0) + 1 }));
    },
    async setHostPolicy(_hostKey, policy) {
      if (policy.delayMs !== undefined) host.delayMs = policy.delayMs;
      if (policy.readyAt !== undefined) host.readyAt = policy.readyAt;
    },
    async counts() {
      return {
        queued: queue.length,
        inFlight: host.inFlight,
        done,
        activeHosts: queue.length + host.inFlight > 0 ? 1 : 0,
      };
    },
    async hostCounts() {
      return [];
    },
    async close() {},
  };
  function finish(id, options, then) {
    const lease = leases.get(id);
    if (lease === undefined) return;
    leases.delete(id);
    host.inFlight--;
    if (options.hostReadyAt !== undefined) host.readyAt = options.hostReadyAt;
    then(lease);
  }
  return store;
}

// ---------------------------------------------------------------------------------------------
// The orchestra: a server process, then the contestants taking turns, each in its own process.

async function orchestrate() {
  const server = spawn(process.execPath, [SELF, 'serve'], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  try {
    const port = await firstLine(server.stdout);
    const base = `http://127.0.0.1:${port}`;
    console.log(
      `node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} ×${os.cpus().length}, ${os.platform()}/${os.arch()}`,
    );
    console.log(
      `an index of ${FILES} files × ${formatInteger(URLS_PER_FILE)} URLs on ${base}; ${ROUNDS} runs each, taking turns\n`,
    );
    const runs = { politely: [], sitemapper: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['politely', 'sitemapper'] : ['sitemapper', 'politely'];
      for (const name of order) {
        const run = await runChild(name, base);
        runs[name].push(run);
        console.log(
          `  round ${round + 1}: ${name.padEnd(10)} ${formatInteger(run.urls)} URLs in ${formatFixed(run.wallMs / 1000, 2)} s ` +
            `(CPU ${formatFixed(run.cpuMs / 1000, 2)} s), peak RSS ${mib(run.peakRss)} MiB`,
        );
      }
    }
    report(runs, base);
  } finally {
    server.kill();
  }
}

function report(runs, base) {
  const summary = (name) => {
    const list = runs[name];
    return {
      urls: median(list.map((r) => r.urls)),
      wallMs: median(list.map((r) => r.wallMs)),
      cpuMs: median(list.map((r) => r.cpuMs)),
      peakRss: median(list.map((r) => r.peakRss)),
      peakAboveBaseline: median(list.map((r) => r.peakRss - r.baselineRss)),
      requests: median(list.map((r) => r.requests)),
    };
  };
  const politely = summary('politely');
  const sitemapper = summary('sitemapper');
  const ratio = (a, b) => a / b;
  const row = (label, s, inFlight) => [
    label,
    formatInteger(s.urls),
    `${formatFixed(s.wallMs / 1000, 2)} s`,
    `${formatFixed(s.cpuMs / 1000, 2)} s`,
    `${mib(s.peakRss)} MiB`,
    `${mib(s.peakAboveBaseline)} MiB`,
    inFlight,
  ];
  console.log(
    `\n${formatTable(
      ['contestant', 'URLs seen', 'wall time', 'CPU time', 'peak RSS', 'peak − baseline', 'files in flight'],
      [
        row('politely sitemaps()', politely, '1 (polite)'),
        row('sitemapper fetch()', sitemapper, 'up to 10'),
        [
          'politely ÷ sitemapper',
          `${formatFixed(ratio(politely.urls, sitemapper.urls), 2)}×`,
          `${formatFixed(ratio(politely.wallMs, sitemapper.wallMs), 2)}×`,
          `${formatFixed(ratio(politely.cpuMs, sitemapper.cpuMs), 2)}×`,
          `${formatFixed(ratio(politely.peakRss, sitemapper.peakRss), 2)}×`,
          `${formatFixed(ratio(politely.peakAboveBaseline, sitemapper.peakAboveBaseline), 2)}×`,
          '',
        ],
      ],
    )}`,
  );
  const versionOf = (name) => {
    const sitemapPackage = createRequire(import.meta.url).resolve('@politely/sitemap/package.json');
    return JSON.parse(readFileSync(createRequire(sitemapPackage).resolve(`${name}/package.json`), 'utf8')).version;
  };
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  const results = {
    benchmark: 'sitemap-seeding',
    date: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: `${os.platform()}/${os.arch()}`,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cpus: os.cpus().length,
      loadAverageAtEnd: os.loadavg(),
    },
    setup: {
      files: FILES,
      urlsPerFile: URLS_PER_FILE,
      rounds: ROUNDS,
      server: base,
      sitemapper: versionOf('sitemapper'),
    },
    politely,
    sitemapper,
    ratios: {
      urls: ratio(politely.urls, sitemapper.urls),
      wallTime: ratio(politely.wallMs, sitemapper.wallMs),
      cpuTime: ratio(politely.cpuMs, sitemapper.cpuMs),
      peakRss: ratio(politely.peakRss, sitemapper.peakRss),
      peakAboveBaseline: ratio(politely.peakAboveBaseline, sitemapper.peakAboveBaseline),
    },
    runs,
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten to ${RESULTS_FILE}`);
}

function runChild(name, base) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', SELF, name, base], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${name} run exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)));
    });
  });
}

function firstLine(stream) {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end !== -1) resolve(text.slice(0, end).trim());
    });
    stream.on('end', () => reject(new Error('the server process ended before listening')));
  });
}

function mib(bytes) {
  return formatFixed(bytes / 1024 / 1024, 0);
}
