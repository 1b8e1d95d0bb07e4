// The durability option `replicaAcks`: after each state change of a bucket, WAIT until that many
// replicas of the shard that holds it acknowledged it (or `replicaAckTimeoutMs` passed). Redis
// replication is asynchronous: without it, a primary that dies right after a change may take
// the change with it when its replica takes over (see docs/stores.md).
//
// WAIT counts the writes sent on ONE connection, so it goes on the connection that ran the
// script: for a Cluster, the client of the primary that serves the key's slot.

import calculateSlot from 'cluster-key-slot';
import type { Cluster, Redis } from 'ioredis';

export interface ReplicaAcks {
  /** Waits until the change just made under `key` reached the replicas asked for; warns when fewer acknowledged it. */
  after(key: string): Promise<void>;
}

/** `replicaAcks` of 0: nothing to wait for. */
export const NO_REPLICA_ACKS: ReplicaAcks = { after: () => Promise.resolve() };

export function replicaAcks(
  client: Redis | Cluster,
  replicas: number,
  timeoutMs: number,
  warn: (message: string) => void,
): ReplicaAcks {
  if (replicas === 0) return NO_REPLICA_ACKS;
  return {
    async after(key) {
      const node = nodeOf(client, key);
      const where = `${node.options.host ?? 'localhost'}:${node.options.port ?? 6379}`;
      let acknowledged: number;
      try {
        acknowledged = Number(await node.call('WAIT', replicas, timeoutMs));
      } catch (error) {
        // The primary went away after the change (a failover under way): whether its replica has
        // the change is unknown. The crawl goes on; the change is as safe as without replicaAcks.
        const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
        warn(
          `could not wait for the replicas of ${where} (replicaAcks: ${why}): a change may be lost if it fails over`,
        );
        return;
      }
      if (acknowledged < replicas) {
        warn(
          `only ${acknowledged} of ${replicas} replicas of ${where} acknowledged a change within ${timeoutMs} ms (replicaAcks): a failover now may lose it`,
        );
      }
    },
  };
}

/** The connection that holds `key`: the client itself, or the Cluster's client of the slot's primary. */
function nodeOf(client: Redis | Cluster, key: string): Redis {
  if (!('slots' in client && Array.isArray(client.slots))) return client as Redis;
  const cluster = client as Cluster;
  const primary = cluster.slots[calculateSlot(key)]?.[0];
  const nodes = cluster.nodes('master');
  return nodes.find((node) => `${node.options.host}:${node.options.port}` === primary) ?? nodes[0]!;
}
