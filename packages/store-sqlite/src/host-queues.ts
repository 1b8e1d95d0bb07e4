// The queues of the hosts: one linked list per (host, priority) through `urls.next_id`, with
// its head and tail in `queues` (see schema.ts for why not an index). Every operation is O(1):
// a few reads and writes by primary key. Callers run them inside their transaction.

import type { UrlRow } from './rows.js';
import type { FrontierStatements } from './statements.js';

interface QueueState {
  readonly hostId: number;
  readonly priority: number;
  head: number | null;
  tail: number | null;
}

/** Links new URLs at the tails of their queues; each queue is read once and saved once by `flush`. */
export interface QueueAppender {
  append(hostId: number, priority: number, urlId: number): void;
  /** Rows first..last, already linked to one another (see new-rows.ts), after the queue's tail. */
  appendRun(hostId: number, priority: number, first: number, last: number): void;
  flush(): void;
}

export class HostQueues {
  constructor(private readonly s: FrontierStatements) {}

  /** For a batch of new URLs (inserted with no `next_id`). */
  appender(): QueueAppender {
    const queues = new Map<string, QueueState>();
    const queueOf = (hostId: number, priority: number): QueueState => {
      const id = `${hostId} ${priority}`;
      let queue = queues.get(id);
      if (queue === undefined) {
        queue = this.load(hostId, priority);
        queues.set(id, queue);
      }
      return queue;
    };
    return {
      append: (hostId, priority, urlId) => this.link(queueOf(hostId, priority), urlId),
      appendRun: (hostId, priority, first, last) => {
        const queue = queueOf(hostId, priority);
        this.link(queue, first);
        queue.tail = last;
      },
      flush: () => {
        for (const queue of queues.values()) this.save(queue);
      },
    };
  }

  /** Back at the tail (a retry). */
  pushBack(hostId: number, priority: number, urlId: number): void {
    const queue = this.load(hostId, priority);
    this.s.setNext.run(null, urlId);
    this.link(queue, urlId);
    this.save(queue);
  }

  /** Back at the head (a release, an expired lease). */
  pushFront(hostId: number, priority: number, urlId: number): void {
    const queue = this.load(hostId, priority);
    this.s.setNext.run(queue.head, urlId);
    queue.head = urlId;
    queue.tail ??= urlId;
    this.save(queue);
  }

  /**
   * Unlinks and returns the head of the host's highest-priority queue; undefined when all are
   * empty. A tombstone met on the way (a relabelled URL's old place, see schema.ts) is unlinked
   * and deleted: nothing points at it any more.
   */
  popFront(hostId: number): UrlRow | undefined {
    for (;;) {
      const first = this.s.firstQueue.get(hostId);
      if (first === undefined || first.head_id === null) return undefined;
      const row = this.s.urlById.get(first.head_id);
      const next = row?.next_id ?? null;
      this.save({ hostId, priority: first.priority, head: next, tail: next === null ? null : first.tail_id });
      if (row === undefined || row.moved_to === null) return row;
      this.s.deleteUrl.run(row.id);
    }
  }

  private load(hostId: number, priority: number): QueueState {
    const row = this.s.queue.get(hostId, priority);
    return { hostId, priority, head: row?.head_id ?? null, tail: row?.tail_id ?? null };
  }

  private link(queue: QueueState, urlId: number): void {
    if (queue.tail === null) queue.head = urlId;
    else this.s.setNext.run(urlId, queue.tail);
    queue.tail = urlId;
  }

  private save(queue: QueueState): void {
    this.s.saveQueue.run(queue.hostId, queue.priority, queue.head, queue.tail);
  }
}
