// A Redis connection given by the caller (theirs to close, theirs to configure), or by URL (ours:
// checked, opened, watched and closed here), or a shared `RedisLink` (one connection, with its
// outage handling, for a crawl's frontier and robots cache together).
//
// A connection opened from a URL:
// - is checked before anything is sent (redis-url.ts), and its database once connected: an index
//   the server does not have is an error, never a crawl silently kept in database 0;
// - reaches Redis within `connectTimeoutMs` or fails with one line (ERR_STORE): connection
//   refused, no answer, a TLS handshake that never completes (rediss:// to a plain server);
// - when lost mid-crawl, reconnects with backoff while commands wait (they are queued, and a
//   command sent but not answered is sent again: every script is idempotent, see
//   frontier-scripts.ts). The loss is reported once through `onWarning`, its end through
//   `onNotice`; past `maxOutageMs` every waiting command fails with ERR_STORE.
// - never lets ioredis print "Unhandled error event": an `error` listener is always attached.

import { readFileSync } from 'node:fs';
import { PolitelyError } from '@politely/core';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { invalid } from './keys.js';
import {
  isRedisClusterUrl,
  parseRedisClusterUrl,
  parseRedisUrl,
  type RedisClusterUrl,
  type RedisUrl,
} from './redis-url.js';
import { writeCoalescer } from './write-coalescer.js';

/**
 * An ioredis connection (`Redis` or `Cluster`), a shared `RedisLink`, or a URL to open one:
 * `redis://` / `rediss://` (one Redis) or `redis-cluster://` / `rediss-cluster://` (a Redis Cluster).
 */
export type RedisConnection = Redis | Cluster | RedisLink | string;

/**
 * Options of a Redis connection's life: the connect deadline, how long an outage is waited out,
 * and where warnings go.
 */
export interface RedisLinkOptions {
  /**
   * How long to keep trying to reach Redis at start (connection refused, no answer, a TLS
   * handshake that does not complete) before failing with ERR_STORE.
   * @default 5000
   */
  readonly connectTimeoutMs?: number;
  /**
   * How long commands wait for a connection lost mid-crawl to come back (Redis restarting,
   * a network outage) before they fail with ERR_STORE and the crawl stops.
   * @default 60000
   */
  readonly maxOutageMs?: number;
  /** Told once when the connection is lost (`lost the connection to redis://…; retrying`). */
  readonly onWarning?: (message: string) => void;
  /** Told when a lost connection is back (`the connection to redis://… is back after 2.1 s`). */
  readonly onNotice?: (message: string) => void;
}

/**
 * One connection to Redis opened from a URL, shared by whatever is given it (a frontier store
 * and a robots cache of one crawl): one outage, one warning. Closed by `close()`, not by them.
 */
