// WARC serialisation (issue 19): politely's writer against Webrecorder's warcio (2.4.11), on real
// exchanges. A loopback fleet host serves 600 realistic pages (20–60 KB of HTML, gzip-encoded as
// real servers send them); core's HTTP client fetches each once with `capture`, so every input is
// a real exchange: the request head as sent, the response head and payload as received. Then
// both contestants turn each exchange into its two records (response + request, WARC/1.1,
// SHA-256 block and payload digests), compressed record by record as in a `.warc.gz`, in
// alternating rounds:
//   - politely: exchangeRecords() (crawler/src/archive/exchange-records.ts) + a gzip member each
//     (node:zlib), the path the crawler takes;
//   - warcio: WARCRecord.create({ httpHeaders, statusline }) for the response and the request,
//     WARCSerializer.serialize({ gzip: true, digest: sha-256 }), its documented way.
// Also checked, on one exchange whose head repeats a header between others (as real servers do
// with Set-Cookie): whether each output's response head is the head as received.
// Then what archiving costs a crawl: the same fleet host crawled (delay 0, 8 at once) with and
// without a `.warc.gz` output, alternating, CPU time and wall time per page.
// Prints a table and writes bench/results/warc-write.json.
//   node --expose-gc bench/warc-write.bench.js

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync, gzip as gzipCallback } from 'node:zlib';
import { createHttpClient } from '@politely/core';
import { createCrawler } from '@politely/crawler';
import { startFleet } from '@politely/local-web';
import { WARCRecord } from 'warcio';
import { WARCSerializer } from 'warcio/node';
import { exchangeRecords, payloadDigestOf } from '../packages/crawler/dist/archive/exchange-records.js';
import { median } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'warc-write.json');
const PAGES = 600;
const ROUNDS = 9;
const gzip = promisify(gzipCallback);

/** Every public page of a realistic fleet host, fetched once with its exchange captured. */
async function captureExchanges(web) {
  const client = createHttpClient();
  const host = web.hosts[0];
  const exchanges = [];
  for (const path of host.expectedAllowedPaths) {
    const url = host.origin + path;
    const response = await client.get({
      url,
      headers: { 'user-agent': 'BenchBot/1.0 (+http://example.invalid/bot)', accept: 'text/html' },
      timeoutMs: 10_000,
      bodyLimit: { maxBytes: 10 * 1024 * 1024, atLimit: 'fail' },
      capture: true,
    });
    exchanges.push({ url, exchange: response.exchange });
  }
  await client.close();
  return exchanges;
}

