// The commands politely sends in one turn of the event loop reach Redis in one write.
//
// ioredis writes each command to its socket as it is sent: one system call, and on loopback the
// kernel's whole delivery to redis-server, per command (more than the store's own code costs per
// page). A busy crawler settles and claims for many pages in one turn
// (every response that arrived together is handled in one poll phase), so the socket is corked
// when the turn's first command goes and uncorked in the turn's check phase (`setImmediate`):
// their writes leave as one `writev`. A command waits at most for the rest of its turn; a quiet
// crawl waits for nothing, as a turn with one command ends at once. ioredis's own
// `enableAutoPipelining` flushes on `process.nextTick`, after each callback, so it never joins
// the commands of two responses.

import type { Cluster, Redis } from 'ioredis';

interface Corkable {
  cork(): void;
  uncork(): void;
  readonly destroyed?: boolean;
}

/**
 * Returns `hold()`: call it just before sending a command on `client`. The first call in a turn of
 * the event loop corks the client's sockets (every node's, on a Cluster) until the turn's end.
 */
export function writeCoalescer(client: Redis | Cluster): () => void {
  let hold = coalescers.get(client);
  if (hold === undefined) {
    hold = newCoalescer(client);
    coalescers.set(client, hold);
  }
  return hold;
}

/** One per client: a frontier store and a robots cache on one link cork it once a turn. */
const coalescers = new WeakMap<Redis | Cluster, () => void>();

function newCoalescer(client: Redis | Cluster): () => void {
  let held: Corkable[] | null = null;
  const release = (): void => {
    const streams = held ?? [];
    held = null;
    for (const stream of streams) stream.uncork();
  };
  return () => {
    if (held !== null) return;
    held = [];
    for (const stream of streamsOf(client)) {
      if (stream.destroyed === true) continue;
      stream.cork();
      held.push(stream);
    }
    setImmediate(release);
  };
}

/** The sockets a client writes to now: its own, or each node's of a Cluster. */
function streamsOf(client: Redis | Cluster): Corkable[] {
  if (isCluster(client)) {
    const streams: Corkable[] = [];
    for (const node of client.nodes('all')) {
      const stream = (node as { stream?: Corkable }).stream;
      if (stream !== undefined) streams.push(stream);
    }
    return streams;
  }
  const stream = (client as { stream?: Corkable }).stream;
  return stream === undefined ? [] : [stream];
}

/** Duck-typed as connection.ts checks clients: a second copy of ioredis would fail `instanceof`. */
function isCluster(client: Redis | Cluster): client is Cluster {
  return typeof (client as Cluster).nodes === 'function' && (client as { isCluster?: boolean }).isCluster === true;
}
