// The robots.txt engine of politely against the `robots-parser` npm package, on identical work,
// in one process, the contestants taking turns (see harness.js). Run by `pnpm bench`; writes a
// table to stdout and bench/results/robots-engine.json.
//
//   1. parse a ~500 KiB robots.txt shaped like a large retailer's;
//   2. check ~1,000 realistic URLs against a realistic ~40-rule robots.txt;
//      (also politely with URL objects, and a breakdown of a politely check);
//   3. a ReDoS-shaped pattern against a 2,000-character URL.
//
// Environment: BENCH_ROBOTS_SAMPLE_MS (default 200) and BENCH_ROBOTS_ROUNDS (default 15) trade time
// for noise.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseRobotsTxt } from '@politely/core';
import { matchPathOf } from '@politely/core/internal';

import { collectGarbage, compare, formatFixed, formatInteger, formatTable, nowNs, sinkValue } from './harness.js';
import {
  generateBigRobotsTxt,
  generateUrls,
  PATHOLOGICAL_ROBOTS_TXT,
  pathologicalUrl,
  ROBOTS_URL,
  SMALL_ROBOTS_TXT,
  USER_AGENT,
} from './robots-fixtures.js';

const require = createRequire(import.meta.url);
const robotsParser = require('robots-parser');

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'robots-engine.json');
const SAMPLE_MS = Number(process.env.BENCH_ROBOTS_SAMPLE_MS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROBOTS_ROUNDS ?? 15);
const WARMUP_ROUNDS = 3;
const AIM_CHECKS_RATIO = 5;
const AIM_PARSE_RATIO = 1;

const versionOf = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const started = nowNs();
const cpuAtStart = process.cpuUsage();

// ---------------------------------------------------------------------------------------------
// Inputs

const bigRobotsTxt = generateBigRobotsTxt();
const bigRobotsBytes = new TextEncoder().encode(bigRobotsTxt);
const urls = generateUrls({ count: 1000 });
const urlObjects = urls.map((u) => new URL(u));
const longUrl = pathologicalUrl(2000);

const bigPolitely = parseRobotsTxt(bigRobotsTxt);
const bigRuleCount = bigPolitely.groups.reduce((sum, g) => sum + g.rules.length, 0);
if (bigPolitely.truncated) throw new Error("the big robots.txt must fit in politely's 500 KiB limit");

const smallPolitely = parseRobotsTxt(SMALL_ROBOTS_TXT);
const smallRobotsParser = robotsParser(ROBOTS_URL, SMALL_ROBOTS_TXT);
const smallRuleCount = smallPolitely.groups.reduce((sum, g) => sum + g.rules.length, 0);

console.log(
  `robots-engine benchmark — politely ${versionOf('@politely/core')} vs robots-parser ${versionOf('robots-parser')}`,
);
console.log(
  `node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} ×${os.cpus().length}, ${os.platform()}/${os.arch()}`,
);
console.log(
  `rounds: ${WARMUP_ROUNDS} warm-up + ${ROUNDS} measured, ~${SAMPLE_MS} ms per sample, contestants alternate; ` +
    `figures are medians of rounds${typeof globalThis.gc === 'function' ? '' : ' (no --expose-gc: GC not forced between samples)'}`,
);
console.log(
  `inputs: big robots.txt ${formatInteger(bigRobotsTxt.length)} bytes, ${formatInteger(bigRobotsTxt.split('\n').length)} lines, ` +
    `${bigPolitely.groups.length} groups, ${formatInteger(bigRuleCount)} rules, ${bigPolitely.sitemaps.length} sitemaps; ` +
    `small robots.txt ${smallRuleCount} rules; ${urls.length} URLs; user agent "${USER_AGENT}"`,
);

// ---------------------------------------------------------------------------------------------
// 1. Parse

