// The commands sent in one turn of the event loop leave in one write (write-coalescer.ts): on a
// real Redis, the socket's writes counted as the kernel gets them (`_write` / `_writev`), every
// reply checked. A command alone in its turn is not held past that turn.

import type { FrontierEntry } from '@politely/frontier';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { createRedisFrontierStore, createRedisLink, type RedisFrontierStore } from '../src/index.js';
import { bucketOfHost } from '../src/keys.js';
import { writeCoalescer } from '../src/write-coalescer.js';
import {
  countWrites,
  deleteCrawls,
  REDIS_URL,
  redisDownReason,
  redisSuiteTitle,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';

const redisDown = await redisDownReason();
const skipRedis = skipWithout('Redis (REDIS_URL)', redisDown);
warnIfSkipped('write-coalescer.test.ts', redisDown);

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe.skipIf(skipRedis)(redisSuiteTitle('writeCoalescer on a real Redis', redisDown), () => {
  const clients: Redis[] = [];
  const stores: RedisFrontierStore[] = [];
  const crawlIds: string[] = [];

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const client of clients.splice(0)) client.disconnect();
    await deleteCrawls(crawlIds.splice(0));
  });

  async function connected(): Promise<Redis> {
    const client = new Redis(REDIS_URL);
    clients.push(client);
    await client.ping();
    return client;
  }

  it('sends the commands of one turn in one write, each with its own reply', async () => {
    const client = await connected();
    const key = `politely-test:coalesce:${uniqueCrawlId('w')}`;
    const hold = writeCoalescer(client);
    const count = countWrites(client.stream);
    const replies: Promise<number>[] = [];
    for (let i = 0; i < 20; i++) {
      hold();
      replies.push(client.incr(key));
    }
    expect(client.stream.writableCorked).toBe(1);
    expect(count.writes).toBe(0);
    expect(await Promise.all(replies)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(count).toEqual({ writes: 1, chunks: 20 });
    expect(client.stream.writableCorked).toBe(0);
    await client.del(key);
  });

  it('holds a command no longer than its turn: one per turn, one write each', async () => {
    const client = await connected();
    const hold = writeCoalescer(client);
    const count = countWrites(client.stream);
    for (let turn = 0; turn < 5; turn++) {
      hold();
      const reply = client.ping(`turn ${turn}`);
      await nextTurn();
      // Written at the turn's end, before any reply could come back.
      expect(count.writes).toBe(turn + 1);
      expect(await reply).toBe(`turn ${turn}`);
    }
    expect(count.chunks).toBe(5);
  });

  it('is one per client, and skips a socket that is gone', async () => {
    const client = await connected();
    expect(writeCoalescer(client)).toBe(writeCoalescer(client));
    client.disconnect();
    await nextTurn();
    expect(() => writeCoalescer(client)()).not.toThrow();
    await nextTurn();
  });

  it("joins a store's scripts of one turn (adds to five buckets) in one write, on a link and on a caller's client", async () => {
    const hosts: string[] = [];
    const buckets = new Set<number>();
    for (let i = 0; hosts.length < 5 && i < 1000; i++) {
      const host = `h${i}.example`;
      if (buckets.has(bucketOfHost(host))) continue;
      buckets.add(bucketOfHost(host));
      hosts.push(host);
    }
    const entries: FrontierEntry[] = hosts.map((host) => ({
      url: `https://${host}/`,
      hostKey: host,
      depth: 0,
      priority: 0,
    }));

    const link = createRedisLink(REDIS_URL);
    const client = await connected();
    try {
      for (const redis of [link, client]) {
        const crawlId = uniqueCrawlId('coalesce');
        crawlIds.push(crawlId);
        const store = createRedisFrontierStore({ redis, crawlId });
        stores.push(store);
        await store.ready();
        const socket = redis === client ? client.stream : (link.client as Redis).stream;
        const count = countWrites(socket);
        // One add of five buckets' entries: five scripts, sent together.
        expect(await store.add(entries)).toEqual(['added', 'added', 'added', 'added', 'added']);
        expect(count).toEqual({ writes: 1, chunks: 5 });
        expect((await store.counts()).queued).toBe(5);
      }
    } finally {
      for (const store of stores.splice(0)) await store.close();
      await link.close();
    }
  });
});
