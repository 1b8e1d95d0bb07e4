// The address book: a DNS cache that pins one address per name for the answer's bounded TTL, with
// an injected resolver and clock (no DNS, no network), and the guard's lookup through a resolver.

import {
  createAddressBook,
  createAddressPolicy,
  type HostResolver,
  type ResolvedAddress,
  systemResolver,
} from '@politely/core';
import { describe, expect, it } from 'vitest';
import { type AddressLookup, checkHostAllowed, createGuardedLookup } from '../../src/http/address-guard.js';
import { refusal } from './guard-helpers.js';

/** A resolver answering from `table` (a function of the name, so a test can change the answer), counting its calls. */
function tableResolver(table: Record<string, readonly ResolvedAddress[] | Error>) {
  const calls: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    calls.push(hostname);
    const answer = table[hostname];
    if (answer === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { resolve, calls, table };
}

const v4 = (address: string, ttlSeconds?: number): ResolvedAddress => ({
  address,
  family: 4,
  ...(ttlSeconds === undefined ? {} : { ttlSeconds }),
});

function clock(start = 1_000_000) {
  const state = { t: start };
  return { now: () => state.t, advance: (ms: number) => void (state.t += ms) };
}

/** What a lookup calls back with. */
function lookupResult(lookup: AddressLookup, hostname: string, options: { all?: boolean; family?: number } = {}) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: number | undefined }>((resolve) =>
    lookup(hostname, options, (error, address, family) => resolve({ error, address, family })),
  );
}

