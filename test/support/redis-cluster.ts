// A Redis Cluster of a test's own on loopback: 3 primaries and 3 replicas (one each), free
// ports, no persistence, a short cluster-node-timeout so that a killed primary's replica takes
// over within a few seconds. Launched by redis-launch.js (shared with the benchmarks); `stop()`
// (in afterAll) SIGKILLs every node and removes their directory, whatever state they are in.

import { startRedisCluster as launch, type RedisCluster, redisToolsMissing } from './redis-launch.js';

export type { ClusterNode } from './redis-launch.js';
export type OwnRedisCluster = RedisCluster;

/** Whether redis-server and redis-cli are on the PATH (null) or why not. */
export function redisClusterToolsMissing(): string | null {
  return redisToolsMissing(['redis-server', 'redis-cli']);
}

export function startRedisCluster(options: { readonly nodeTimeoutMs?: number } = {}): Promise<OwnRedisCluster> {
  return launch({ primaries: 3, replicas: 1, ...options });
}
