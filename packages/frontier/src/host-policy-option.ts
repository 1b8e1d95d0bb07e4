// A store factory's `defaultHostPolicy`: the same rule for every store, checked where it is given.

import type { OptionChecks } from '@politely/core/internal';
import { describeValue } from '@politely/core/internal';
import type { HostPolicy } from './frontier-store.js';

/** Every key of a `HostPolicy`: a key missing here, or one too many, is a type error. */
export const HOST_POLICY_KEYS: Record<keyof HostPolicy, true> = { delayMs: true, maxInFlight: true };

/**
 * `defaultHostPolicy` checked with `check` (its entry point's): an object of known keys, `delayMs`
 * a duration (an integer with `wholeDelay`, for a store that keeps whole milliseconds),
 * `maxInFlight` an integer ≥ 1; defaults `{ delayMs: 0, maxInFlight: 1 }`.
 */
export function resolveDefaultHostPolicy(
  check: OptionChecks,
  policy: Partial<HostPolicy> | undefined,
  options: { readonly wholeDelay?: boolean } = {},
): HostPolicy {
  if (policy === undefined) return { delayMs: 0, maxInFlight: 1 };
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy))
    check.fail(`defaultHostPolicy must be an object { delayMs?, maxInFlight? }, got ${describeValue(policy)}`);
  check.knownKeys(policy, HOST_POLICY_KEYS, 'defaultHostPolicy.');
  const delayMs =
    options.wholeDelay === true
      ? check.count('defaultHostPolicy.delayMs', policy.delayMs, 0, 0)
      : check.durationMs('defaultHostPolicy.delayMs', policy.delayMs, 0);
  return { delayMs, maxInFlight: check.count('defaultHostPolicy.maxInFlight', policy.maxInFlight, 1, 1) };
}
