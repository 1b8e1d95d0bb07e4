// The addresses politely connects to, by host name: a DNS cache that pins one address per name for
// the (bounded) TTL of its answer. Politeness per server keys a host by the address it will
// connect to, and the connection must then go to that very address: the book is the one
// resolution both use, so no second lookup can answer differently.

import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { PolitelyError } from '../errors.js';
import { LruMap } from '../lru-map.js';
import { optionChecks } from '../options/option-checks.js';
import { type AddressLookup, type AddressPolicy, answerLookup, blockedAddressError } from './address-guard.js';
import { type HostResolver, type ResolvedAddress, systemResolver } from './host-resolver.js';

/**
 * Options of `createAddressBook`: how names are resolved, which addresses may be connected to, and
 * how long an answer is kept.
 */
export interface AddressBookOptions {
  /**
   * How names are resolved.
   * @default systemResolver (node's dns.lookup: /etc/hosts applies, no TTL)
   */
  readonly resolve?: HostResolver;
  /**
   * The SSRF guard's policy (`createAddressPolicy(allowNet)`): a name with ANY refused address is
   * refused with `ERR_ADDRESS_BLOCKED`, as the client's guarded lookup would. Without it the book
   * judges nothing; a client given the book still applies its own guard to every answer.
   * @default undefined
   */
  readonly policy?: AddressPolicy;
  /**
   * Shortest time an answer is kept, whatever its TTL; also how long a failed resolution is
   * remembered (so the many URLs of a dead name do not each wait on DNS).
   * @default 1000
   */
  readonly minTtlMs?: number;
  /**
   * Longest time an answer is kept, whatever its TTL.
   * @default 300000
   */
  readonly maxTtlMs?: number;
  /**
   * How long an answer without a TTL (the system resolver gives none) is kept, within the bounds.
   * @default 60000
   */
  readonly defaultTtlMs?: number;
  /**
   * Names kept at most; the least recently used is forgotten first.
   * @default 10000
   */
  readonly maxNames?: number;
  /**
   * The clock, in ms (tests inject one).
   * @default Date.now
   */
  readonly now?: () => number;
}

/**
 * A DNS cache that pins one address per host name: the first address the resolver returns,
 * stable while the answer's TTL (bounded by `minTtlMs` and `maxTtlMs`) lasts.
 */
export interface AddressBook {
  /**
   * The address a connection to `hostname` uses now: cached while its TTL lasts; concurrent
   * calls for one name share one resolution; an IP literal is its own address (no DNS).
   * @throws PolitelyError `ERR_ADDRESS_BLOCKED` when the book's policy refuses any of the name's
   *   addresses (remembered for the answer's TTL); `ERR_FETCH_FAILED` naming the host when it
   *   does not resolve (remembered for `minTtlMs`)
   */
  address(hostname: string): Promise<ResolvedAddress>;
  /** Every address of the answer `address` is pinned from, the pin first (what a guard judges). */
  addresses(hostname: string): Promise<readonly ResolvedAddress[]>;
  /** The pinned address of `hostname` if the book holds a fresh one, without resolving. */
  peek(hostname: string): ResolvedAddress | undefined;
  /**
   * A `lookup` for net/tls.connect (undici's `connect.lookup`) that answers from the book,
   * resolving through it when the name is not cached: a connection goes to the pinned address
   * (only that one, even when all addresses are asked for).
   */
  readonly lookup: AddressLookup;
}

interface Entry {
  readonly answer: Promise<readonly ResolvedAddress[]>;
  /** Infinity while the resolution is under way. */
  expiresAt: number;
  addresses?: readonly ResolvedAddress[];
}

/** Every option `createAddressBook` knows: a key missing here, or one too many, is a type error. */
const ADDRESS_BOOK_OPTION_KEYS: Record<keyof AddressBookOptions, true> = {
  resolve: true,
  policy: true,
  minTtlMs: true,
  maxTtlMs: true,
  defaultTtlMs: true,
  maxNames: true,
  now: true,
};

/**
 * A DNS cache that pins addresses, for politeness per server and for connections that must go
 * where politeness was keyed. Give it to `createHttpClient({ addresses })` so the client
 * connects to the pinned addresses.
 * @throws PolitelyError `ERR_INVALID_OPTION` naming a bad option
 */
