// A small benchmark harness: contestants take turns, so that noise (a busy neighbour, a CPU
// frequency change, a GC of someone else's garbage) hits them all alike.
//
// - Warm-up: `warmupRounds` rounds of time-boxed samples (`sampleMs` each) that are thrown away;
//   the JIT settles there, and the last one sets how many ops a measured sample holds.
// - Measurement: `rounds` rounds; in each round every contestant takes one sample, and the order
//   rotates from round to round. A full GC runs before every sample when node has --expose-gc.
// - The figure reported is the median of a contestant's samples (ns per op), with min and max.

import os from 'node:os';

/** Nanoseconds since an arbitrary origin, as a Number (fine for intervals of hours). */
export function nowNs() {
  return Number(process.hrtime.bigint());
}

export function collectGarbage() {
  if (typeof globalThis.gc === 'function') globalThis.gc();
}

/** Whatever ops return lands here, so that no op can be optimised away. */
let sink = 0;
export function consume(value) {
  if (value === undefined || value === null || value === false) sink += 1;
  else sink += 2;
}
export function sinkValue() {
  return sink;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function timeOps(op, count) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) consume(op());
  return Number(process.hrtime.bigint() - start);
}

/** Runs `op` for about `ms` milliseconds; returns how many ops fit in exactly `ms`. */
function opsIn(op, ms) {
  const start = nowNs();
  const deadline = start + ms * 1e6;
  let ops = 0;
  let now;
  do {
    consume(op());
    ops++;
    now = nowNs();
  } while (now < deadline);
  return Math.max(1, Math.round((ops * ms * 1e6) / (now - start)));
}

/**
 * Runs `contestants` ({ name, op }) in alternating rounds and returns, for each, the median,
 * min and max of its samples in ns per op, plus the raw samples.
 */
export function compare(contestants, { rounds = 15, warmupRounds = 3, sampleMs = 200 } = {}) {
  // Warm-up samples are time-boxed; the last one sets how many ops a measured sample holds,
  // so that the count comes from JIT-compiled code, not from the first, cold calls.
  const opsPerSample = contestants.map(() => 1);
  for (let round = 0; round < Math.max(1, warmupRounds); round++) {
    for (let k = 0; k < contestants.length; k++) {
      const index = (k + round) % contestants.length;
      collectGarbage();
      opsPerSample[index] = opsIn(contestants[index].op, sampleMs);
    }
  }
  const samples = contestants.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < contestants.length; k++) {
      const index = (k + round) % contestants.length;
      collectGarbage();
      samples[index].push(timeOps(contestants[index].op, opsPerSample[index]) / opsPerSample[index]);
    }
  }
  return contestants.map((c, i) => ({
    name: c.name,
    opsPerSample: opsPerSample[i],
    medianNsPerOp: median(samples[i]),
    minNsPerOp: Math.min(...samples[i]),
    maxNsPerOp: Math.max(...samples[i]),
    samplesNsPerOp: samples[i],
  }));
}

/** A plain text table: `rows` are arrays of cells; numbers are right-aligned. */
export function formatTable(header, rows) {
  const all = [header, ...rows].map((row) => row.map((cell) => String(cell)));
  const widths = header.map((_, col) => Math.max(...all.map((row) => row[col].length)));
  const isNumeric = (cell) => /^[-+]?[\d.,]+\s*(?:[a-zµ/×%]+.*)?$/i.test(cell) && /\d/.test(cell);
  const line = (row) =>
    row
      .map((cell, col) => (col > 0 && isNumeric(cell) ? cell.padStart(widths[col]) : cell.padEnd(widths[col])))
      .join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(all[0]), rule, ...all.slice(1).map(line)].join('\n');
}

/** 1234567.8 → "1,234,568" */
export function formatInteger(n) {
  return Math.round(n).toLocaleString('en-US');
}

export function formatFixed(n, digits) {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The machine a benchmark ran on, for its results file. */
export function machineEnvironment() {
  return {
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
  };
}
