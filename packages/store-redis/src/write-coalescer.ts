// The commands politely sends in one turn of the event loop reach Redis in one write.
//
// ioredis writes each command to its socket as it is sent: one system call, and on loopback the
// kernel's whole delivery to redis-server, per command (50–130 µs each on a small VM, more than
// the store's own code per page). A busy crawler settles and claims for many pages in one turn
// (every response that arrived together is handled in one poll phase), so the socket is corked
// when the turn's first command goes and uncorked in the turn's check phase (`setImmediate`):
// their writes leave as one `writev`. A command waits at most for the rest of its turn; a quiet
// crawl waits for nothing, as a turn with one command ends at once. ioredis's own
// `enableAutoPipelining` flushes on `process.nextTick`, after each callback, so it never joins
// the commands of two responses.
//
// As Nagle's algorithm does for small packets, a turn that begins while replies are still due on
// the connection holds its commands until the next reply arrives (to the end of that reply's
// turn, so that what its callers send joins them), at most `maxHoldMs`: a busy crawler's
// commands of several turns then leave together, and Redis reads and answers them together too.
// Redis answers in order, so the commands would queue behind those replies there anyway.

import type { Cluster, Redis } from 'ioredis';

interface Corkable {
  cork(): void;
  uncork(): void;
  on(event: 'data', listener: () => void): unknown;
  off(event: 'data', listener: () => void): unknown;
  readonly destroyed?: boolean;
}

/** The longest a turn's commands wait for a reply due before them (ms): a slow script holds nothing long. */
export const MAX_HOLD_MS = 1;

/**
 * Returns `hold()`: call it just before sending a command on `client`. The first call in a turn of
 * the event loop corks the client's sockets (every node's, on a Cluster) until the turn's end.
 */
export function writeCoalescer(client: Redis | Cluster): () => void {
  let hold = coalescers.get(client);
  if (hold === undefined) {
    hold = createWriteCoalescer(client, MAX_HOLD_MS);
    coalescers.set(client, hold);
  }
  return hold;
}

/** One per client: a frontier store and a robots cache on one link cork it once a turn. */
const coalescers = new WeakMap<Redis | Cluster, () => void>();

/** A coalescer of its own for `client` (writeCoalescer shares one per client), holding at most `maxHoldMs`. */
export function createWriteCoalescer(client: Redis | Cluster, maxHoldMs: number): () => void {
  let held: Corkable[] | null = null;
  const release = (): void => {
    const streams = held ?? [];
    held = null;
    for (const stream of streams) stream.uncork();
  };
  return () => {
    if (held !== null) return;
    held = [];
    const awaiting: Corkable[] = [];
    for (const { stream, repliesDue } of connectionsOf(client)) {
      if (stream.destroyed === true) continue;
      stream.cork();
      held.push(stream);
      if (repliesDue) awaiting.push(stream);
    }
    if (awaiting.length === 0) {
      setImmediate(release);
      return;
    }
    let waiting = true;
    const replied = (): void => {
      if (!waiting) return;
      waiting = false;
      clearTimeout(timer);
      for (const stream of awaiting) stream.off('data', replied);
      setImmediate(release);
    };
    for (const stream of awaiting) stream.on('data', replied);
    const timer = setTimeout(replied, maxHoldMs);
  };
}

interface Connection {
  readonly stream: Corkable;
  /** Commands written whose replies have not arrived yet. */
  readonly repliesDue: boolean;
}

/** The sockets a client writes to now (its own, or each node's of a Cluster), and whether each awaits replies. */
function connectionsOf(client: Redis | Cluster): Connection[] {
  const connections: Connection[] = [];
  const add = (node: unknown): void => {
    const { stream, commandQueue } = node as { stream?: Corkable; commandQueue?: { readonly length: number } };
    if (stream !== undefined) connections.push({ stream, repliesDue: (commandQueue?.length ?? 0) > 0 });
  };
  if (isCluster(client)) for (const node of client.nodes('all')) add(node);
  else add(client);
  return connections;
}

/** Duck-typed as connection.ts checks clients: a second copy of ioredis would fail `instanceof`. */
function isCluster(client: Redis | Cluster): client is Cluster {
  return typeof (client as Cluster).nodes === 'function' && (client as { isCluster?: boolean }).isCluster === true;
}
