// The settles (completions, releases, retries) and adds of one bucket that wait together go as
// one script (SETTLE_MANY in frontier-scripts.ts), as Nagle's algorithm does for small packets,
// without a timer: while a script of the bucket is in flight, later records of that bucket
// queue; when it answers, all of them go at once, as one script (several past the size cap).
// With none in flight a record goes at once, alone, so a quiet crawl waits for nothing.
//
// Each caller gets its own record's outcomes; when the script fails, every caller in it gets the
// error (as each would have alone). The bucket's keys share one hash slot, so a batch is one
// script on a Redis Cluster too.

/** One settle's or add's ARGV (see SETTLE_MANY) and how many entry outcomes it gets back. */
export interface SettleRecord {
  readonly args: readonly (string | number)[];
  readonly links: number;
  /**
   * For a record that leaves out links the worker knows the crawl holds (known-urls.ts): makes
   * the same record with every link, sent instead when the bucket's generation is not the one
   * believed when the links were left out (`generation`). Made only then: most never are.
   */
  readonly unfiltered?: () => SettleRecord;
  readonly generation?: number;
}

/**
 * What a record got: its entries' outcomes (then a claim's lease), the record that was sent for
 * it, and the generation its bucket was believed to have when it went.
 */
export interface SettledRecord {
  readonly outcomes: unknown[];
  readonly sent: SettleRecord;
  readonly generation: number;
}

/** One script's answer: its reply (outcomes, then the next times), and as in SettledRecord. */
export interface SentSettles {
  readonly reply: readonly unknown[];
  /** The records it carried: each the one given, or its `unfiltered` form. */
  readonly sent: readonly SettleRecord[];
  readonly generation: number;
}

/** Sends one script with these records on bucket `b`. */
export type SendSettles = (b: number, records: readonly SettleRecord[]) => Promise<SentSettles>;

interface Waiting {
  readonly record: SettleRecord;
  readonly resolve: (settled: SettledRecord) => void;
  readonly reject: (error: unknown) => void;
}

interface BucketQueue {
  /** Scripts of the bucket sent and not answered yet. */
  inFlight: number;
  waiting: Waiting[];
}

export class SettleBatcher {
  private readonly queues = new Map<number, BucketQueue>();

  /**
   * @param send runs one script (the caller's error mapping, next times and replica acks in it).
   * @param maxWeight the most a script carries: each record weighs 1 + its links (a record heavier
   *   than that still goes, alone).
   */
  constructor(
    private readonly send: SendSettles,
    private readonly maxWeight: number,
  ) {}

  /** Sends one record on bucket `b` (now, or with the next batch); resolves with its entries' outcomes, in order. */
  settle(b: number, record: SettleRecord): Promise<SettledRecord> {
    return new Promise((resolve, reject) => {
      const queue = this.queueOf(b);
      queue.waiting.push({ record, resolve, reject });
      if (queue.inFlight === 0) this.flush(b, queue);
    });
  }

  private queueOf(b: number): BucketQueue {
    let queue = this.queues.get(b);
    if (queue === undefined) {
      queue = { inFlight: 0, waiting: [] };
      this.queues.set(b, queue);
    }
    return queue;
  }

  /** Sends everything waiting on the bucket, in scripts of at most maxWeight. */
  private flush(b: number, queue: BucketQueue): void {
    const waiting = queue.waiting;
    queue.waiting = [];
    for (const batch of splitByWeight(waiting, this.maxWeight)) {
      queue.inFlight++;
      void this.run(b, batch).finally(() => {
        queue.inFlight--;
        if (queue.waiting.length > 0) this.flush(b, queue);
      });
    }
  }

  /** One script; each caller gets its slice of the outcomes, or the script's error. Never rejects. */
  private async run(b: number, batch: readonly Waiting[]): Promise<void> {
    let answer: SentSettles;
    try {
      answer = await this.send(
        b,
        batch.map((w) => w.record),
      );
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    const { reply, sent, generation } = answer;
    let at = 0;
    for (const [i, w] of batch.entries()) {
      const record = sent[i]!;
      w.resolve({ outcomes: reply.slice(at, at + record.links), sent: record, generation });
      at += record.links;
    }
  }
}

/** Records in order, in batches whose weight (1 + links per record) stays within `maxWeight`. */
function splitByWeight(waiting: readonly Waiting[], maxWeight: number): Waiting[][] {
  const batches: Waiting[][] = [];
  let batch: Waiting[] = [];
  let weight = 0;
  for (const w of waiting) {
    const own = 1 + w.record.links;
    if (batch.length > 0 && weight + own > maxWeight) {
      batches.push(batch);
      batch = [];
      weight = 0;
    }
    batch.push(w);
    weight += own;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
