// A redis-server of a test's own, on a free loopback port: with or without persistence
// (appendonly, in a temporary directory), and restartable on the same port and directory, to
// see what a crawl does when its Redis goes away and comes back, empty or not. Launched by
// redis-launch.js (shared with the benchmarks); `stop()` (in afterAll) kills it whatever state it is in.

import { type RedisServer, redisToolsMissing, startRedisServer } from './redis-launch.js';

export { answersPing, freePort } from './redis-launch.js';
export type OwnRedis = RedisServer;

/** Whether a redis-server binary is on the PATH (null) or why not. */
export function redisServerMissing(): string | null {
  return redisToolsMissing(['redis-server']);
}

export function startOwnRedis(options: {
  readonly persistent: boolean;
  readonly extraArgs?: readonly string[];
}): Promise<OwnRedis> {
  return startRedisServer(options);
}
