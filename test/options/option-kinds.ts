// Wrong values by kind of option, for the property tests of every entry point's options. A
// table maps each option of a known-key table to its kind; `wrongValues(kind)` generates values
// that option must refuse (never `undefined`, which means "not given").

import fc from 'fast-check';
import { expect } from 'vitest';

/** What an option takes, and so which values are wrong for it. */
export type OptionKind =
  /** A safe integer ≥ min (Infinity too when unbounded). */
  | { readonly kind: 'count'; readonly min: number; readonly unbounded?: boolean }
  /** A finite number of ms ≥ 0. */
  | { readonly kind: 'durationMs' }
  /** A finite number > 0 (a timeout, a ratio). */
  | { readonly kind: 'positive' }
  | { readonly kind: 'flag' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  /** A non-empty string; `bad` lists strings of the right type that are still wrong. */
  | { readonly kind: 'string'; readonly bad?: readonly string[] }
  | { readonly kind: 'function' }
  /** An object with these methods. */
  | { readonly kind: 'service'; readonly methods: readonly string[] }
  /** A list of CIDRs. */
  | { readonly kind: 'networks' }
  /** An array; `bad` lists arrays of wrong entries. */
  | { readonly kind: 'array'; readonly bad: readonly unknown[][] }
  /** A nested object whose own fields are tested through `fields` (a table of its own). */
  | {
      readonly kind: 'object';
      readonly fields: OptionTable;
      readonly orFalse?: boolean;
      /** The fields given beside the one under test (a valid object otherwise). */
      readonly base?: Readonly<Record<string, unknown>>;
    }
  /** Anything else: the wrong values are listed. */
  | { readonly kind: 'listed'; readonly bad: readonly unknown[] };

/** One option's kind, and what else the options must hold for its value to be checked. */
export interface OptionSpec {
  readonly type: OptionKind;
  /** Options given beside it (a render option needs `render`, a WARC field a WARC output). */
  readonly with?: Readonly<Record<string, unknown>>;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

export const spec = (type: OptionKind, withOptions?: Record<string, unknown>): OptionSpec =>
  withOptions === undefined ? { type } : { type, with: withOptions };

/** Values of every type but the ones `keep` accepts. */
const otherTypes = (keep: (value: unknown) => boolean): fc.Arbitrary<unknown> =>
  fc
    .oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('5', '1e3', '', 'true', 'Infinity'),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant({}),
      fc.constant([]),
      fc.constant(Object.create(null) as unknown),
      fc.bigInt({ min: -10n, max: 10n }),
      fc.constant(Symbol('wrong')),
      fc.constant(() => 1),
      fc.constant(new Date(0)),
    )
    .filter((value) => !keep(value));

const isNumber = (value: unknown): boolean => typeof value === 'number';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const isString = (value: unknown): boolean => typeof value === 'string';
const isFunction = (value: unknown): boolean => typeof value === 'function';
const isPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const notFinite = fc.constantFrom(Number.NaN, -Infinity, Infinity);

/** Values an option of `kind` must refuse. */
export function wrongValues(kind: OptionKind): fc.Arbitrary<unknown> {
  switch (kind.kind) {
    case 'count': {
      const numbers: fc.Arbitrary<unknown>[] = [
        fc.double({ noInteger: true, noDefaultInfinity: true, noNaN: true }),
        fc.constantFrom(Number.NaN, -Infinity, 2 ** 53 + 2, -(2 ** 60)),
      ];
      if (kind.min > Number.MIN_SAFE_INTEGER) numbers.push(fc.integer({ min: -1e9, max: kind.min - 1 }));
      if (kind.unbounded !== true) numbers.push(fc.constant(Infinity));
      return fc.oneof(...numbers, otherTypes(isNumber));
    }
    case 'durationMs':
      return fc.oneof(
        fc.double({ max: -Number.MIN_VALUE, noDefaultInfinity: true, noNaN: true }),
        notFinite,
        otherTypes(isNumber),
      );
    case 'positive':
      return fc.oneof(fc.double({ max: 0, noDefaultInfinity: true, noNaN: true }), notFinite, otherTypes(isNumber));
    case 'flag':
      return otherTypes(isBoolean);
    case 'enum':
      return fc.oneof(
        fc.string({ maxLength: 12 }).filter((value) => !kind.values.includes(value)),
        fc.constantFrom(...kind.values.map((value) => value.toUpperCase())).filter((v) => !kind.values.includes(v)),
        otherTypes(isString),
      );
    case 'string':
      return fc.oneof(fc.constantFrom('', ...(kind.bad ?? [])), otherTypes(isString));
    case 'function':
      return otherTypes(isFunction);
    case 'service':
      return fc.oneof(
        otherTypes(isPlainObject),
        fc.constant({}),
        fc.constant(Object.fromEntries(kind.methods.slice(1).map((method) => [method, () => undefined]))),
      );
    case 'networks':
      return fc.oneof(
        fc.constantFrom(['10.0.0.0/40'], ['not-a-network'], [5], [null], ['127.0.0.1/8/8'], '127.0.0.0/8'),
        otherTypes((value) => Array.isArray(value)),
      );
    case 'array':
      return fc.oneof(
        fc.constantFrom(...kind.bad),
        otherTypes((value) => Array.isArray(value)),
      );
    case 'object':
      return otherTypes(
        (value) => isPlainObject(value) || value instanceof Date || (kind.orFalse === true && value === false),
      );
    case 'listed':
      return fc.constantFrom(...kind.bad);
  }
}

/** Runs per option: enough to meet each class of wrong value, few enough to stay within seconds. */
export const RUNS = { numRuns: 40 } as const;

/**
 * Asserts that `make` refuses at once with ERR_INVALID_OPTION (or, with `code`, that code) whose
 * message names the option: each segment of `path` (`adaptiveDelay.targetConcurrency`,
 * `outputs[0].maxFileBytes`) appears in it.
 */
export function expectRefused(make: () => unknown, path: string, code = 'ERR_INVALID_OPTION'): void {
  let thrown: unknown;
  let made: unknown;
  try {
    made = make();
  } catch (error) {
    thrown = error;
  }
  if (thrown === undefined) {
    void (made as { close?: () => unknown } | undefined)?.close?.();
    expect.fail(`${path}: a wrong value was accepted`);
  }
  expect(thrown, `${path}: ${String(thrown)}`).toMatchObject({ code });
  const message = (thrown as Error).message;
  for (const segment of path.split(/[.[\]]+/).filter((part) => part !== '' && !/^\d+$/.test(part)))
    expect(message, `${path}: the message names the option`).toContain(segment);
}

/** Fails for a key of `known` without a spec in `table`, and for a spec of no known key. */
export function expectEveryKeyHasGenerator(entryPoint: string, known: object, table: OptionTable): void {
  const missing = Object.keys(known).filter((key) => !Object.hasOwn(table, key));
  expect(missing.map((key) => `${entryPoint}: option ${key} has no generator`)).toEqual([]);
  const extra = Object.keys(table).filter((key) => !Object.hasOwn(known, key));
  expect(extra.map((key) => `${entryPoint}: generator for ${key}, which is no option`)).toEqual([]);
}
