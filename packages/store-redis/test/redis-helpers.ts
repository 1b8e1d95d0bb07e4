// Redis for the tests: REDIS_URL (default redis://127.0.0.1:6379), a ping at load time, unique
// crawl ids, and cleanup. When Redis does not answer, the suites are skipped with the reason in
// their name (never silently passed).

import { createHash, randomUUID } from 'node:crypto';
import { type Command, Redis } from 'ioredis';
import { BUCKET_SCRIPTS } from '../src/frontier-scripts.js';
import { deleteRedisCrawl } from '../src/index.js';
import { bucketOfHost } from '../src/keys.js';

export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** null when Redis answers a PING within a second; otherwise why not. */
export async function redisDownReason(url = REDIS_URL): Promise<string | null> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let connectionError: string | undefined;
  probe.on('error', (error: Error) => {
    connectionError ??= error.message;
  });
  try {
    const answer = await Promise.race([
      probe.connect().then(() => probe.ping()),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 1 s')), 1000).unref()),
    ]);
    return answer === 'PONG' ? null : `PING answered ${String(answer)}`;
  } catch (error) {
    return connectionError ?? (error instanceof Error ? error.message : String(error));
  } finally {
    probe.disconnect();
  }
}

/** A suite title that says, when Redis is down, that and why the suite is skipped. */
export function redisSuiteTitle(title: string, downReason: string | null): string {
  return downReason === null ? title : `${title} [SKIPPED: no Redis at ${REDIS_URL}: ${downReason}]`;
}

/** Says on stderr that a file's Redis tests are skipped, and why (they are never silently passed). */
export function warnIfSkipped(file: string, downReason: string | null): void {
  if (downReason !== null)
    console.warn(`[store-redis] ${file}: Redis tests SKIPPED: no Redis at ${REDIS_URL}: ${downReason}`);
}

/** A crawl id no other test (or test run) uses. */
export function uniqueCrawlId(label: string): string {
  return `test-${label}-${randomUUID()}`;
}

/** The key prefix of the bucket that holds a host's state in a crawl (`politely:{<crawlId>:<bucket>}:`). */
export function bucketPrefixOf(crawlId: string, hostKey: string): string {
  return `politely:{${crawlId}:${bucketOfHost(hostKey)}}:`;
}

/** The key of an origin's robots.txt record in a crawl (in the bucket of the origin). */
export function robotsKeyOf(crawlId: string, origin: string): string {
  return `${bucketPrefixOf(crawlId, origin)}robots:${origin}`;
}

/** Every key of a crawl in one Redis: crawl-wide (`politely:{<id>}:…`) and in its buckets (`politely:{<id>:<b>}:…`). */
export async function crawlKeys(redis: Redis, crawlId: string): Promise<string[]> {
  const found = await redis.keys(`politely:{${crawlId}*`);
  const pattern = new RegExp(`^politely:\\{${crawlId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:\\d+)?\\}:`);
  return found.filter((key) => pattern.test(key));
}

/** Deletes every key of the crawls, and resolves with how many keys remain under their prefixes (0). */
export async function deleteCrawls(crawlIds: Iterable<string>): Promise<number> {
  const admin = new Redis(REDIS_URL);
  try {
    let remaining = 0;
    for (const crawlId of crawlIds) {
      await deleteRedisCrawl({ redis: admin, crawlId });
      remaining += (await crawlKeys(admin, crawlId)).length;
    }
    return remaining;
  } finally {
    admin.disconnect();
  }
}

export interface WriteCount {
  /** Writes handed to the kernel (one `_write`, or one `_writev` of several chunks). */
  writes: number;
  /** Chunks in them: one per command. */
  chunks: number;
}

/** Counts what a real socket hands to the kernel; its writes go through unchanged. */
export function countWrites(stream: Redis['stream']): WriteCount {
  const count: WriteCount = { writes: 0, chunks: 0 };
  const socket = stream as unknown as {
    _write: (...args: unknown[]) => unknown;
    _writev: (chunks: unknown[], ...rest: unknown[]) => unknown;
  };
  const write = socket._write.bind(socket);
  const writev = socket._writev.bind(socket);
  socket._write = (...args) => {
    count.writes++;
    count.chunks++;
    return write(...args);
  };
  socket._writev = (chunks, ...rest) => {
    count.writes++;
    count.chunks += chunks.length;
    return writev(chunks, ...rest);
  };
  return count;
}

const SETTLE_MANY_SHA = createHash('sha1').update(BUCKET_SCRIPTS.politelyBucketSettleMany).digest('hex');

/**
 * Every settle script (SETTLE_MANY) the client sends from now on, as its command's arguments:
 * the script's sha, the number of keys, the keys (the bucket's meta first), then ARGV. Read off
 * the client as it sends (one EVALSHA each, whether or not ioredis then writes it as EVAL).
 */
export function recordSettleScripts(redis: Redis): string[][] {
  const scripts: string[][] = [];
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command: Command, stream?: never) => {
    if (command.name === 'evalsha' && command.args[0] === SETTLE_MANY_SHA) scripts.push(command.args.map(String));
    return send(command, stream);
  }) as typeof redis.sendCommand;
  return scripts;
}

/** `n` host names whose state is in one bucket, and one in another bucket. */
export function hostsInOneBucket(n: number, stem = 'batch'): { hosts: string[]; elsewhere: string } {
  const byBucket = new Map<number, string[]>();
  for (let i = 0; i < 100_000; i++) {
    const host = `${stem}-${i}.test`;
    const b = bucketOfHost(host);
    const hosts = byBucket.get(b) ?? [];
    hosts.push(host);
    byBucket.set(b, hosts);
    if (hosts.length === n) {
      const elsewhere = [...byBucket].find(([other]) => other !== b)![1][0]!;
      return { hosts, elsewhere };
    }
  }
  throw new Error(`no ${n} hosts in one bucket`);
}
