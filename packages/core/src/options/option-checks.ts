// One rule for one kind of option, everywhere in politely: every entry point validates its
// options through these checks, so that `requestTimeoutMs: 0` means the same thing to the
// crawler and to the gate. Errors name the entry point and the option: `createCrawler:
// requestTimeoutMs must be a number of ms > 0, got 0`. Only `undefined` means "not given": a
// `null`, a string or a NaN is a wrong value, never the default. (A CIDR list is the SSRF
// guard's to read: `checkNetworks` in http/address-guard.ts.)

import { PolitelyError } from '../errors.js';
import { nearestName } from '../text/nearest-name.js';

export interface OptionChecks {
  /** Throws ERR_INVALID_OPTION with the entry point's name before `message`. */
  fail(message: string): never;
  /** A duration or delay in ms: a finite number ≥ 0 (`value` if given, else `fallback`). */
  durationMs(name: string, value: number | undefined, fallback: number): number;
  /** A timeout in ms: a finite number > 0 (a timeout of 0 would fail every request). */
  timeoutMs(name: string, value: number | undefined, fallback: number): number;
  /**
   * A count: a safe integer ≥ `min`; with `unbounded`, `Infinity` too (no limit).
   */
  count(
    name: string,
    value: number | undefined,
    fallback: number,
    min: number,
    options?: { readonly unbounded?: boolean },
  ): number;
  /** A finite number > 0 (a ratio, a rate): `value` if given, else `fallback`. */
  positive(name: string, value: number | undefined, fallback: number): number;
  /** One of `allowed` (`value` if given, else `fallback`). */
  oneOf<T extends string>(name: string, value: T | undefined, fallback: T, allowed: readonly T[]): T;
  /** A function, or undefined when not given. */
  callback<T>(name: string, value: T | undefined): T | undefined;
  /** Fails when `name` is given (not undefined) while `other` makes it unable to take effect: `why` says why. */
  conflict(name: string, value: unknown, other: string, why: string): void;
  /** `true` or `false` (`value` if given, else `fallback`). */
  flag(name: string, value: boolean | undefined, fallback: boolean): boolean;
  /** Fails unless `low ≤ high`. */
  ordered(lowName: string, low: number, highName: string, high: number): void;
  /**
   * Fails on an option this entry point does not know, naming the nearest known one. In plain
   * JavaScript a typo (`maxPagez: 3`) would otherwise be ignored and its default used silently.
   * `known` lists every option (a `Record<keyof XOptions, true>` keeps it complete); `prefix`
   * names a nested object (`'render.'`).
   */
  knownKeys(options: object | undefined, known: Readonly<Record<string, true>>, prefix?: string): void;
}

/** The checks of one entry point (`createCrawler`, `createRobotsGate`, …). */
export function optionChecks(entryPoint: string): OptionChecks {
  const fail = (message: string): never => {
    throw new PolitelyError('ERR_INVALID_OPTION', `${entryPoint}: ${message}`);
  };
  return {
    fail,
    durationMs(name, value, fallback) {
      const ms = value === undefined ? fallback : value;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
        fail(`${name} must be a number of ms ≥ 0, got ${describeValue(ms)}`);
      return ms;
    },
    timeoutMs(name, value, fallback) {
      const ms = value === undefined ? fallback : value;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0)
        fail(`${name} must be a number of ms > 0, got ${describeValue(ms)}`);
      return ms;
    },
    positive(name, value, fallback) {
      const n = value === undefined ? fallback : value;
      if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0)
        fail(`${name} must be a finite number > 0, got ${describeValue(n)}`);
      return n;
    },
    count(name, value, fallback, min, options = {}) {
      const n = value === undefined ? fallback : value;
      const whole =
        typeof n === 'number' && (Number.isSafeInteger(n) || (options.unbounded === true && n === Infinity));
      if (!whole || n < min)
        fail(
          `${name} must be an integer ≥ ${min}${options.unbounded === true ? ' (or Infinity)' : ''}, got ${describeValue(n)}`,
        );
      return n;
    },
    oneOf(name, value, fallback, allowed) {
      const chosen = value === undefined ? fallback : value;
      if (!allowed.includes(chosen)) fail(`${name} must be one of ${allowed.join(', ')}, got ${describeValue(chosen)}`);
      return chosen;
    },
    callback(name, value) {
      if (value !== undefined && typeof value !== 'function')
        fail(`${name} must be a function, got ${describeValue(value)}`);
      return value;
    },
    conflict(name, value, other, why) {
      if (value !== undefined) fail(`${name} cannot be used with ${other}: ${why}`);
    },
    flag(name, value, fallback) {
      const on = value === undefined ? fallback : value;
      if (typeof on !== 'boolean') fail(`${name} must be true or false, got ${describeValue(on)}`);
      return on;
    },
    ordered(lowName, low, highName, high) {
      if (low > high) fail(`${lowName} (${low}) must not exceed ${highName} (${high})`);
    },
    knownKeys(options, known, prefix = '') {
      if (options === undefined || options === null) return;
      for (const key of Object.keys(options)) {
        if (Object.hasOwn(known, key)) continue;
        const nearest = nearestName(key, Object.keys(known));
        const hint = nearest === undefined ? '' : ` (did you mean ${prefix}${nearest}?)`;
        fail(`unknown option ${prefix}${key}${hint}`);
      }
    },
  };
}

/**
 * A wrong value as a message shows it, without throwing whatever it is (a symbol, an object
 * without a prototype): numbers, booleans and short strings as written, anything else by kind.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