export interface RedisLink {
  /** The URL for messages (password masked). */
  readonly display: string;
  /** A `Redis`, or a `Cluster` for a `redis-cluster://` URL. */
  readonly client: Redis | Cluster;
  /** Connects (once) and checks the database; rejects with one line when Redis cannot be used. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** What the store and robots cache use: any of the three kinds of connection, alike. */
export interface OpenedRedis {
  readonly redis: Redis | Cluster;
  /** The URL for messages (password masked), or a description of the caller's client. */
  readonly display: string;
  /** Resolves once commands may be sent (at once for a caller's client). */
  ready(): Promise<void>;
  /** Runs commands; rejects with ERR_STORE when the connection stayed lost past `maxOutageMs`. */
  run<T>(command: () => Promise<T>): Promise<T>;
  /** Closes the connection if it was opened here; leaves a caller's client or link open. */
  close(): Promise<void>;
}

const BRAND = Symbol.for('politely.redisLink');

/**
 * Opens a checked, watched connection to the Redis (or Redis Cluster) of `url` (connects on
 * first use, or on `ready()`).
 */
export function createRedisLink(url: string, options: RedisLinkOptions = {}): RedisLink {
  return new Link(parseAnyRedisUrl(url, 'createRedisLink'), resolveLinkOptions('createRedisLink', options));
}

function parseAnyRedisUrl(url: string, entryPoint: string): RedisUrl | RedisClusterUrl {
  return typeof url === 'string' && isRedisClusterUrl(url)
    ? parseRedisClusterUrl(url, entryPoint)
    : parseRedisUrl(url, entryPoint);
}

export function openRedis(
  entryPoint: string,
  connection: RedisConnection,
  options: RedisLinkOptions = {},
): OpenedRedis {
  if (typeof connection === 'string') {
    const link = new Link(parseAnyRedisUrl(connection, entryPoint), resolveLinkOptions(entryPoint, options));
    const hold = writeCoalescer(link.client);
    return {
      redis: link.client,
      display: link.display,
      ready: () => link.ready(),
      run: (command) => link.run(coalesced(hold, command)),
      close: () => link.close(),
    };
  }
  if (isLink(connection)) {
    const link = connection as Link;
    const hold = writeCoalescer(link.client);
    return {
      redis: link.client,
      display: link.display,
      ready: () => link.ready(),
      run: (command) => link.run(coalesced(hold, command)),
      close: () => Promise.resolve(),
    };
  }
  // Duck-typed rather than `instanceof`, which a second copy of ioredis in node_modules would fail.
  if (typeof connection !== 'object' || connection === null || typeof connection.defineCommand !== 'function') {
    throw invalid(
      entryPoint,
      'redis must be a redis://, rediss://, redis-cluster:// or rediss-cluster:// URL, a RedisLink, or an ioredis Redis or Cluster client',
    );
  }
  // ioredis would prefix the keys a script declares and not those it builds (every per-host key).
  if (clientKeyPrefix(connection) !== undefined) {
    throw invalid(
      entryPoint,
      `the ioredis client has keyPrefix ${JSON.stringify(clientKeyPrefix(connection))}, which the store's scripts cannot honour: give the store keyPrefix (with a {hash tag}) and a client without one`,
    );
  }
  const display = describeClient(connection);
  const hold = writeCoalescer(connection);
  return {
    redis: connection,
    display,
    ready: () => Promise.resolve(),
    run: (command) => coalesced(hold, command)(),
    close: () => Promise.resolve(),
  };
}

/** `command`, its write joined with the others of its turn of the event loop (write-coalescer.ts). */
function coalesced<T>(hold: () => void, command: () => Promise<T>): () => Promise<T> {
  return () => {
    hold();
    return command();
  };
}

function isLink(value: unknown): value is RedisLink {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** The keyPrefix an ioredis client (or a Cluster's nodes) adds to every key, if any. */
function clientKeyPrefix(client: Redis | Cluster): string | undefined {
  const options = (client as { options?: RedisOptions & { redisOptions?: RedisOptions } }).options;
  const prefix = options?.keyPrefix ?? options?.redisOptions?.keyPrefix;
  return typeof prefix === 'string' && prefix !== '' ? prefix : undefined;
}

function describeClient(client: Redis | Cluster): string {
  const options = (client as { options?: RedisOptions }).options;
  if ('nodes' in client && typeof client.nodes === 'function' && !('host' in (options ?? {}))) return 'redis (cluster)';
  return `redis://${options?.host ?? 'localhost'}:${options?.port ?? 6379}/${options?.db ?? 0}`;
}

interface ResolvedLinkOptions {
  readonly connectTimeoutMs: number;
  readonly maxOutageMs: number;
  readonly onWarning: (message: string) => void;
  readonly onNotice: (message: string) => void;
}

function resolveLinkOptions(entryPoint: string, options: RedisLinkOptions): ResolvedLinkOptions {
  const ms = (name: string, value: number, min: number): number => {
    if (!Number.isInteger(value) || value < min)
      throw invalid(entryPoint, `${name} must be an integer ≥ ${min} (ms), got ${String(value)}`);
    return value;
  };
  return {
    connectTimeoutMs: ms('connectTimeoutMs', options.connectTimeoutMs ?? 5000, 100),
    maxOutageMs: ms('maxOutageMs', options.maxOutageMs ?? 60_000, 0),
    onWarning: options.onWarning ?? (() => {}),
    onNotice: options.onNotice ?? (() => {}),
  };
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/** What a Redis Cluster answers while a primary is replaced (tried again, up to maxOutageMs). */
const FAILOVER =
  /Too many Cluster redirections|Connection is closed|CLUSTERDOWN|TRYAGAIN|ECONNREFUSED|Failed to refresh slots cache/;

/** Errors from the server that trying again will not cure. */
const FATAL_REPLY = /^(WRONGPASS|NOAUTH|NOPERM|ERR AUTH|ERR invalid password|ERR Client sent AUTH)/;

class Link implements RedisLink {
  readonly display: string;
  readonly client: Redis | Cluster;
  private phase: 'new' | 'opening' | 'open' | 'closed' = 'new';
  /** When `ready()` first tried to connect: retries at start stop `connectTimeoutMs` after it. */
  private openedAt = 0;
  private opening: Promise<void> | undefined;
  private lastError: Error | undefined;
  private lostAt: number | undefined;
  private outageTimer: NodeJS.Timeout | undefined;
  /** Set when the connection stayed lost past maxOutageMs: every command fails with it. */
  private failure: PolitelyError | undefined;
  /** The rejecters of commands under way, failed at once when the outage outlasts maxOutageMs. */
  private readonly waiting = new Set<(error: PolitelyError) => void>();

  constructor(
    private readonly url: RedisUrl | RedisClusterUrl,
    private readonly options: ResolvedLinkOptions,
  ) {
    Object.defineProperty(this, BRAND, { value: true });
    this.display = url.display;
    const deadlineOfOpening = (): number => this.openedAt + options.connectTimeoutMs;
    const retryStrategy = (attempt: number): number | null => {
      if (this.phase === 'closed') return null;
      if (this.phase !== 'open') return Date.now() + 200 < deadlineOfOpening() ? 200 : null;
      return Math.min(50 * 2 ** Math.min(attempt, 5), 1000);
    };
    const shared = {
      ...(url.username === undefined ? {} : { username: url.username }),
      ...(url.password === undefined ? {} : { password: url.password }),
      ...(url.tls
        ? {
            tls: {
              ...(url.servername === undefined ? {} : { servername: url.servername }),
              ...(url.ca === undefined ? {} : { ca: this.readCa(url.ca) }),
            },
          }
        : {}),
      // Per attempt: a TCP connect or TLS handshake that does not complete fails in this time.
      connectTimeout: options.connectTimeoutMs,
      // Commands wait through an outage: their deadline is ours (maxOutageMs), not a count of attempts.
      maxRetriesPerRequest: null,
      // disconnect() waits this long for a socket to close before destroying it (a timer that
      // would keep the process alive after a failed start).
      disconnectTimeout: 200,
    };
    if ('nodes' in url) {
      // A node lost mid-crawl (a failover): commands retry every 200 ms on the slots' new primary,
      // for as long as an outage may last.
      const retries = Math.max(16, Math.ceil(options.maxOutageMs / 200));
      this.client = new Cluster(
        url.nodes.map(({ host, port }) => ({ host, port })),
        {
          lazyConnect: true,
          enableOfflineQueue: true,
          clusterRetryStrategy: retryStrategy,
          maxRedirections: retries,
          retryDelayOnFailover: 200,
          retryDelayOnClusterDown: 200,
          retryDelayOnTryAgain: 200,
          slotsRefreshTimeout: options.connectTimeoutMs,
          redisOptions: shared,
        },
      );
      this.client.on('node error', (error: Error, node: string) => {
        this.lastError = new Error(`node ${node}: ${errorText(error)}`);
      });
    } else {
      this.client = new Redis({
        host: url.host,
        port: url.port,
        db: url.db,
        ...shared,
        lazyConnect: true,
        enableOfflineQueue: true,
        retryStrategy,
      });
    }
    this.client.on('error', (error: Error) => {
      this.lastError ??= error;
      if (!(this.client instanceof Cluster)) this.lastError = error;
    });
    this.client.on('close', () => this.lost());
    this.client.on('ready', () => this.back());
  }

  ready(): Promise<void> {
    if (this.phase === 'closed')
      return Promise.reject(new PolitelyError('ERR_STORE', `${this.display}: the connection is closed`));
    this.opening ??= this.open();
    return this.opening;
  }

  run<T>(command: () => Promise<T>): Promise<T> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.phase !== 'open') return this.ready().then(() => this.tries(command, Date.now()));
    return this.tries(command, Date.now());
  }

  /** One try; on a Cluster, more while a failover lasts (tried again every 200 ms, up to maxOutageMs from `startedAt`). */
  private tries<T>(command: () => Promise<T>, startedAt: number): Promise<T> {
    const first = this.once(command);
    if (!(this.client instanceof Cluster)) return first;
    return first.catch((error: unknown) => this.triesAfterFailover(command, error, startedAt));
  }

  private async triesAfterFailover<T>(command: () => Promise<T>, error: unknown, startedAt: number): Promise<T> {
    let last = error;
    for (;;) {
      // A cluster mid-failover: ioredis retries a command a bounded number of times, which a
      // promotion may outlast. Every frontier script is safe to send again: wait, up to maxOutageMs.
      const failingOver = this.failure === undefined && this.phase === 'open' && FAILOVER.test(errorText(last));
      if (!failingOver || Date.now() - startedAt > this.options.maxOutageMs) throw last;
      await new Promise((resolve) => setTimeout(resolve, 200));
      try {
        return await this.once(command);
      } catch (again) {
        last = again;
      }
    }
  }

  /** One try: ioredis keeps a command queued until its connection is back; our outage bound ends the wait. */
  private once<T>(command: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const fail = (error: PolitelyError): void => reject(error);
      this.waiting.add(fail);
      command().then(
        (value) => {
          this.waiting.delete(fail);
          resolve(value);
        },
        (error: unknown) => {
          this.waiting.delete(fail);
          reject(this.failure ?? error);
        },
      );
    });
  }

