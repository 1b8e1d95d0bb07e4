// Extraction, the crawler's hot path after the fetch: `scanHtml` (one streaming pass over a
// page's HTML, html-scan.ts) and `extractPage` (that pass, then links resolved, deduplicated and
// capped, meta robots, canonical, title), in µs per page, over the fleet's pages as a crawl gets
// them: 'realistic' pages (20–60 KB: a head of meta tags, inline styles and scripts, JSON-LD,
// menus, long sections, comments; 20–60 links) and 'small' ones (2–5 KB). Each op is one page,
// the next of the corpus in turn; the contestants take turns, as in harness.js, but timed in CPU
// time, and the figure is the median of the rounds. Run by `pnpm bench` (or, after `pnpm build`,
// `node --expose-gc extract.bench.js` here); writes a table to stdout and bench/results/extract.json.
//
// To compare a change of html-scan.ts with the code before it, in the same process and the same
// rounds (the fair way on a shared machine), build the old version, copy its
// packages/crawler/dist/extract/html-scan.js next to the new one under another name (it must
// resolve `htmlparser2` from there), build the new one and give the copy's path:
//   BENCH_EXTRACT_BASELINE=../packages/crawler/dist/extract/html-scan.before.js node --expose-gc extract.bench.js
//
// Environment: BENCH_EXTRACT_SAMPLE_MS (default 200), BENCH_EXTRACT_ROUNDS (default 15),
// BENCH_EXTRACT_PAGES (pages per profile, default 100).

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { startFleet } from '@politely/local-web';

import { extractPage } from '../packages/crawler/dist/extract/extract-links.js';
import { scanHtml } from '../packages/crawler/dist/extract/html-scan.js';
import { collectGarbage, consume, formatFixed, formatTable, median, nowNs, sinkValue } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'extract.json');
const SAMPLE_MS = Number(process.env.BENCH_EXTRACT_SAMPLE_MS ?? 200);
const ROUNDS = Number(process.env.BENCH_EXTRACT_ROUNDS ?? 15);
const WARMUP_ROUNDS = 3;
const PAGES = Number(process.env.BENCH_EXTRACT_PAGES ?? 100);
const BASELINE = process.env.BENCH_EXTRACT_BASELINE;
const OPTIONS = { productToken: 'PolitelyBench', xRobotsTag: [], maxLinks: 1000 };
const started = nowNs();

/** `count` pages of a one-host fleet of `profile`, fetched over loopback as a crawl would get them. */
async function fleetPages(profile, count, firstAddress) {
  const web = await startFleet({
    hosts: 1,
    pagesPerHost: count,
    pageProfile: profile,
    firstAddress,
    userAgent: 'PolitelyBench',
  });
  try {
    const host = web.hosts[0];
    const urls = ['/', ...host.expectedAllowedPaths].slice(0, count).map((path) => `${host.origin}${path}`);
    const pages = [];
    for (const url of urls) {
      const response = await fetch(url, { headers: { 'user-agent': 'PolitelyBench/1.0' } });
      if (response.ok) pages.push({ url, html: await response.text() });
    }
    return pages;
  } finally {
    await web.close();
  }
}

/** An op that takes the next page of `pages` in turn, so that every page counts alike. */
function eachPage(pages, fn) {
  let i = 0;
  return () => {
    const page = pages[i];
    i = i + 1 === pages.length ? 0 : i + 1;
    return fn(page);
  };
}

/** CPU microseconds (user + system) of this process so far. */
function cpuUs() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * harness.js's `compare`, timed in CPU time rather than wall time: the machine these benchmarks
 * run on is shared, and time spent descheduled is not the code's. Contestants alternate, the
 * order rotating; warm-up rounds set how many ops a sample holds (about `sampleMs` of CPU).
 */
function compareCpu(contestants, { rounds, warmupRounds, sampleMs }) {
  const opsPerSample = contestants.map(() => 1);
  for (let round = 0; round < warmupRounds; round++) {
    for (let k = 0; k < contestants.length; k++) {
      const index = (k + round) % contestants.length;
      collectGarbage();
      const start = cpuUs();
      let ops = 0;
      let spent = 0;
      do {
        consume(contestants[index].op());
        ops++;
        spent = cpuUs() - start;
      } while (spent < sampleMs * 1000);
      opsPerSample[index] = Math.max(1, Math.round((ops * sampleMs * 1000) / spent));
    }
  }
  const samples = contestants.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < contestants.length; k++) {
      const index = (k + round) % contestants.length;
      collectGarbage();
      const start = cpuUs();
      for (let i = 0; i < opsPerSample[index]; i++) consume(contestants[index].op());
      samples[index].push(((cpuUs() - start) * 1000) / opsPerSample[index]);
    }
  }
  return contestants.map((c, i) => ({
    name: c.name,
    medianNsPerOp: median(samples[i]),
    minNsPerOp: Math.min(...samples[i]),
    maxNsPerOp: Math.max(...samples[i]),
    samplesNsPerOp: samples[i],
  }));
}