/** One crawl of the fleet host, with or without an archive: its CPU and wall time. */
async function crawlOnce(web, archive) {
  const dir = mkdtempSync(join(os.tmpdir(), 'politely-bench-warc-'));
  const crawler = createCrawler({
    userAgent: 'BenchBot/1.0 (+http://example.invalid/bot)',
    seeds: [`${web.hosts[0].origin}/`],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    concurrency: 8,
    perHostConcurrency: 8,
    ...(archive ? { outputs: [{ path: join(dir, 'crawl.warc.gz') }] } : {}),
    handler: () => {},
  });
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const stats = await crawler.run();
  const used = process.cpuUsage(cpu);
  rmSync(dir, { recursive: true, force: true });
  return { pages: stats.pages, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

async function politely({ url, exchange }) {
  const records = exchangeRecords(url, exchange, { kind: 'response' }, payloadDigestOf(exchange));
  const members = await Promise.all(
    [records.response.parts, records.request.parts].map((parts) => gzip(Buffer.concat(parts))),
  );
  return members[0].length + members[1].length;
}

const WARCIO_OPTIONS = { gzip: true, digest: { algo: 'sha-256', prefix: 'sha256:', base32: false } };

function warcioRecords({ url, exchange }) {
  const date = new Date(exchange.sentAt).toISOString();
  const response = WARCRecord.create(
    {
      url,
      date,
      type: 'response',
      warcVersion: 'WARC/1.1',
      keepHeadersCase: true,
      statusline: `HTTP/1.1 ${exchange.status} ${exchange.statusText}`,
      httpHeaders: exchange.rawHeaders.map(([name, value]) => [name, value]),
      warcHeaders: exchange.remoteAddress ? { 'WARC-IP-Address': exchange.remoteAddress } : {},
    },
    [exchange.payload],
  );
  const [requestLine, ...lines] = exchange.requestHead.replace(/\r\n\r\n$/, '').split('\r\n');
  const request = WARCRecord.create(
    {
      url,
      date,
      type: 'request',
      warcVersion: 'WARC/1.1',
      keepHeadersCase: true,
      statusline: requestLine,
      httpHeaders: lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
      warcHeaders: { 'WARC-Concurrent-To': response.warcHeader('WARC-Record-ID') },
    },
    [],
  );
  return [response, request];
}

async function warcio(input) {
  const [response, request] = warcioRecords(input);
  const bytes = await Promise.all([
    WARCSerializer.serialize(response, WARCIO_OPTIONS),
    WARCSerializer.serialize(request, WARCIO_OPTIONS),
  ]);
  return bytes[0].length + bytes[1].length;
}

/** Whether a contestant's response record carries the head exactly as received. */
async function keepsHeadAsReceived(contestant, input) {
  const head = `HTTP/1.1 ${input.exchange.status} ${input.exchange.statusText}\r\n${input.exchange.rawHeaders.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  let record;
  if (contestant === 'politely') {
    const records = exchangeRecords(input.url, input.exchange, { kind: 'response' }, payloadDigestOf(input.exchange));
    record = Buffer.concat(records.response.parts);
  } else {
    record = gunzipSync(await WARCSerializer.serialize(warcioRecords(input)[0], WARCIO_OPTIONS));
  }
  const block = record.subarray(record.indexOf('\r\n\r\n') + 4);
  return block.subarray(0, Buffer.byteLength(head, 'latin1')).toString('latin1') === head;
}

async function timeRound(contestant, inputs) {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let bytes = 0;
  for (const input of inputs) bytes += await contestant(input);
  const cpuUsed = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (cpuUsed.user + cpuUsed.system) / 1000, bytes };
}

const web = await startFleet({ hosts: 1, pagesPerHost: PAGES, pageProfile: 'realistic', gzip: true, firstAddress: 60 });
const inputs = await captureExchanges(web);
const payloadBytes = inputs.reduce((sum, { exchange }) => sum + exchange.payload.length, 0);
const contestants = { politely, warcio };
// One warm-up round each, then alternating rounds (the order rotates).
for (const contestant of Object.values(contestants)) await timeRound(contestant, inputs);
const samples = { politely: [], warcio: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ['politely', 'warcio'] : ['warcio', 'politely'];
  for (const name of order) samples[name].push(await timeRound(contestants[name], inputs));
}

const repeated = {
  url: inputs[0].url,
  exchange: {
    ...inputs[0].exchange,
    rawHeaders: [['Set-Cookie', 'a=1'], ...inputs[0].exchange.rawHeaders, ['Set-Cookie', 'b=2']],
  },
};
const summary = {};
for (const name of Object.keys(contestants)) {
  const ms = median(samples[name].map((sample) => sample.ms));
  const cpuMs = median(samples[name].map((sample) => sample.cpuMs));
  summary[name] = {
    msPerExchange: Math.round((ms / inputs.length) * 1000) / 1000,
    cpuMsPerExchange: Math.round((cpuMs / inputs.length) * 1000) / 1000,
    megabytesPerSecond: Math.round(payloadBytes / 1e6 / (ms / 1000)),
    warcBytes: samples[name][0].bytes,
    headAsReceived: await keepsHeadAsReceived(name, repeated),
  };
}
const ratios = {
  timeWarcioOverPolitely: Math.round((summary.warcio.msPerExchange / summary.politely.msPerExchange) * 100) / 100,
  cpuWarcioOverPolitely: Math.round((summary.warcio.cpuMsPerExchange / summary.politely.cpuMsPerExchange) * 100) / 100,
};

// What archiving costs a crawl: alternating crawls of the same host, with and without.
const crawls = { plain: [], archived: [] };
await crawlOnce(web, false);
for (let round = 0; round < 5; round++) {
  for (const archived of round % 2 === 0 ? [false, true] : [true, false])
    crawls[archived ? 'archived' : 'plain'].push(await crawlOnce(web, archived));
}
await web.close();
const perPage = (runs, key) => Math.round(median(runs.map((run) => run[key] / run.pages)) * 1000) / 1000;
const crawlCost = {
  pages: crawls.plain[0].pages,
  plain: { msPerPage: perPage(crawls.plain, 'ms'), cpuMsPerPage: perPage(crawls.plain, 'cpuMs') },
  archived: { msPerPage: perPage(crawls.archived, 'ms'), cpuMsPerPage: perPage(crawls.archived, 'cpuMs') },
};
crawlCost.cpuRatio = Math.round((crawlCost.archived.cpuMsPerPage / crawlCost.plain.cpuMsPerPage) * 100) / 100;
crawlCost.wallRatio = Math.round((crawlCost.archived.msPerPage / crawlCost.plain.msPerPage) * 100) / 100;

console.log(
  `WARC serialisation of ${inputs.length} real exchanges (realistic pages, gzip on the wire, ${Math.round(payloadBytes / inputs.length / 1024)} KB payload on average), median of ${ROUNDS} rounds`,
);
console.log('contestant   ms/exchange   CPU ms/exchange   MB/s payload   .warc.gz bytes   head as received');
for (const [name, row] of Object.entries(summary)) {
  console.log(
    `${name.padEnd(12)} ${String(row.msPerExchange).padStart(11)}   ${String(row.cpuMsPerExchange).padStart(15)}   ${String(row.megabytesPerSecond).padStart(12)}   ${String(row.warcBytes).padStart(14)}   ${row.headAsReceived ? 'yes' : 'no (repeated fields regrouped)'}`,
  );
}
console.log(`warcio takes ${ratios.timeWarcioOverPolitely}× politely's time, ${ratios.cpuWarcioOverPolitely}× its CPU`);
console.log(
  `a crawl of ${crawlCost.pages} pages (median of 5 each): ${crawlCost.plain.cpuMsPerPage} CPU ms/page without an archive, ${crawlCost.archived.cpuMsPerPage} with one (${crawlCost.cpuRatio}×); wall ${crawlCost.plain.msPerPage} → ${crawlCost.archived.msPerPage} ms/page (${crawlCost.wallRatio}×)`,
);

mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(
  RESULTS_FILE,
  `${JSON.stringify({ date: new Date().toISOString(), machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, exchanges: inputs.length, payloadBytes, rounds: ROUNDS, summary, ratios, crawlCost, loadAverage: os.loadavg() }, null, 2)}\n`,
);