export function createAddressBook(options: AddressBookOptions = {}): AddressBook {
  const check = optionChecks('createAddressBook');
  check.knownKeys(options, ADDRESS_BOOK_OPTION_KEYS);
  const minTtlMs = check.durationMs('minTtlMs', options.minTtlMs, 1_000);
  const maxTtlMs = check.durationMs('maxTtlMs', options.maxTtlMs, 300_000);
  check.ordered('minTtlMs', minTtlMs, 'maxTtlMs', maxTtlMs);
  const defaultTtlMs = check.durationMs('defaultTtlMs', options.defaultTtlMs, 60_000);
  const maxNames = check.count('maxNames', options.maxNames, 10_000, 1);
  const resolve = options.resolve ?? systemResolver;
  if (typeof resolve !== 'function')
    check.fail(`resolve must be a function (hostname) => Promise<ResolvedAddress[]>, got ${String(resolve)}`);
  const now = options.now ?? Date.now;
  const { policy } = options;
  const names = new LruMap<string, Entry>(maxNames);

  const ttlOf = (addresses: readonly ResolvedAddress[]): number => {
    const ttls = addresses
      .map((entry) => entry.ttlSeconds)
      .filter((ttl): ttl is number => typeof ttl === 'number' && ttl >= 0);
    const ttlMs = ttls.length === 0 ? defaultTtlMs : Math.min(...ttls) * 1000;
    return Math.min(Math.max(ttlMs, minTtlMs), maxTtlMs);
  };

  /** Resolves `name` once, never rejecting: the answer or the error, and how long it holds. */
  const resolveOnce = async (
    name: string,
  ): Promise<
    | { readonly ttlMs: number; readonly answer: readonly ResolvedAddress[] }
    | { readonly ttlMs: number; readonly error: PolitelyError }
  > => {
    let answer: readonly ResolvedAddress[];
    try {
      answer = checkedAnswer(name, await resolve(name));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        ttlMs: minTtlMs,
        error:
          error instanceof PolitelyError
            ? error
            : new PolitelyError('ERR_FETCH_FAILED', `cannot resolve ${name}: ${why}`, { cause: error }),
      };
    }
    const ttlMs = ttlOf(answer);
    const refused = policy === undefined ? undefined : answer.find((address) => !policy.allows(address.address));
    return refused === undefined ? { ttlMs, answer } : { ttlMs, error: blockedAddressError(name, refused.address) };
  };

  const addresses = (hostname: string): Promise<readonly ResolvedAddress[]> => {
    const name = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const family = isIP(name);
    if (family !== 0) {
      if (policy !== undefined && !policy.allows(name)) return Promise.reject(blockedAddressError(hostname, name));
      return Promise.resolve([{ address: name, family: family as 4 | 6 }]);
    }
    const cached = names.get(name);
    if (cached !== undefined && now() < cached.expiresAt) return cached.answer;
    const entry: Entry = {
      expiresAt: Infinity,
      answer: resolveOnce(name).then((result) => {
        entry.expiresAt = now() + result.ttlMs;
        if ('error' in result) throw result.error;
        entry.addresses = result.answer;
        return result.answer;
      }),
    };
    entry.answer.catch(() => {}); // a refusal nobody waits for any more is not unhandled
    names.set(name, entry);
    return entry.answer;
  };

  return {
    addresses,
    address: async (hostname) => (await addresses(hostname))[0]!,
    peek(hostname) {
      const name = hostname.replace(/^\[|\]$/g, '').toLowerCase();
      const family = isIP(name);
      if (family !== 0)
        return policy === undefined || policy.allows(name) ? { address: name, family: family as 4 | 6 } : undefined;
      const cached = names.get(name);
      return cached !== undefined && now() < cached.expiresAt ? cached.addresses?.[0] : undefined;
    },
    lookup: pinnedLookup({ addresses }, undefined),
  };
}

/** The resolver's answer, checked: at least one address, each an IP literal (family as written). */
function checkedAnswer(name: string, answer: unknown): readonly ResolvedAddress[] {
  if (!Array.isArray(answer))
    throw new PolitelyError(
      'ERR_FETCH_FAILED',
      `cannot resolve ${name}: the resolver returned ${String(answer)}, not a list of addresses`,
    );
  if (answer.length === 0) throw new PolitelyError('ERR_FETCH_FAILED', `cannot resolve ${name}: no address`);
  return answer.map((entry: Partial<ResolvedAddress> | null) => {
    const family = isIP(String(entry?.address));
    if (family === 0)
      throw new PolitelyError(
        'ERR_FETCH_FAILED',
        `cannot resolve ${name}: the resolver returned ${JSON.stringify(entry?.address)}, not an IP address`,
      );
    return {
      address: entry!.address!,
      family: family as 4 | 6,
      ...(typeof entry!.ttlSeconds === 'number' ? { ttlSeconds: entry!.ttlSeconds } : {}),
    };
  });
}

/**
 * A lookup answering with the book's pin for the name, and only it (so happy eyeballs cannot
 * pick another address). With `policy`, EVERY address of the answer must pass it, whatever the
 * book's own policy: the client's guard cannot be bypassed by a book built without one.
 */
export function pinnedLookup(book: Pick<AddressBook, 'addresses'>, policy: AddressPolicy | undefined): AddressLookup {
  return (hostname, options, callback) => {
    const pinned = book.addresses(hostname).then((answer): LookupAddress[] => {
      const refused = policy === undefined ? undefined : answer.find((address) => !policy.allows(address.address));
      if (refused !== undefined) throw blockedAddressError(hostname, refused.address);
      const pin = answer[0]!;
      return [{ address: pin.address, family: pin.family }];
    });
    answerLookup(hostname, pinned, options.all, callback);
  };
}
