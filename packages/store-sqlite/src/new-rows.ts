// The new URLs of one add, inserted together with their queue links already set. A row's
// `next_id` is the next new row of its queue in this add; since the rows are inserted one after
// the other in one transaction, SQLite gives them consecutive row ids after the largest (its
// documented choice for an INTEGER PRIMARY KEY without AUTOINCREMENT), so each id is known
// before its row is written. Then only the queue's old tail is updated, once per queue and add,
// where linking row by row would rewrite every new row (at a million URLs, a tenth of an add's CPU).
// Each id is checked as it comes: should SQLite ever choose another, the add fails whole.

import { PolitelyError } from '@politely/core';
import type { FrontierEntry } from '@politely/frontier';
import type { QueueAppender } from './host-queues.js';
import { requestColumnOf } from './rows.js';
import type { FrontierStatements } from './statements.js';

interface NewRow {
  readonly entry: FrontierEntry;
  readonly key: string;
  readonly hash: number;
  readonly hostId: number;
}

export class NewRows {
  private readonly rows: NewRow[] = [];
  private readonly keys = new Set<string>();

  constructor(
    private readonly s: FrontierStatements,
    private readonly appender: QueueAppender,
  ) {}

  /** Whether this add already has a new row for the key. */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  add(entry: FrontierEntry, key: string, hash: number, hostId: number): void {
    this.rows.push({ entry, key, hash, hostId });
    this.keys.add(key);
  }

  /** Inserts the rows held and links them at the tails of their queues. */
  flush(): void {
    const { rows } = this;
    if (rows.length === 0) return;
    const firstId = (this.s.lastUrlId.get() ?? 0) + 1;
    const next = this.nextInQueue(rows, firstId);
    for (let i = 0; i < rows.length; i++) {
      const id = this.insert(rows[i]!, next[i]!);
      if (id !== firstId + i)
        throw new PolitelyError('ERR_STORE', `crawl file: a new URL got row id ${id}, not ${firstId + i} as expected`);
    }
    const runs = new Map<string, { hostId: number; priority: number; first: number; last: number }>();
    for (let i = 0; i < rows.length; i++) {
      const { hostId, entry } = rows[i]!;
      const queue = `${hostId} ${entry.priority}`;
      const run = runs.get(queue);
      if (run === undefined)
        runs.set(queue, { hostId, priority: entry.priority, first: firstId + i, last: firstId + i });
      else run.last = firstId + i;
    }
    for (const run of runs.values()) this.appender.appendRun(run.hostId, run.priority, run.first, run.last);
    rows.length = 0;
    this.keys.clear();
  }

  /** For each row, the id of the next new row of the same queue, or null. */
  private nextInQueue(rows: readonly NewRow[], firstId: number): (number | null)[] {
    const next: (number | null)[] = new Array(rows.length).fill(null);
    const lastOfQueue = new Map<string, number>();
    for (let i = 0; i < rows.length; i++) {
      const queue = `${rows[i]!.hostId} ${rows[i]!.entry.priority}`;
      const previous = lastOfQueue.get(queue);
      if (previous !== undefined) next[previous] = firstId + i;
      lastOfQueue.set(queue, i);
    }
    return next;
  }

  private insert({ entry, key, hash, hostId }: NewRow, nextId: number | null): number {
    // Bound one by one, not through an array: at millions of URLs, garbage is RSS.
    const { lastInsertRowid } = this.s.insertUrl.run(
      key,
      hash,
      hostId,
      entry.depth,
      entry.priority,
      entry.retries ?? null,
      entry.kind ?? null,
      entry.data === undefined ? null : JSON.stringify(entry.data),
      entry.referrer ?? null,
      entry.redirectedFrom ?? null,
      entry.redirectHops ?? null,
      requestColumnOf(entry),
      nextId,
    );
    return Number(lastInsertRowid);
  }
}
