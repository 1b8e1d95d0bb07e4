// The one number rule of the command line: every numeric option of every command is a decimal
// whole number, digits only (no sign, no spaces, no `0x10`, `1e3` or `1.5`); a duration may end
// in a unit, `ms`, `s`, `m`, `h` or `d`, and is in milliseconds without one. A bad value is a one-line usage
// error of one shape: `<command>: <flag>: expected <what>, got "<value>"`.

import { CliError } from '../cli-error.js';
import { quoteInput } from './quote-input.js';

/** The longest duration a timer can wait (2^31 - 1 ms, about 24.8 days). */
export const MAX_DURATION_MS = 2_147_483_647;

/** What a parse found: the number, or why there is none. */
export type NumberParse =
  | { readonly ok: true; readonly value: number }
  | { readonly ok: false; readonly problem: 'format' | 'range' };

const WHOLE = /^\d+$/;
const DURATION = /^(\d+)(ms|s|m|h|d)?$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A decimal whole number in [min, max] (max: the largest safe integer unless given). */
export function parseWholeNumber(text: string, min = 0, max = Number.MAX_SAFE_INTEGER): NumberParse {
  if (!WHOLE.test(text)) return { ok: false, problem: 'format' };
  return inRange(Number(text), min, max);
}

/** A duration in milliseconds in [min, max]: `1500` (ms), `500ms`, `2s`, `15m`, `6h`, `30d`. */
export function parseDurationMs(text: string, min = 0, max = MAX_DURATION_MS): NumberParse {
  const match = DURATION.exec(text);
  if (match === null) return { ok: false, problem: 'format' };
  const digits = match[1] as string;
  return inRange(Number(digits) * UNIT_MS[match[2] ?? 'ms']!, min, max);
}

function inRange(value: number, min: number, max: number): NumberParse {
  if (!Number.isSafeInteger(value) || value > max) return { ok: false, problem: 'range' };
  if (value < min) return { ok: false, problem: 'format' };
  return { ok: true, value };
}

/** What a count option expects, as its error message says it. */
export function describeWholeNumber(
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  problem: 'format' | 'range' = 'format',
): string {
  if (problem === 'range') return `a whole number from ${min} to ${max}`;
  return min === 0 ? 'a whole number' : `a whole number ≥ ${min}`;
}

/** What a duration option expects, as its error message says it. */
export function describeDuration(min: number, max = MAX_DURATION_MS, problem: 'format' | 'range' = 'format'): string {
  const range = problem === 'range' ? ` from ${min} to ${max}` : min === 0 ? '' : ` ≥ ${min}`;
  return `a whole number of milliseconds${range} (or 2s, 500ms)`;
}

/**
 * A count option's value (pages, hops, bytes, requests), or a `CliError` (exit 2, no usage
 * text): `crawl: --max-pages: expected a whole number ≥ 1, got "ten"`.
 */
export function wholeNumberOption(
  command: string,
  flag: string,
  value: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const parsed = parseWholeNumber(value, min, max);
  if (parsed.ok) return parsed.value;
  throw badNumber(command, flag, describeWholeNumber(min, max, parsed.problem), value);
}

/**
 * A duration option's value in milliseconds, or a `CliError` (exit 2, no usage text):
 * `crawl: --delay: expected a whole number of milliseconds (or 2s, 500ms), got "-5"`.
 */
export function durationOption(
  command: string,
  flag: string,
  value: string,
  min: number,
  max = MAX_DURATION_MS,
): number {
  const parsed = parseDurationMs(value, min, max);
  if (parsed.ok) return parsed.value;
  throw badNumber(command, flag, describeDuration(min, max, parsed.problem), value);
}

function badNumber(command: string, flag: string, expected: string, value: string): CliError {
  return new CliError(`${command}: ${flag}: expected ${expected}, got ${quoteInput(value)}`);
}
