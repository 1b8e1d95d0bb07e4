// What Web Bot Auth signing costs (issue 33): CPU per request, signed and unsigned.
//
// 1. A crawl of realistic pages (20–60 KB of HTML, gzip on the wire) over loopback, served by the
//    harness's fleet server in its own process (bench/crawler-fleet-server.js), so that this
//    process's CPU time is the crawler's alone. The same crawl without `signing` and with it
//    (`sign: 'always'`: every request signed, robots.txt included), taking turns round after
//    round so that noise hits both alike; medians of CPU µs and wall ms per request, and the
//    ratio signed / unsigned.
// 2. One signature alone (`createRequestSigner(…).sign(url)`: a fresh nonce, the signature base,
//    Ed25519 from node:crypto), in ns per signature, by the harness's alternating rounds.
//
//   node --expose-gc bench/signing.bench.js          (~1 min at the default size)
//
// Environment: BENCH_SIGNING_HOSTS × BENCH_SIGNING_PAGES (default 4 × 150 pages),
// BENCH_SIGNING_ROUNDS (default 5). Prints a table and writes bench/results/signing.json.

import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequestSigner } from '@politely/core';
import { createCrawler } from '@politely/crawler';
import { collectGarbage, compare, formatFixed, formatInteger, formatTable, median } from './harness.js';
import { frontPages, startFleetServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'signing.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const HOSTS = Number(process.env.BENCH_SIGNING_HOSTS ?? 4);
const PAGES = Number(process.env.BENCH_SIGNING_PAGES ?? 150);
const ROUNDS = Number(process.env.BENCH_SIGNING_ROUNDS ?? 5);
const AGENT = 'https://bot.example';

/** A fresh Ed25519 private JWK, made with node:crypto (not the code under measure). */
function privateJwk() {
  return generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
}

/** One crawl of the fleet, signed or not: this process's CPU time and the wall time, per request. */
async function crawlOnce(seeds, key) {
  const crawler = createCrawler({
    userAgent: USER_AGENT,
    allowNet: ['127.0.0.0/8'],
    seeds,
    minDelayMs: 0,
    concurrency: 16,
    perHostConcurrency: 4,
    handler: () => {},
    ...(key === undefined ? {} : { signing: { key, signatureAgent: AGENT } }),
  });
  collectGarbage();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const stats = await crawler.run();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (key !== undefined && stats.signedRequests !== stats.requests)
    throw new Error(`signed ${stats.signedRequests} of ${stats.requests} requests`);
  return { requests: stats.requests, pages: stats.pages, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

async function crawlCost(key) {
  const server = await startFleetServer([
    { hosts: HOSTS, pagesPerHost: PAGES, pageProfile: 'realistic', gzip: true, firstAddress: 70 },
  ]);
  const seeds = frontPages(server.fleets[0]);
  const variants = [
    { name: 'unsigned', key: undefined },
    { name: 'signed', key },
  ];
  const samples = new Map(variants.map((v) => [v.name, []]));
  try {
    for (const variant of variants) await crawlOnce(seeds, variant.key); // warm-up, thrown away
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) samples.get(variant.name).push(await crawlOnce(seeds, variant.key));
    }
  } finally {
    await server.close();
  }
  return variants.map(({ name }) => {
    const runs = samples.get(name);
    const cpuUs = runs.map((r) => (r.cpuMs * 1000) / r.requests);
    return {
      name,
      requests: runs[0].requests,
      pages: runs[0].pages,
      cpuUsPerRequest: median(cpuUs),
      cpuUsPerRequestMin: Math.min(...cpuUs),
      cpuUsPerRequestMax: Math.max(...cpuUs),
      wallMsPerRequest: median(runs.map((r) => r.wallMs / r.requests)),
      runs,
    };
  });
}

function signatureCost(key) {
  const signer = createRequestSigner({ key, signatureAgent: AGENT });
  let i = 0;
  const [result] = compare([{ name: 'sign one request', op: () => signer.sign(`https://example.com/p/${i++}`) }]);
  return result;
}

const key = privateJwk();
const crawl = await crawlCost(key);
const signature = signatureCost(key);
const [unsigned, signed] = crawl;
const ratio = signed.cpuUsPerRequest / unsigned.cpuUsPerRequest;

console.log(
  `Signing's cost: ${HOSTS} loopback hosts × ${PAGES} realistic pages (20–60 KB, gzip), ${ROUNDS} rounds each; medians; CPU of the crawler's process only (the fleet runs in its own)\n`,
);
console.log(
  formatTable(
    ['variant', 'requests', 'CPU µs/request', 'CPU min–max', 'wall ms/request', 'CPU ratio'],
    crawl.map((r) => [
      r.name,
      String(r.requests),
      formatFixed(r.cpuUsPerRequest, 1),
      `${formatFixed(r.cpuUsPerRequestMin, 0)}–${formatFixed(r.cpuUsPerRequestMax, 0)}`,
      formatFixed(r.wallMsPerRequest, 3),
      r === unsigned ? '1.00×' : `${formatFixed(ratio, 2)}×`,
    ]),
  ),
);
console.log(
  `\nSigned minus unsigned: ${formatFixed(signed.cpuUsPerRequest - unsigned.cpuUsPerRequest, 1)} µs CPU per request (a difference within the runs' spread is noise).`,
);
console.log(
  `One signature alone (nonce, base, Ed25519): ${formatInteger(signature.medianNsPerOp)} ns (min ${formatInteger(signature.minNsPerOp)}, max ${formatInteger(signature.maxNsPerOp)}).`,
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
      crawl,
      cpuRatioSignedOverUnsigned: Math.round(ratio * 100) / 100,
      signature: {
        medianNsPerSignature: signature.medianNsPerOp,
        minNsPerSignature: signature.minNsPerOp,
        maxNsPerSignature: signature.maxNsPerOp,
      },
    },
    null,
    2,
  )}\n`,
);
