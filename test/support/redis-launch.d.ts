// Types of redis-launch.js (plain JS, so that the benchmarks can import it too).

import type { ChildProcess } from 'node:child_process';

/** Whether every one of `tools` is on the PATH (null) or why not. @default tools ['redis-server'] */
export function redisToolsMissing(tools?: readonly string[]): string | null;
export function freePort(): Promise<number>;
export function answersPing(port: number): Promise<boolean>;
export function redisCommand(port: number, args: readonly string[]): Promise<string>;
export function infoFields(text: string): Map<string, string>;

export interface RedisServer {
  readonly port: number;
  /** `127.0.0.1:PORT` */
  readonly node: string;
  /** `redis://127.0.0.1:PORT/0` */
  readonly url: string;
  /** The running redis-server (undefined while restarting or once stopped). */
  readonly process: ChildProcess | undefined;
  /** Stops the server (SIGTERM: a persistent one saves its append-only file) and starts it again on the same port and directory. */
  restart(options?: { readonly downMs?: number }): Promise<void>;
  /** Stops the server for good and removes its directory. */
  stop(): Promise<void>;
}

export function startRedisServer(options?: {
  /** An append-only file synced on every write. @default false */
  readonly persistent?: boolean;
  readonly extraArgs?: readonly string[];
}): Promise<RedisServer>;

export interface ClusterNode {
  readonly port: number;
  readonly process: ChildProcess;
}

export interface RedisCluster {
  /** `redis-cluster://127.0.0.1:P1,…` of every node (any of them is a seed). */
  readonly url: string;
  /** `127.0.0.1:PORT` of every node. */
  readonly seeds: readonly string[];
  readonly nodes: readonly ClusterNode[];
  /** The ports of the nodes that are primaries serving slots now (CLUSTER NODES of a live node). */
  primaries(): Promise<number[]>;
  /** The ports of the primaries that have a live replica (a failover can replace them). */
  primariesWithReplicas(): Promise<number[]>;
  /** SIGKILLs a node (a crash). */
  kill(port: number): void;
  /** Resolves once every live node says cluster_state:ok and `primaries` primaries serve the slots. */
  waitUntilOk(timeoutMs: number, primaries?: number): Promise<void>;
  /** Kills every node and removes their directory. */
  stop(): Promise<void>;
}

export function startRedisCluster(options?: {
  /** @default 3 */
  readonly primaries?: number;
  /** Replicas of each primary. @default 0 */
  readonly replicas?: number;
  /** cluster-node-timeout. @default 2000 */
  readonly nodeTimeoutMs?: number;
}): Promise<RedisCluster>;
