// Shared by the fuzz tests: how many runs, how to measure work, how to read the saved corpus.
//
// Runs: `FUZZ_RUNS` (env) is the number of runs of a cheap property; a property whose inputs are
// large runs a fraction of it. The default keeps every fuzz file together well under 20 s in CI;
// `pnpm fuzz` sets it much higher. `FUZZ_SEED` replays a failure that fast-check reported.
//
// Time: "linear in input size" is checked by measuring CPU time (not wall time, which a loaded
// machine inflates) for inputs of size n and 8n, many repetitions per sample, samples of the two
// sizes interleaved, and comparing medians. Linear work gives a ratio near 8, quadratic near 64,
// exponential backtracking astronomically more: a bound of 30 separates them with room to spare.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Parameters } from 'fast-check';

const DEFAULT_FUZZ_RUNS = 200;

function runsFromEnv(): number {
  const raw = process.env['FUZZ_RUNS'];
  if (raw === undefined || raw === '') return DEFAULT_FUZZ_RUNS;
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a positive integer, got ${raw}`);
  return runs;
}

/** Runs of a property of weight 1 (`FUZZ_RUNS`, default 200). */
export const FUZZ_RUNS = runsFromEnv();

/** fast-check parameters: FUZZ_RUNS / `weight` runs (a costly property weighs more, a cheap one less). */
export function fuzzParams<T = void>(weight = 1): Parameters<T> {
  const seed = process.env['FUZZ_SEED'];
  const numRuns = Math.max(10, Math.round(FUZZ_RUNS / weight));
  return seed === undefined || seed === '' ? { numRuns } : { numRuns, seed: Number(seed) };
}

/** A vitest timeout for a property of `weight` whose one run takes about `msPerRun`: grows with FUZZ_RUNS. */
export function fuzzTimeoutMs(msPerRun: number, weight = 1): number {
  return 30_000 + Math.ceil(fuzzParams(weight).numRuns! * msPerRun);
}

// --- measuring work -------------------------------------------------------------------------

/** CPU time of this process in milliseconds (user + system; precise in total on Linux). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface ScalingOptions {
  /** CPU milliseconds one sample of the small input should take (repetitions are chosen for it). @default 10 */
  readonly sampleMs?: number;
  /** Samples of each size; their medians are compared. @default 5 */
  readonly samples?: number;
  /** Runs of each size before measuring, for the JIT. @default 2 */
  readonly warmups?: number;
}

export interface Scaling {
  /** Median CPU ms of one run on the small input. */
  readonly small: number;
  /** Median CPU ms of one run on the large input. */
  readonly large: number;
  /** large / small. */
  readonly ratio: number;
}

type Work = () => unknown;

/**
 * How much more CPU time `large()` costs than `small()`: warm-up, then interleaved samples of
 * many repetitions, medians compared. Async work (a promise returned) is awaited.
 */
export async function measureScaling(small: Work, large: Work, options: ScalingOptions = {}): Promise<Scaling> {
  const sampleMs = options.sampleMs ?? 10;
  const samples = options.samples ?? 5;
  // Warm-up: let the JIT compile both paths before anything is measured.
  for (let i = 0; i < (options.warmups ?? 2); i++) {
    await small();
    await large();
  }
  // Repetitions: enough for one sample of the small input to take about `sampleMs`.
  let reps = 1;
  for (;;) {
    const total = (await timeRuns(small, reps)) * reps;
    if (total >= sampleMs || reps >= 1 << 20) break;
    reps = total < sampleMs / 64 ? reps * 8 : Math.ceil((reps * sampleMs * 1.2) / total);
  }
  const largeReps = Math.max(1, Math.round(reps / 8));
  const smallCosts: number[] = [];
  const largeCosts: number[] = [];
  for (let s = 0; s < samples; s++) {
    smallCosts.push(await timeRuns(small, reps));
    largeCosts.push(await timeRuns(large, largeReps));
  }
  const smallMedian = Math.max(median(smallCosts), 1e-6);
  const largeMedian = median(largeCosts);
  const scaling = { small: smallMedian, large: largeMedian, ratio: largeMedian / smallMedian };
  if (process.env['FUZZ_DEBUG']) console.log(`scaling: reps ${reps}/${largeReps} ${JSON.stringify(scaling)}`);
  return scaling;
}

/** CPU ms per run of `work`, over `reps` runs. */
async function timeRuns(work: Work, reps: number): Promise<number> {
  const start = cpuMs();
  for (let i = 0; i < reps; i++) {
    const result = work();
    if (result instanceof Promise) await result;
  }
  return (cpuMs() - start) / reps;
}

/** The bound on the cost of 8n against n: linear ≈ 8, quadratic ≈ 64. */
export const MAX_RATIO_FOR_8X = 30;

/** CPU ms that one call of `work` takes (for the corpus, where one bad input is one call). */
export async function cpuMsOf(work: Work): Promise<number> {
  const start = cpuMs();
  const result = work();
  if (result instanceof Promise) await result;
  return cpuMs() - start;
}

// --- the corpus ------------------------------------------------------------------------------

export interface CorpusFile {
  /** File name as saved (`….gz` for files stored compressed). */
  readonly name: string;
  /** The input: the file's bytes, gunzipped when the name ends in `.gz`. */
  readonly bytes: Uint8Array;
  /** The file's bytes as stored. */
  readonly stored: Uint8Array;
}

const CORPUS_DIR = fileURLToPath(new URL('./corpus/', import.meta.url));

/** Every input saved in `corpus/<area>/` (large inputs are stored gzipped: `name.gz`). */
export function readCorpus(area: 'robots' | 'sitemaps'): CorpusFile[] {
  const dir = join(CORPUS_DIR, area);
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.') && name !== 'README.md')
    .sort()
    .map((name) => {
      const stored = new Uint8Array(readFileSync(join(dir, name)));
      return { name, stored, bytes: name.endsWith('.gz') ? new Uint8Array(gunzipSync(stored)) : stored };
    });
}

// --- byte strings -------------------------------------------------------------------------------

/** A "byte string" (one char per byte, 0–255) as bytes. */
export function bytesOf(byteString: string): Uint8Array {
  const bytes = new Uint8Array(byteString.length);
  for (let i = 0; i < byteString.length; i++) bytes[i] = byteString.charCodeAt(i) & 0xff;
  return bytes;
}

/** Text as a UTF-8 byte string (so generators can mix text with raw, possibly invalid, bytes). */
export function utf8ByteString(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) out += String.fromCharCode(byte);
  return out;
}