const corpora = [
  { profile: 'realistic', pages: await fleetPages('realistic', PAGES, 231) },
  { profile: 'small', pages: await fleetPages('small', PAGES, 232) },
];
const baseline = BASELINE === undefined ? undefined : await import(pathToFileURL(resolve(HERE, BASELINE)).href);

console.log('extract benchmark — scanHtml and extractPage of @politely/crawler over fleet pages');
console.log(
  `node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} ×${os.cpus().length}, load ${os
    .loadavg()
    .map((l) => formatFixed(l, 2))
    .join(' ')}`,
);
console.log(
  `rounds: ${WARMUP_ROUNDS} warm-up + ${ROUNDS} measured, ~${SAMPLE_MS} ms per sample, contestants alternate; ` +
    `figures are medians of rounds${typeof globalThis.gc === 'function' ? '' : ' (no --expose-gc: GC not forced between samples)'}`,
);

const rows = [];
const results = {};
for (const { profile, pages } of corpora) {
  const bytes = pages.reduce((sum, page) => sum + page.html.length, 0) / pages.length;
  const links = pages.reduce((sum, page) => sum + scanHtml(page.html).hrefs.length, 0) / pages.length;
  if (baseline !== undefined) {
    // The baseline must find the same facts, page for page, or the comparison means nothing.
    for (const page of pages) {
      if (JSON.stringify(baseline.scanHtml(page.html)) !== JSON.stringify(scanHtml(page.html))) {
        throw new Error(`the baseline's scanHtml differs on ${page.url}`);
      }
    }
  }
  const contestants = [
    { name: 'scanHtml', op: eachPage(pages, (page) => scanHtml(page.html)) },
    ...(baseline === undefined
      ? []
      : [{ name: 'scanHtml (baseline)', op: eachPage(pages, (page) => baseline.scanHtml(page.html)) }]),
    { name: 'extractPage', op: eachPage(pages, (page) => extractPage(page.html, page.url, OPTIONS)) },
  ];
  console.log(
    `\n${profile}: ${pages.length} pages, ${formatFixed(bytes / 1024, 1)} K characters and ${formatFixed(links, 1)} links a page …`,
  );
  const measured = compareCpu(contestants, { rounds: ROUNDS, warmupRounds: WARMUP_ROUNDS, sampleMs: SAMPLE_MS });
  results[profile] = { pages: pages.length, meanCharacters: Math.round(bytes), meanLinks: links, contestants: {} };
  for (const r of measured) {
    const us = (ns) => ns / 1000;
    results[profile].contestants[r.name] = {
      medianUsPerPage: us(r.medianNsPerOp),
      minUsPerPage: us(r.minNsPerOp),
      maxUsPerPage: us(r.maxNsPerOp),
      megaCharactersPerSecond: bytes / r.medianNsPerOp / 1e-3,
      samples: r.samplesNsPerOp.length,
    };
    rows.push([
      profile,
      r.name,
      `${formatFixed(us(r.medianNsPerOp), 1)} µs`,
      `${formatFixed(us(r.minNsPerOp), 1)} µs`,
      `${formatFixed(us(r.maxNsPerOp), 1)} µs`,
      `${formatFixed(bytes / r.medianNsPerOp / 1e-3, 0)} M/s`,
    ]);
  }
  if (baseline !== undefined) {
    const c = results[profile].contestants;
    const ratio = c.scanHtml.medianUsPerPage / c['scanHtml (baseline)'].medianUsPerPage;
    results[profile].scanHtmlOverBaseline = ratio;
    console.log(`  scanHtml ÷ baseline: ${formatFixed(ratio, 3)}`);
  }
}
console.log(`\n${formatTable(['pages', 'function', 'median/page', 'min', 'max', 'characters/s'], rows)}`);

const out = {
  benchmark: 'extract',
  date: new Date().toISOString(),
  environment: {
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
    gcForced: typeof globalThis.gc === 'function',
    loadAverage: os.loadavg(),
  },
  method: {
    harness: 'bench/harness.js: calibrated samples, contestants alternate with rotating order, median of rounds',
    op: 'one page, the next of the corpus in turn',
    warmupRounds: WARMUP_ROUNDS,
    rounds: ROUNDS,
    sampleMs: SAMPLE_MS,
    extractOptions: OPTIONS,
    ...(BASELINE === undefined ? {} : { baseline: BASELINE }),
  },
  results,
  runtimeSeconds: (nowNs() - started) / 1e9,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${RESULTS_FILE} (${formatFixed(out.runtimeSeconds, 1)} s; sink ${sinkValue() > 0 ? 'ok' : '?'})`);
