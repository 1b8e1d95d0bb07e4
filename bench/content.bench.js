// Main-content extraction, quality and cost, on the ScrapingHub article-extraction benchmark
// (fixtures/article-extraction: 181 real article pages and their hand-checked bodies):
// @politely/content's `extractContent` (its `text`) beside Readability.js 0.6 on linkedom (the
// article's `textContent`, as the benchmark's own readability_js extractor feeds its metric),
// in one process. Quality is the benchmark's metric (content-metric.js: shingle precision,
// recall and F1); cost is CPU time (process.cpuUsage, user + system) around each extraction only,
// from the HTML string to the text.
//
// A warm-up pass over every page records each contestant's texts (scored) and lets the JIT
// settle; then each round runs every contestant over all pages in turn, the order rotating from
// round to round, with a full GC before each (--expose-gc). The CPU figure is the median of the
// rounds' mean CPU per page. Ratios are reported, never asserted. A contestant that cannot be
// imported is reported as missing; a page on which one throws scores as an empty text.
//
// Run by `pnpm bench` (or, after `pnpm build`, `node --expose-gc content.bench.js` here); writes
// a table to stdout and bench/results/content.json.
//
// Environment: BENCH_CONTENT_ROUNDS (measured rounds, default 5; 1 for a quick look),
// BENCH_CONTENT_PAGES (the first N pages by id, default all), BENCH_CONTENT_MODULE (the module
// whose `extractContent` is measured, a specifier or a path from here; default @politely/content),
// BENCH_CONTENT_RESULTS (the results file, a path from results/; default content.json),
// BENCH_CONTENT_PREDICTIONS (a folder: each contestant's scored texts are written there as
// <name>.json in the benchmark's output format, for its own evaluate.py to score).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

import { loadArticleCorpus } from './article-corpus.js';
import { precisionOf, recallOf, scoreExtraction } from './content-metric.js';
import {
  collectGarbage,
  consume,
  formatFixed,
  formatTable,
  machineEnvironment,
  median,
  nowNs,
  sinkValue,
} from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = resolve(HERE, 'results', process.env.BENCH_CONTENT_RESULTS || 'content.json');
const ROUNDS = positiveInteger('BENCH_CONTENT_ROUNDS', 5);
const PAGES = positiveInteger('BENCH_CONTENT_PAGES', Number.POSITIVE_INFINITY);
const MODULE = process.env.BENCH_CONTENT_MODULE || '@politely/content';
const PREDICTIONS_DIR = process.env.BENCH_CONTENT_PREDICTIONS || undefined;
const require = createRequire(import.meta.url);
const started = nowNs();

function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function versionOf(name) {
  try {
    return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** CPU microseconds (user + system) of this process so far. */
function cpuUs() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** Readability.js on linkedom: the article's textContent, '' when it finds no article. */
function readabilityText(page) {
  const { document } = parseHTML(page.html);
  const article = new Readability(document).parse();
  return article?.textContent ?? '';
}

/** @politely/content's extractor, or why it is missing (not built yet, or fails to load). */
async function politelyContestant() {
  const specifier = /^\.{0,2}\//.test(MODULE) ? pathToFileURL(resolve(HERE, MODULE)).href : MODULE;
  try {
    const content = await import(specifier);
    if (typeof content.extractContent !== 'function') return { missing: `${MODULE} has no extractContent export` };
    return {
      version: MODULE === '@politely/content' ? versionOf(MODULE) : MODULE,
      extract: (page) => {
        const { text } = content.extractContent(page.html, { url: page.url, contentType: 'text/html; charset=utf-8' });
        return typeof text === 'string' ? text : '';
      },
    };
  } catch (error) {
    return { missing: `cannot import ${MODULE} (${error?.code ?? error?.name ?? 'error'})` };
  }
}

/**
 * One pass of `extract` over `pages`: the texts (null where it threw), the CPU µs of each page,
 * and how many pages threw (the first one named by its error's name and code only).
 */
function pass(extract, pages) {
  const texts = [];
  const cpu = [];
  let failures = 0;
  let firstError;
  for (const page of pages) {
    const start = cpuUs();
    let text;
    try {
      text = extract(page);
    } catch (error) {
      text = null;
      failures++;
      firstError ??= `${error?.name ?? 'Error'}${error?.code ? ` ${error.code}` : ''} on page ${page.id}`;
    }
    cpu.push(cpuUs() - start);
    consume(text);
    texts.push(text);
  }
  return { texts, cpu, failures, firstError };
}

/** The texts as the benchmark's output/*.json has them: { version, output: id → { articleBody } }. */
function writePredictions(contestant, predictions) {
  const output = Object.fromEntries(Object.entries(predictions).map(([id, text]) => [id, { articleBody: text ?? '' }]));
  const file = join(PREDICTIONS_DIR, `${contestant.name.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '')}.json`);
  mkdirSync(PREDICTIONS_DIR, { recursive: true });
  writeFileSync(file, JSON.stringify({ version: contestant.version, output }));
}

const pages = loadArticleCorpus().slice(0, PAGES);
const truths = Object.fromEntries(pages.map((page) => [page.id, page.truth]));
const meanKb = pages.reduce((sum, page) => sum + Buffer.byteLength(page.html), 0) / pages.length / 1024;

const politely = await politelyContestant();
const contestants = [
  {
    name: 'Readability.js + linkedom',
    version: `@mozilla/readability ${versionOf('@mozilla/readability')}, linkedom ${versionOf('linkedom')}`,
    extract: readabilityText,
  },
  ...(politely.missing === undefined
    ? [{ name: '@politely/content', version: politely.version, extract: politely.extract }]
    : []),
];

const env = machineEnvironment();
console.log('content benchmark: main-content extraction on the article-extraction benchmark');
console.log(
  `node ${env.node}, ${env.cpu} ×${env.cpus}, load ${env.loadAverage.map((l) => formatFixed(l, 2)).join(' ')}`,
);
console.log(
  `${pages.length} pages (${formatFixed(meanKb, 1)} KB of HTML a page); 1 warm-up pass + ${ROUNDS} measured rounds, ` +
    `contestants alternate; CPU is the median of rounds${typeof globalThis.gc === 'function' ? '' : ' (no --expose-gc: GC not forced between passes)'}`,
);

/** Contestant name → why it is not measured. */
const missing = politely.missing === undefined ? {} : { '@politely/content': politely.missing };
// The warm-up pass gives the texts that are scored; a contestant that throws on every page is missing.
const measured = contestants
  .map((c) => {
    collectGarbage();
    const warm = pass(c.extract, pages);
    const predictions = Object.fromEntries(pages.map((page, i) => [page.id, warm.texts[i]]));
    const score = scoreExtraction(truths, predictions);
    if (PREDICTIONS_DIR !== undefined) writePredictions(c, predictions);
    return { ...c, score, failures: warm.failures, firstError: warm.firstError, rounds: [], pageCpu: [] };
  })
  .filter((c) => {
    if (c.failures < pages.length) return true;
    missing[c.name] = `threw on every page (first: ${c.firstError})`;
    return false;
  });
for (const [name, why] of Object.entries(missing)) console.log(`${name}: missing — ${why}`);
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < measured.length; k++) {
    const c = measured[(k + round) % measured.length];
    collectGarbage();
    const { cpu } = pass(c.extract, pages);
    c.rounds.push(cpu.reduce((sum, us) => sum + us, 0) / pages.length / 1000);
    c.pageCpu.push(cpu);
  }
}