describe('createAddressBook', () => {
  it('pins the first address of the answer and keeps it while the TTL lasts, then resolves again', async () => {
    const dns = tableResolver({ 'a.test': [v4('192.0.2.1', 10), v4('192.0.2.2', 10)] });
    const time = clock();
    const book = createAddressBook({ resolve: dns.resolve, now: time.now });
    expect(book.peek('a.test')).toBeUndefined();
    expect(await book.address('a.test')).toEqual(v4('192.0.2.1', 10));
    expect(await book.addresses('a.test')).toEqual([v4('192.0.2.1', 10), v4('192.0.2.2', 10)]);
    expect(book.peek('a.test')).toEqual(v4('192.0.2.1', 10));
    time.advance(9_999);
    dns.table['a.test'] = [v4('192.0.2.3', 10)];
    expect((await book.address('A.TEST')).address).toBe('192.0.2.1');
    expect(dns.calls).toEqual(['a.test']);
    time.advance(1);
    expect(book.peek('a.test')).toBeUndefined();
    expect((await book.address('a.test')).address).toBe('192.0.2.3');
    expect(dns.calls).toEqual(['a.test', 'a.test']);
  });

  it('bounds the TTL: minTtlMs below, maxTtlMs above, defaultTtlMs when the resolver gives none, the shortest TTL of the answer', async () => {
    const dns = tableResolver({
      'zero.test': [v4('192.0.2.1', 0)],
      'day.test': [v4('192.0.2.2', 86_400)],
      'none.test': [v4('192.0.2.3')],
      'mixed.test': [v4('192.0.2.4', 30), v4('192.0.2.5', 20)],
    });
    const time = clock();
    const book = createAddressBook({
      resolve: dns.resolve,
      now: time.now,
      minTtlMs: 1_000,
      maxTtlMs: 300_000,
      defaultTtlMs: 60_000,
    });
    const names = ['zero.test', 'day.test', 'none.test', 'mixed.test'];
    for (const name of names) await book.address(name);
    const fresh = (): string[] => names.filter((name) => book.peek(name) !== undefined);
    time.advance(999);
    expect(fresh()).toEqual(names);
    time.advance(1); // 1 s
    expect(fresh()).toEqual(['day.test', 'none.test', 'mixed.test']);
    time.advance(19_000); // 20 s
    expect(fresh()).toEqual(['day.test', 'none.test']);
    time.advance(40_000); // 60 s
    expect(fresh()).toEqual(['day.test']);
    time.advance(240_000); // 300 s
    expect(fresh()).toEqual([]);
  });

  it('shares one resolution among concurrent calls for a name', async () => {
    let release!: (answer: readonly ResolvedAddress[]) => void;
    let calls = 0;
    const book = createAddressBook({
      resolve: () => {
        calls++;
        return new Promise((resolve) => (release = resolve));
      },
    });
    const pending = Array.from({ length: 20 }, () => book.address('a.test'));
    expect(book.peek('a.test')).toBeUndefined();
    release([v4('192.0.2.9')]);
    expect(new Set((await Promise.all(pending)).map((entry) => entry.address))).toEqual(new Set(['192.0.2.9']));
    expect(calls).toBe(1);
  });

  it('answers an IP literal with itself, without DNS, and judges it by the policy', async () => {
    const dns = tableResolver({});
    const book = createAddressBook({ resolve: dns.resolve, policy: createAddressPolicy(['127.0.0.0/8', '::1/128']) });
    expect(await book.address('8.8.8.8')).toEqual({ address: '8.8.8.8', family: 4 });
    expect(await book.address('[::1]')).toMatchObject({ address: '::1', family: 6 });
    expect(await book.address('127.0.0.5')).toMatchObject({ address: '127.0.0.5' });
    expect(book.peek('8.8.8.8')).toEqual({ address: '8.8.8.8', family: 4 });
    const error = await refusal(book.address('10.0.0.1'));
    expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
    expect(book.peek('10.0.0.1')).toBeUndefined();
    expect(dns.calls).toEqual([]);
  });

  it('with a policy, refuses a name if ANY of its addresses is blocked, and remembers the refusal for the TTL', async () => {
    const dns = tableResolver({ 'mixed.test': [v4('8.8.8.8', 5), v4('10.0.0.1', 5)] });
    const time = clock();
    const book = createAddressBook({ resolve: dns.resolve, policy: createAddressPolicy([]), now: time.now });
    const error = await refusal(book.address('mixed.test'));
    expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
    expect(error.message).toContain('refused to connect to mixed.test: 10.0.0.1 is Private-Use (RFC 1918)');
    expect((await refusal(book.addresses('mixed.test'))).code).toBe('ERR_ADDRESS_BLOCKED');
    expect(book.peek('mixed.test')).toBeUndefined();
    expect(dns.calls).toHaveLength(1);
    time.advance(5_000);
    dns.table['mixed.test'] = [v4('8.8.8.8', 5)];
    expect((await book.address('mixed.test')).address).toBe('8.8.8.8');
    expect(dns.calls).toHaveLength(2);
  });

  it('without a policy, judges nothing', async () => {
    const book = createAddressBook({ resolve: tableResolver({ 'private.test': [v4('10.0.0.1')] }).resolve });
    expect((await book.address('private.test')).address).toBe('10.0.0.1');
  });

  it('rejects a name that does not resolve with ERR_FETCH_FAILED naming it, remembered for minTtlMs', async () => {
    const dns = tableResolver({ 'empty.test': [], 'junk.test': [{ address: 'not-an-ip', family: 4 }] });
    const time = clock();
    const book = createAddressBook({ resolve: dns.resolve, now: time.now, minTtlMs: 2_000 });
    const error = await refusal(book.address('gone.test'));
    expect(error.code).toBe('ERR_FETCH_FAILED');
    expect(error.message).toBe('cannot resolve gone.test: getaddrinfo ENOTFOUND gone.test');
    expect((error.cause as { code?: string }).code).toBe('ENOTFOUND');
    expect((await refusal(book.address('empty.test'))).message).toBe('cannot resolve empty.test: no address');
    expect((await refusal(book.address('junk.test'))).message).toContain('"not-an-ip", not an IP address');
    time.advance(1_999);
    await refusal(book.address('gone.test'));
    expect(dns.calls.filter((name) => name === 'gone.test')).toHaveLength(1);
    time.advance(1);
    dns.table['gone.test'] = [v4('192.0.2.1')];
    expect((await book.address('gone.test')).address).toBe('192.0.2.1');
  });

  it('a resolver that throws is a failed resolution', async () => {
    const book = createAddressBook({
      resolve: () => {
        throw new Error('boom');
      },
    });
    expect((await refusal(book.address('a.test'))).message).toBe('cannot resolve a.test: boom');
  });

  it('forgets the least recently used name beyond maxNames', async () => {
    const dns = tableResolver({
      'a.test': [v4('192.0.2.1')],
      'b.test': [v4('192.0.2.2')],
      'c.test': [v4('192.0.2.3')],
    });
    const book = createAddressBook({ resolve: dns.resolve, maxNames: 2 });
    await book.address('a.test');
    await book.address('b.test');
    await book.address('a.test'); // a is now the newest
    await book.address('c.test'); // b goes
    expect(book.peek('a.test')?.address).toBe('192.0.2.1');
    expect(book.peek('b.test')).toBeUndefined();
    expect(dns.calls).toEqual(['a.test', 'b.test', 'c.test']);
  });

  it('lookup answers with the pin only, even when all addresses are asked for', async () => {
    const dns = tableResolver({
      'two.test': [v4('127.0.0.5'), { address: '::1', family: 6 }],
      'private.test': [v4('10.0.0.1')],
    });
    const book = createAddressBook({ resolve: dns.resolve, policy: createAddressPolicy(['127.0.0.0/8', '::1/128']) });
    expect(await lookupResult(book.lookup, 'two.test')).toEqual({ error: null, address: '127.0.0.5', family: 4 });
    expect(await lookupResult(book.lookup, 'two.test', { all: true })).toEqual({
      error: null,
      address: [{ address: '127.0.0.5', family: 4 }],
      family: undefined,
    });
    expect(await lookupResult(book.lookup, 'two.test', { family: 6 })).toMatchObject({ address: '127.0.0.5' }); // the pin, whatever family is asked
    expect(dns.calls).toEqual(['two.test']);
    const refused = await lookupResult(book.lookup, 'private.test');
    expect((refused.error as { code?: string } | null)?.code).toBe('ERR_ADDRESS_BLOCKED');
  });

  it('checks its options', () => {
    expect(() => createAddressBook({ minTtlMs: 10_000, maxTtlMs: 1_000 })).toThrow(
      /createAddressBook: minTtlMs \(10000\) must not exceed maxTtlMs \(1000\)/,
    );
    expect(() => createAddressBook({ maxNames: 0 })).toThrow(/maxNames must be an integer ≥ 1/);
    expect(() => createAddressBook({ defaultTtlMs: -1 })).toThrow(/defaultTtlMs must be a number of ms ≥ 0/);
    expect(() => createAddressBook({ resolve: 'dns' as unknown as HostResolver })).toThrow(
      /resolve must be a function/,
    );
  });
});

