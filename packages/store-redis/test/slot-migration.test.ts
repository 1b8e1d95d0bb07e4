// The Redis store on a Redis Cluster of its own (3 primaries, on loopback) while the slot of a
// bucket moves between them (CLUSTER SETSLOT … MIGRATING / IMPORTING, part of its keys moved
// with MIGRATE). Every bucket script declares the bucket's slot guard (keys.ts), so each call on
// the bucket is refused with TRYAGAIN before it runs and tried again: the store's operations wait
// and then succeed once the move is completed or aborted, and the crawl's state is whole; a move
// that outlasts maxOutageMs ends them with ERR_STORE saying what happened.

import type { FrontierEntry, FrontierStore } from '@politely/frontier';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RedisCluster, redisToolsMissing, startRedisCluster } from '../../../test/support/redis-launch.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { createRedisFrontierStore, deleteRedisCrawl } from '../src/index.js';
import { bucketOfHost } from '../src/keys.js';
import { uniqueCrawlId } from './redis-helpers.js';

const missing = redisToolsMissing(['redis-server', 'redis-cli']);
const HOST = 'moving.test';

const entry = (path: string): FrontierEntry => ({ url: `http://${HOST}${path}`, hostKey: HOST, depth: 0, priority: 0 });

/** A node of the cluster, by port, with its id. */
interface Node {
  readonly port: number;
  readonly id: string;
  readonly redis: Redis;
}