console.log('\n[1/3] parse the big robots.txt …');
const parseResults = compare(
  [
    { name: 'politely', op: () => parseRobotsTxt(bigRobotsTxt) },
    { name: 'robots-parser', op: () => robotsParser(ROBOTS_URL, bigRobotsTxt) },
    { name: 'politely (Uint8Array input)', op: () => parseRobotsTxt(bigRobotsBytes) },
  ],
  { rounds: ROUNDS, warmupRounds: WARMUP_ROUNDS, sampleMs: SAMPLE_MS },
);
// politely compiles a group's rules on the first check for an agent; robots-parser has nothing
// left to do. Parse + one check shows the whole cost of a freshly fetched file.
const firstCheckUrl = urls[0];
const parseAndCheckResults = compare(
  [
    { name: 'politely', op: () => parseRobotsTxt(bigRobotsTxt).isAllowed(firstCheckUrl, USER_AGENT) },
    { name: 'robots-parser', op: () => robotsParser(ROBOTS_URL, bigRobotsTxt).isAllowed(firstCheckUrl, USER_AGENT) },
  ],
  { rounds: Math.max(5, Math.round(ROUNDS * 0.6)), warmupRounds: 2, sampleMs: SAMPLE_MS * 0.75 },
);

// ---------------------------------------------------------------------------------------------
// 2. Checks

console.log('[2/3] check 1,000 URLs …');
function checkAll(robots, list) {
  let allowed = 0;
  for (let i = 0; i < list.length; i++) if (robots.isAllowed(list[i], USER_AGENT)) allowed++;
  return allowed;
}
// Also, where a politely check spends its time: the URL side (matchPathOf, public, URL → the
// path and query compared); the rest of isAllowed is the rule-set lookup and the rule matching.
// Measured in the same rounds.
const checkResults = compare(
  [
    { name: 'politely', op: () => checkAll(smallPolitely, urls) },
    { name: 'robots-parser', op: () => checkAll(smallRobotsParser, urls) },
    { name: 'politely (URL objects)', op: () => checkAll(smallPolitely, urlObjects) },
    {
      name: 'matchPathOf (URL → path)',
      op: () => {
        let n = 0;
        for (let i = 0; i < urls.length; i++) n += matchPathOf(urls[i]).length;
        return n;
      },
    },
  ],
  { rounds: ROUNDS, warmupRounds: WARMUP_ROUNDS, sampleMs: SAMPLE_MS },
);

// ---------------------------------------------------------------------------------------------
// Verdicts: same answer wherever the two engines' semantics agree.

function decodeUnreservedEscapes(s) {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : encoded;
  });
}