describe('the guarded lookup through an injected resolver', () => {
  const dns = tableResolver({
    'loop.test': [v4('127.0.0.5'), { address: '::1', family: 6 }],
    'mixed.test': [v4('127.0.0.5'), v4('10.0.0.1')],
  });
  const policy = createAddressPolicy(['127.0.0.0/8', '::1/128']);

  it('hands back the first checked address, or all of them, or those of the family asked for', async () => {
    const lookup = createGuardedLookup(policy, dns.resolve);
    expect(await lookupResult(lookup, 'loop.test')).toMatchObject({ error: null, address: '127.0.0.5', family: 4 });
    expect((await lookupResult(lookup, 'loop.test', { all: true })).address).toEqual([
      { address: '127.0.0.5', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(await lookupResult(lookup, 'loop.test', { family: 6 })).toMatchObject({ address: '::1', family: 6 });
  });

  it('refuses a name if any of its addresses is blocked, whatever family is asked for', async () => {
    const lookup = createGuardedLookup(policy, dns.resolve);
    const { error } = await lookupResult(lookup, 'mixed.test', { family: 4 });
    expect(error?.message).toContain('refused to connect to mixed.test: 10.0.0.1');
    expect((await lookupResult(lookup, 'nowhere.test')).error?.code).toBe('ENOTFOUND');
  });

  it('checkHostAllowed resolves through the resolver too', async () => {
    await expect(checkHostAllowed('loop.test', policy, dns.resolve)).resolves.toBeUndefined();
    expect((await refusal(checkHostAllowed('mixed.test', policy, dns.resolve))).code).toBe('ERR_ADDRESS_BLOCKED');
  });

  it('systemResolver is node’s dns.lookup with all addresses (an IP literal answers itself)', async () => {
    expect(await systemResolver('127.0.0.1')).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });
});