  async close(): Promise<void> {
    if (this.phase === 'closed') return;
    const wasReady = this.client.status === 'ready';
    this.phase = 'closed';
    clearTimeout(this.outageTimer);
    if (wasReady) {
      // QUIT waits for the replies before it; bounded, since a connection may drop meanwhile.
      const quit = this.client.quit().catch(() => {});
      const timer = new Promise<void>((resolve) => setTimeout(resolve, 1000).unref());
      await Promise.race([quit, timer]);
    }
    this.disconnect();
  }

  private disconnect(): void {
    if (this.client.status !== 'end') this.client.disconnect();
  }

  private readCa(path: string): string {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new PolitelyError(
        'ERR_INVALID_OPTION',
        `${this.display}: cannot read the ca file: ${(error as Error).message}`,
      );
    }
  }

  private async open(): Promise<void> {
    this.phase = 'opening';
    this.openedAt = Date.now();
    await new Promise<void>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.client.off('error', onError);
        this.client.off('end', onEnd);
      };
      const giveUp = (why: string): void => {
        cleanup();
        this.phase = 'closed';
        this.disconnect();
        reject(
          new PolitelyError(
            'ERR_STORE',
            `cannot reach ${this.display} within ${seconds(this.options.connectTimeoutMs)}: ${why}`,
          ),
        );
      };
      const describe = (): string => {
        if (this.lastError !== undefined) return errorText(this.lastError);
        return this.url.tls ? 'no TLS handshake (does the server speak TLS on this port?)' : 'no answer';
      };
      const timer = setTimeout(() => giveUp(describe()), this.options.connectTimeoutMs);
      const onReady = (): void => {
        cleanup();
        resolve();
      };
      const onError = (error: Error): void => {
        if (FATAL_REPLY.test(error.message)) giveUp(errorText(error));
      };
      const onEnd = (): void => giveUp(describe());
      this.client.on('ready', onReady);
      this.client.on('error', onError);
      this.client.on('end', onEnd);
      this.client.connect().catch(() => {}); // failures arrive as events, and are retried until the deadline
    });
    await this.checkDatabase();
    this.phase = 'open';
  }

  /** ioredis SELECTs the database on connect, and on failure goes on in database 0: refuse that here. */
  private async checkDatabase(): Promise<void> {
    if (!('db' in this.url)) return; // a cluster: database 0 only
    const { db } = this.url;
    if (db === 0 || this.client instanceof Cluster) return;
    let count: number | undefined;
    try {
      const reply = (await this.client.config('GET', 'databases')) as unknown as string[];
      count = reply[1] === undefined ? undefined : Number(reply[1]);
    } catch {
      count = undefined; // CONFIG disabled or renamed: SELECT says it
    }
    const refuse = (detail: string): never => {
      this.phase = 'closed';
      this.disconnect();
      throw new PolitelyError(
        'ERR_INVALID_OPTION',
        `${this.display}: database ${db} does not exist on this server (${detail})`,
      );
    };
    if (count !== undefined && Number.isInteger(count) && db >= count) refuse(`it has ${count}: 0 to ${count - 1}`);
    try {
      await this.client.select(db);
    } catch (error) {
      refuse(errorText(error));
    }
  }

  private lost(): void {
    if (this.phase !== 'open' || this.lostAt !== undefined) return;
    this.lostAt = Date.now();
    this.options.onWarning(
      `lost the connection to ${this.display}; retrying for up to ${seconds(this.options.maxOutageMs)}`,
    );
    this.outageTimer = setTimeout(() => {
      const why = this.lastError === undefined ? '' : ` (${errorText(this.lastError)})`;
      this.failure = new PolitelyError(
        'ERR_STORE',
        `lost the connection to ${this.display} for ${seconds(this.options.maxOutageMs)}${why}; stopping`,
      );
      for (const fail of this.waiting) fail(this.failure);
      this.waiting.clear();
      this.phase = 'closed';
      this.disconnect();
    }, this.options.maxOutageMs);
    this.outageTimer.unref();
  }

  private back(): void {
    if (this.lostAt === undefined || this.phase !== 'open') return;
    clearTimeout(this.outageTimer);
    const after = Date.now() - this.lostAt;
    this.lostAt = undefined;
    this.options.onNotice(`the connection to ${this.display} is back after ${seconds(after)}`);
  }
}

/** On one line, whole: ioredis's AggregateError and friends carry the useful text in their parts. */
function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorText(error.errors[0]);
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || 'unknown error';
}