const smallLines = SMALL_ROBOTS_TXT.split(/\r\n|\r|\n/);
function reasonForDifference(url, explanation) {
  const rule = explanation.rule;
  if (explanation.basis === 'robots-txt') {
    return 'RFC 9309 2.2.2: /robots.txt is implicitly allowed (politely); robots-parser applies `Disallow: /*.txt$`';
  }
  if (/\?(?:#|$)/.test(url)) {
    return 'empty query: politely compares the request target "/search?"; robots-parser uses URL.search, which drops a lone "?"';
  }
  if (rule && rule.type === 'allow' && /\/index\.htm/.test(rule.value) && explanation.path.endsWith('/')) {
    return `Google's rule: "${rule.text}" also allows the directory itself (politely); robots-parser does not`;
  }
  if (rule && decodeUnreservedEscapes(rule.pattern) !== rule.value) {
    return `"${rule.text}": %xx of an unreserved character ≡ the character (RFC 3986 6.2.2.2); politely normalises, robots-parser compares raw`;
  }
  if (decodeUnreservedEscapes(url) !== url) {
    return 'the URL has %xx of an unreserved character; politely decodes it (RFC 3986 6.2.2.2), robots-parser does not';
  }
  return null;
}

const differences = [];
let politelyAllowed = 0;
for (const url of urls) {
  const ours = smallPolitely.isAllowed(url, USER_AGENT);
  const theirs = smallRobotsParser.isAllowed(url, USER_AGENT);
  if (ours) politelyAllowed++;
  if (ours !== smallPolitely.isAllowed(new URL(url), USER_AGENT))
    throw new Error(`politely: string and URL verdicts differ for ${url}`);
  if (ours === theirs) continue;
  const explanation = smallPolitely.explain(url, USER_AGENT);
  const theirLine = smallRobotsParser.getMatchingLineNumber(url, USER_AGENT);
  differences.push({
    url,
    politely: ours ? 'allow' : 'disallow',
    robotsParser: theirs === undefined ? 'undefined' : theirs ? 'allow' : 'disallow',
    politelyLine: explanation.rule ? `${explanation.rule.line}: ${explanation.rule.text}` : explanation.basis,
    robotsParserLine: theirLine > 0 ? `${theirLine}: ${smallLines[theirLine - 1]}` : 'no matching rule',
    reason: reasonForDifference(url, explanation),
  });
}
const unexplained = differences.filter((d) => d.reason === null);

// ---------------------------------------------------------------------------------------------
// 3. The ReDoS-shaped pattern

console.log('[3/3] pathological pattern …');
const pathologicalPolitely = parseRobotsTxt(PATHOLOGICAL_ROBOTS_TXT);
const pathologicalRobotsParser = robotsParser(ROBOTS_URL, PATHOLOGICAL_ROBOTS_TXT);
const pathologicalVerdicts = {
  politely: pathologicalPolitely.isAllowed(longUrl, USER_AGENT),
  robotsParser: pathologicalRobotsParser.isAllowed(longUrl, USER_AGENT),
};
const pathologicalResults = compare(
  [
    { name: 'politely', op: () => pathologicalPolitely.isAllowed(longUrl, USER_AGENT) },
    { name: 'robots-parser', op: () => pathologicalRobotsParser.isAllowed(longUrl, USER_AGENT) },
  ],
  { rounds: 7, warmupRounds: 2, sampleMs: SAMPLE_MS * 0.5 },
);

// ---------------------------------------------------------------------------------------------
// Report

const byName = (results, name) => results.find((r) => r.name === name);
const spread = (r, scale, digits) =>
  `${formatFixed(r.minNsPerOp / scale, digits)}–${formatFixed(r.maxNsPerOp / scale, digits)}`;

const parseOurs = byName(parseResults, 'politely');
const parseTheirs = byName(parseResults, 'robots-parser');
const parseBytes = byName(parseResults, 'politely (Uint8Array input)');
const parseRatio = parseTheirs.medianNsPerOp / parseOurs.medianNsPerOp;
const firstOurs = byName(parseAndCheckResults, 'politely');
const firstTheirs = byName(parseAndCheckResults, 'robots-parser');
const firstRatio = firstTheirs.medianNsPerOp / firstOurs.medianNsPerOp;

const checksPerSecond = (r) => (urls.length * 1e9) / r.medianNsPerOp;
const checkOurs = byName(checkResults, 'politely');
const checkTheirs = byName(checkResults, 'robots-parser');
const checkUrlObjects = byName(checkResults, 'politely (URL objects)');
const checksRatio = checksPerSecond(checkOurs) / checksPerSecond(checkTheirs);
const urlObjectsRatio = checksPerSecond(checkUrlObjects) / checksPerSecond(checkTheirs);

const perCheckNs = (r) => r.medianNsPerOp / urls.length;
const wholeCheck = checkOurs;
const urlSide = byName(checkResults, 'matchPathOf (URL → path)');
const ruleSideNs = Math.max(0, perCheckNs(wholeCheck) - perCheckNs(urlSide));

const pathOurs = byName(pathologicalResults, 'politely');
const pathTheirs = byName(pathologicalResults, 'robots-parser');

console.log('\n1. Parse a big robots.txt (same string for both)');
console.log(
  formatTable(
    ['contestant', 'ms / parse (median)', 'min–max ms', 'MiB/s'],
    [
      [parseOurs, parseTheirs, parseBytes].map((r) => [
        r.name,
        formatFixed(r.medianNsPerOp / 1e6, 2),
        spread(r, 1e6, 2),
        formatFixed(bigRobotsTxt.length / 1048576 / (r.medianNsPerOp / 1e9), 1),
      ]),
      [firstOurs, firstTheirs].map((r) => [
        `${r.name}: parse + first check`,
        formatFixed(r.medianNsPerOp / 1e6, 2),
        spread(r, 1e6, 2),
        '',
      ]),
    ].flat(),
  ),
);
console.log(
  `ratio robots-parser / politely: parse ${formatFixed(parseRatio, 2)}×, parse + first check ${formatFixed(firstRatio, 2)}× (≥ 1: politely no slower)`,
);

console.log(`\n2. Check ${urls.length} URLs against a ${smallRuleCount}-rule robots.txt`);
console.log(
  formatTable(
    ['contestant', 'checks/s (median)', 'ns / check', 'min–max ns / check', '× robots-parser'],
    [checkOurs, checkTheirs, checkUrlObjects].map((r) => [
      r.name,
      formatInteger(checksPerSecond(r)),
      formatFixed(perCheckNs(r), 0),
      `${formatFixed(r.minNsPerOp / urls.length, 0)}–${formatFixed(r.maxNsPerOp / urls.length, 0)}`,
      `${formatFixed(checksPerSecond(r) / checksPerSecond(checkTheirs), 2)}×`,
    ]),
  ),
);
console.log(
  `ratio politely / robots-parser: ${formatFixed(checksRatio, 2)}× (URL objects: ${formatFixed(urlObjectsRatio, 2)}×)`,
);
console.log(`\n   where a politely check spends its time (ns per check, medians)`);
console.log(
  formatTable(
    ['part', 'ns / check', 'share'],
    [
      ['isAllowed, whole check', formatFixed(perCheckNs(wholeCheck), 0), '100%'],
      [
        'matchPathOf: URL → path',
        formatFixed(perCheckNs(urlSide), 0),
        `${formatFixed((100 * perCheckNs(urlSide)) / perCheckNs(wholeCheck), 0)}%`,
      ],
      [
        'the rest: rule-set lookup + rule matching',
        formatFixed(ruleSideNs, 0),
        `${formatFixed((100 * ruleSideNs) / perCheckNs(wholeCheck), 0)}%`,
      ],
    ],
  ),
);

console.log(
  `\n   verdicts: ${urls.length - differences.length} of ${urls.length} agree; ${differences.length} differ ` +
    `(${differences.length - unexplained.length} on known edge cases, ${unexplained.length} unexplained); politely allows ${politelyAllowed}, disallows ${urls.length - politelyAllowed}`,
);
console.log(
  unexplained.length === 0
    ? '   verified: same verdict on every URL outside the known edge cases'
    : `   WARNING: ${unexplained.length} difference(s) without a known reason — see the JSON file`,
);
for (const d of differences.slice(0, 5)) {
  console.log(
    `   - ${d.url.replace(/^https?:\/\/[^/]+/, '')}: politely ${d.politely} (${d.politelyLine}), robots-parser ${d.robotsParser} (${d.robotsParserLine})`,
  );
  console.log(`     ${d.reason ?? 'reason unknown'}`);
}
if (differences.length > 5) console.log(`   … and ${differences.length - 5} more in the JSON file`);

console.log(`\n3. Pathological pattern "/*a*a*a*a*a*a*a*a*a*a*b" against a ${longUrl.length}-character URL`);
console.log(
  formatTable(
    ['contestant', 'µs / check (median)', 'min–max µs', 'verdict'],
    [
      [
        pathOurs.name,
        formatFixed(pathOurs.medianNsPerOp / 1e3, 2),
        spread(pathOurs, 1e3, 2),
        pathologicalVerdicts.politely ? 'allow' : 'disallow',
      ],
      [
        pathTheirs.name,
        formatFixed(pathTheirs.medianNsPerOp / 1e3, 2),
        spread(pathTheirs, 1e3, 2),
        pathologicalVerdicts.robotsParser ? 'allow' : 'disallow',
      ],
    ],
  ),
);

// On a busy machine (other processes competing for the CPUs) every figure is noisier, and
// politely's GC-heavy parse more so (V8's GC uses helper threads): the run reports the load.
const cpuUsed = process.cpuUsage(cpuAtStart);
const cpuShare = (cpuUsed.user + cpuUsed.system) / 1e3 / ((nowNs() - started) / 1e6);
const loadAverage = os.loadavg();
// This benchmark itself accounts for a load of about 1.
const machineBusy = loadAverage[0] > Math.max(1.5, os.cpus().length * 0.75 + 0.5);

const aims = {
  checks: {
    aim: `politely ≥ ${AIM_CHECKS_RATIO}× robots-parser's checks/s`,
    ratio: checksRatio,
    met: checksRatio >= AIM_CHECKS_RATIO,
  },
  parse: { aim: 'politely parses no slower than robots-parser', ratio: parseRatio, met: parseRatio >= AIM_PARSE_RATIO },
};
console.log('\nAims');
console.log(
  formatTable(
    ['aim', 'measured', 'met'],
    Object.values(aims).map((a) => [a.aim, `${formatFixed(a.ratio, 2)}×`, a.met ? 'yes' : 'NO']),
  ),
);

console.log(
  `\nload average ${loadAverage.map((l) => formatFixed(l, 2)).join(' ')} on ${os.cpus().length} CPUs; ` +
    `this process used ${formatFixed(cpuShare, 2)} CPUs (main thread + GC helpers)` +
    (machineBusy ? '\nWARNING: the machine was busy while this ran; figures are noisy — rerun on a quiet machine' : ''),
);

// ---------------------------------------------------------------------------------------------
// JSON

const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const summary = (r, unit, scale) => ({
  [`median${unit}`]: round(r.medianNsPerOp / scale, 4),
  [`min${unit}`]: round(r.minNsPerOp / scale, 4),
  [`max${unit}`]: round(r.maxNsPerOp / scale, 4),
  opsPerSample: r.opsPerSample,
  samples: r.samplesNsPerOp.length,
});
const checkSummary = (r) => ({
  checksPerSecond: Math.round(checksPerSecond(r)),
  nsPerCheck: round(perCheckNs(r), 1),
  minNsPerCheck: round(r.minNsPerOp / urls.length, 1),
  maxNsPerCheck: round(r.maxNsPerOp / urls.length, 1),
  samples: r.samplesNsPerOp.length,
});

const results = {
  benchmark: 'robots-engine',
  date: new Date().toISOString(),
  environment: {
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()}/${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
    gcForced: typeof globalThis.gc === 'function',
    cpusUsedByThisProcess: round(cpuShare, 3),
    loadAverage: loadAverage.map((l) => round(l, 2)),
    machineBusy,
  },
  contestants: { politely: versionOf('@politely/core'), robotsParser: versionOf('robots-parser') },
  method: {
    harness: 'bench/harness.js: calibrated samples, contestants alternate with rotating order, median of rounds',
    warmupRounds: WARMUP_ROUNDS,
    rounds: ROUNDS,
    sampleMs: SAMPLE_MS,
  },
  inputs: {
    bigRobotsTxt: {
      bytes: bigRobotsTxt.length,
      lines: bigRobotsTxt.split('\n').length,
      groups: bigPolitely.groups.length,
      rules: bigRuleCount,
      sitemaps: bigPolitely.sitemaps.length,
    },
    smallRobotsTxt: { bytes: SMALL_ROBOTS_TXT.length, rules: smallRuleCount },
    urls: urls.length,
    userAgent: USER_AGENT,
    pathological: { pattern: '/*a*a*a*a*a*a*a*a*a*a*b', urlLength: longUrl.length },
  },
  parse: {
    politely: summary(parseOurs, 'MsPerParse', 1e6),
    robotsParser: summary(parseTheirs, 'MsPerParse', 1e6),
    politelyUint8Array: summary(parseBytes, 'MsPerParse', 1e6),
    ratioRobotsParserOverPolitely: round(parseRatio, 3),
    parseAndFirstCheck: {
      politely: summary(firstOurs, 'MsPerParse', 1e6),
      robotsParser: summary(firstTheirs, 'MsPerParse', 1e6),
      ratioRobotsParserOverPolitely: round(firstRatio, 3),
    },
  },
  checks: {
    politely: checkSummary(checkOurs),
    robotsParser: checkSummary(checkTheirs),
    politelyUrlObjects: checkSummary(checkUrlObjects),
    ratioPolitelyOverRobotsParser: round(checksRatio, 3),
    ratioPolitelyUrlObjectsOverRobotsParser: round(urlObjectsRatio, 3),
    politelyBreakdownNsPerCheck: {
      isAllowed: round(perCheckNs(wholeCheck), 1),
      matchPathOf: round(perCheckNs(urlSide), 1),
      ruleSetLookupAndRuleMatching: round(ruleSideNs, 1),
    },
  },
  verdicts: {
    urls: urls.length,
    agree: urls.length - differences.length,
    differ: differences.length,
    unexplained: unexplained.length,
    politelyAllowed,
    differences,
  },
  pathological: {
    politely: {
      ...summary(pathOurs, 'UsPerCheck', 1e3),
      verdict: pathologicalVerdicts.politely ? 'allow' : 'disallow',
    },
    robotsParser: {
      ...summary(pathTheirs, 'UsPerCheck', 1e3),
      verdict: pathologicalVerdicts.robotsParser ? 'allow' : 'disallow',
    },
  },
  aims,
  runtimeSeconds: round((nowNs() - started) / 1e9, 1),
};

mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
collectGarbage();
console.log(`\nwrote ${RESULTS_FILE} (${results.runtimeSeconds} s; sink ${sinkValue() > 0 ? 'ok' : '?'})`);