const results = {};
for (const c of measured) {
  const perPageMs = pages.map((_, i) => median(c.pageCpu.map((round) => round[i])) / 1000);
  results[c.name] = {
    version: c.version,
    f1: c.score.f1,
    precision: c.score.precision,
    recall: c.score.recall,
    accuracy: c.score.accuracy,
    failures: c.failures,
    cpuMsPerPage: {
      median: median(c.rounds),
      min: Math.min(...c.rounds),
      max: Math.max(...c.rounds),
      rounds: c.rounds,
    },
    pages: Object.fromEntries(
      c.score.pages.map((page, i) => [
        page.id,
        { precision: round4(precisionOf(page)), recall: round4(recallOf(page)), cpuMs: round4(perPageMs[i]) },
      ]),
    ),
  };
}
function round4(x) {
  return Math.round(x * 1e4) / 1e4;
}

const readability = results['Readability.js + linkedom'];
const ours = results['@politely/content'];
const ratios =
  ours === undefined || readability === undefined
    ? null
    : {
        cpuPolitelyOverReadability: ours.cpuMsPerPage.median / readability.cpuMsPerPage.median,
        f1PolitelyMinusReadability: ours.f1 - readability.f1,
      };

const rows = measured.map((c) => {
  const r = results[c.name];
  return [
    c.name,
    formatFixed(r.f1, 3),
    formatFixed(r.precision, 3),
    formatFixed(r.recall, 3),
    formatFixed(r.accuracy, 3),
    `${formatFixed(r.cpuMsPerPage.median, 2)} ms`,
    `${formatFixed(r.cpuMsPerPage.min, 2)}–${formatFixed(r.cpuMsPerPage.max, 2)}`,
    String(r.failures),
  ];
});
for (const name of Object.keys(missing)) rows.push([name, 'missing', '', '', '', '', '', '']);
console.log(
  `\n${formatTable(['extractor', 'F1', 'precision', 'recall', 'accuracy', 'CPU/page', 'range', 'failed'], rows)}`,
);
if (ratios !== null) {
  console.log(
    `\n@politely/content ÷ Readability.js, CPU per page: ${formatFixed(ratios.cpuPolitelyOverReadability, 3)}×; ` +
      `F1 ${ratios.f1PolitelyMinusReadability >= 0 ? '+' : ''}${formatFixed(ratios.f1PolitelyMinusReadability, 3)}`,
  );
}

const out = {
  benchmark: 'content',
  date: new Date().toISOString(),
  environment: { ...env, gcForced: typeof globalThis.gc === 'function' },
  corpus: {
    name: 'scrapinghub/article-extraction-benchmark',
    pages: pages.length,
    meanHtmlKb: meanKb,
  },
  method: {
    metric:
      'bench/content-metric.js (evaluate.py: 4-token shingles, per-page normalised, mean P and R, F1 of the means)',
    texts: 'from the warm-up pass; Readability: article.textContent; politely: extractContent(html, { url }).text',
    cpu: 'process.cpuUsage (user + system) around each extraction; median over rounds of the mean per page',
    rounds: ROUNDS,
  },
  results,
  missing,
  ratios,
  runtimeSeconds: (nowNs() - started) / 1e9,
};
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${RESULTS_FILE} (${formatFixed(out.runtimeSeconds, 1)} s; sink ${sinkValue() > 0 ? 'ok' : '?'})`);