/** Whether a promise has settled (resolved or rejected) by now. */
function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  return new Promise((resolve) => setImmediate(() => resolve(settled)));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skipWithout('redis-server and redis-cli', missing))(
  'Redis store on a Redis Cluster while a bucket’s slot moves between nodes',
  () => {
    let cluster: RedisCluster;
    const nodes: Node[] = [];
    const stores: FrontierStore[] = [];
    const crawlIds: string[] = [];

    beforeAll(async () => {
      cluster = await startRedisCluster({ primaries: 3, replicas: 0 });
      for (const port of await cluster.primaries()) {
        const redis = new Redis({ port, host: '127.0.0.1' });
        nodes.push({ port, id: String(await redis.call('CLUSTER', 'MYID')), redis });
      }
    }, 60_000);
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((store) => store.close()));
    });
    afterAll(async () => {
      for (const node of nodes) node.redis.disconnect();
      await cluster?.stop();
    });

    function open(maxOutageMs = 20_000): { store: FrontierStore; crawlId: string } {
      const crawlId = uniqueCrawlId('moving');
      crawlIds.push(crawlId);
      const store = createRedisFrontierStore({
        redis: cluster.url,
        crawlId,
        maxOutageMs,
        defaultHostPolicy: { delayMs: 0, maxInFlight: 10 },
      });
      stores.push(store);
      return { store, crawlId };
    }

    /** The slot of the host's bucket, the node that serves it and another one. */
    async function slotOf(crawlId: string): Promise<{ slot: number; source: Node; target: Node }> {
      const key = `politely:{${crawlId}:${bucketOfHost(HOST)}}:meta`;
      const slot = Number(await nodes[0]!.redis.call('CLUSTER', 'KEYSLOT', key));
      const counts = await Promise.all(
        nodes.map(async (node) => Number(await node.redis.call('CLUSTER', 'COUNTKEYSINSLOT', slot))),
      );
      const at = counts.findIndex((count) => count > 0);
      expect(at, `the node that holds slot ${slot}`).toBeGreaterThanOrEqual(0);
      return { slot, source: nodes[at]!, target: nodes[(at + 1) % nodes.length]! };
    }

    /** Starts moving the slot, and moves `share` of its keys (MIGRATE). */
    async function startMove(slot: number, source: Node, target: Node, share: number): Promise<void> {
      await target.redis.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', source.id);
      await source.redis.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', target.id);
      await moveKeys(slot, source, target, share);
    }

    async function moveKeys(slot: number, source: Node, target: Node, share: number): Promise<number> {
      const keys = (await source.redis.call('CLUSTER', 'GETKEYSINSLOT', slot, 1000)) as string[];
      const moving = keys.slice(0, Math.ceil(keys.length * share));
      if (moving.length > 0)
        await source.redis.call('MIGRATE', '127.0.0.1', target.port, '', 0, 5000, 'KEYS', ...moving);
      return moving.length;
    }

    /** Ends the move: the rest of the keys go, and every node is told the slot is the target's. */
    async function finishMove(slot: number, source: Node, target: Node): Promise<void> {
      await moveKeys(slot, source, target, 1);
      await target.redis.call('CLUSTER', 'SETSLOT', slot, 'NODE', target.id);
      await source.redis.call('CLUSTER', 'SETSLOT', slot, 'NODE', target.id);
      for (const node of nodes)
        if (node !== source && node !== target) await node.redis.call('CLUSTER', 'SETSLOT', slot, 'NODE', target.id);
    }

    it('waits while the slot moves (part of its keys moved), then adds, claims, completes and counts on the new node', async () => {
      const { store, crawlId } = open();
      await store.add([entry('/1'), entry('/2'), entry('/3')]);
      const { lease } = await store.claim({ now: Date.now(), leaseMs: 60_000 });
      expect(lease).not.toBeNull();
      const { slot, source, target } = await slotOf(crawlId);

      await startMove(slot, source, target, 0.5);
      const added = store.add([entry('/4')]);
      const completed = store.complete(lease!.id, { add: [entry('/5')] });
      const counted = store.counts();
      await sleep(1000);
      // Refused whole (TRYAGAIN) and tried again: none has run, none has failed.
      for (const pending of [added, completed, counted]) expect(await settledYet(pending)).toBe(false);

      await finishMove(slot, source, target);
      expect(await added).toEqual(['added']);
      expect(await completed).toEqual(['added']);
      // The count ran before or after the completion: either way the lease is out or done, once.
      const snapshot = await counted;
      expect(snapshot.inFlight + snapshot.done).toBe(1);
      expect(await store.counts()).toMatchObject({ queued: 4, inFlight: 0, done: 1, failed: 0 });
      expect(Number(await target.redis.call('CLUSTER', 'COUNTKEYSINSLOT', slot))).toBeGreaterThan(0);
      expect(Number(await source.redis.call('CLUSTER', 'COUNTKEYSINSLOT', slot))).toBe(0);
      const claimed = new Set<string>();
      for (let i = 0; i < 4; i++)
        claimed.add((await store.claim({ now: Date.now(), leaseMs: 60_000 })).lease!.entry.url);
      expect(claimed).toEqual(new Set(['/2', '/3', '/4', '/5'].map((path) => `http://${HOST}${path}`)));
    }, 60_000);

    it('refuses whole a script whose declared keys are all on the node while keys it builds have moved, then runs it on the new node', async () => {
      const { store, crawlId } = open();
      await store.add(['/1', '/2', '/3', '/4'].map(entry));
      const leases = [];
      for (let i = 0; i < 3; i++) leases.push((await store.claim({ now: Date.now(), leaseMs: 60_000 })).lease!);
      // Every fixed key of the bucket exists: a LastFetch kept, a failure kept, a lease out.
      const lastFetch = { fetchedAt: 1, status: 200, bytes: 1, intervalMs: 0, dueAt: 10, latestDueAt: 100 };
      await store.complete(leases[0]!.id, { lastFetch });
      const failure = { kind: 'failed', reason: 'handler', message: 'x', attempts: 1, at: 5 } as const;
      await store.complete(leases[1]!.id, { failure });
      const { slot, source, target } = await slotOf(crawlId);
      const prefix = `politely:{${crawlId}:${bucketOfHost(HOST)}}:`;
      const fixed = ['meta', 'ready', 'hosts', 'leases', 'seen', 'lastFetch', 'fetched', 'due', 'fetchedAt'];
      for (const name of [...fixed, 'failures', 'failedAt'])
        expect(await source.redis.exists(`${prefix}${name}`), name).toBe(1);

      // Only the keys the scripts build move: the host's hash and queue, the lease, the seen tables.
      await target.redis.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', source.id);
      await source.redis.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', target.id);
      const keys = (await source.redis.call('CLUSTER', 'GETKEYSINSLOT', slot, 1000)) as string[];
      const built = keys.filter((key) => /:(h|q|l):|:seen:\d/.test(key.slice(prefix.length - 1)));
      expect(built.length).toBeGreaterThan(0);
      await source.redis.call('MIGRATE', '127.0.0.1', target.port, '', 0, 5000, 'KEYS', ...built);
      const completed = store.complete(leases[2]!.id, { add: [entry('/5')] });
      const claimed = store.claim({ now: Date.now(), leaseMs: 60_000 });
      await sleep(800);
      for (const pending of [completed, claimed]) expect(await settledYet(pending)).toBe(false);

      await finishMove(slot, source, target);
      expect(await completed).toEqual(['added']);
      expect((await claimed).lease?.entry.url).toMatch(/\/(4|5)$/);
      expect(await store.counts()).toMatchObject({ queued: 1, inFlight: 1, done: 3, failed: 1 });
    }, 60_000);

    it('waits while the slot is marked for a move, then goes on where it was when the move is aborted (SETSLOT STABLE)', async () => {
      const { store, crawlId } = open();
      await store.add([entry('/1'), entry('/2')]);
      const { slot, source, target } = await slotOf(crawlId);

      await startMove(slot, source, target, 0);
      const claimed = store.claim({ now: Date.now(), leaseMs: 60_000 });
      await sleep(600);
      expect(await settledYet(claimed)).toBe(false);

      await target.redis.call('CLUSTER', 'SETSLOT', slot, 'STABLE');
      await source.redis.call('CLUSTER', 'SETSLOT', slot, 'STABLE');
      expect((await claimed).lease?.entry.url).toBe(`http://${HOST}/1`);
      expect(await store.counts()).toMatchObject({ queued: 1, inFlight: 1 });
      expect(Number(await source.redis.call('CLUSTER', 'COUNTKEYSINSLOT', slot))).toBeGreaterThan(0);
    }, 60_000);

    it('fails with ERR_STORE saying the slot is moving when the move outlasts maxOutageMs, having changed nothing', async () => {
      const { store, crawlId } = open(1000);
      await store.add([entry('/1')]);
      const { slot, source, target } = await slotOf(crawlId);
      await startMove(slot, source, target, 0.5);
      try {
        const error = await store.add([entry('/2')]).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toMatchObject({ code: 'ERR_STORE' });
        const message = (error as Error).message;
        // The last answer of the node (TRYAGAIN, or the ASK and MOVED that a move sends back and forth).
        expect(message).toMatch(/TRYAGAIN|ASK|MOVED/);
        expect(message).toMatch(/hash slot is being moved between Redis Cluster nodes/);
        expect(message).not.toMatch(/failed: ?$/);
      } finally {
        await finishMove(slot, source, target);
      }
      // Nothing of the refused add was applied: only /1 is queued.
      expect(await store.counts()).toMatchObject({ queued: 1, inFlight: 0 });
      await deleteRedisCrawl({ redis: cluster.url, crawlId });
    }, 60_000);
  },
);
