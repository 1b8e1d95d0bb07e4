// A worker's view of the buckets of a crawl: for each, the next ready time and the recheck time
// the last script on it answered (frontier-scripts.ts, "Next times"). A claim goes to the bucket
// whose next ready time came first (ties rotated, so no bucket waits behind another), without
// asking every bucket. The view is refreshed whole (one TEND per bucket, sent together) only when
// it says nothing is ready and either nothing is known anywhere (the crawl may be over) or a
// recheck time has come: a bucket with leases out asks for one within the idle poll, so a busy
// crawl refreshes at most about once per idle poll. While other workers run, URLs they add
// arrive without notice: then "look again" is never later than one idle poll after the last
// refresh, so they are seen within it.
//
// Times are the store's clock (Redis's, or the caller's with `clock: 'caller'`; the store
// converts the caller's `now` to it), but for that bound, which is in real time on the worker.

/** What one script answered about its bucket: next ready time and recheck time (NaN = none). */
export interface BucketTimes {
  readonly readyAt: number;
  readonly recheckAt: number;
}

export class ClaimView {
  private readonly readyAt: number[];
  private readonly recheckAt: number[];
  private rotation = 0;
  /** Whether other workers are registered (as the last heartbeat said). */
  private others = true;
  /** Date.now() of the last whole refresh; -Infinity before the first. */
  private refreshedAt = -Infinity;

  constructor(
    private readonly buckets: number,
    private readonly idlePollMs: number,
  ) {
    this.readyAt = Array.from({ length: buckets }, () => Number.NaN);
    this.recheckAt = Array.from({ length: buckets }, () => Number.NaN);
  }

  /** Records what a script on bucket `b` answered. */
  learn(b: number, times: BucketTimes): void {
    this.readyAt[b] = times.readyAt;
    this.recheckAt[b] = times.recheckAt;
  }

  /** Forgets when the view was refreshed: the next claim that finds nothing ready refreshes it. */
  invalidate(): void {
    this.refreshedAt = -Infinity;
    this.readyAt.fill(Number.NaN);
    this.recheckAt.fill(Number.NaN);
  }

  /** Records a whole refresh; the next refresh waits for a recheck time (see needsRefresh). */
  refreshed(): void {
    this.refreshedAt = Date.now();
  }

  /** The bucket ready soonest with a ready time at or before `now` (ties rotated), or undefined. */
  pick(now: number): number | undefined {
    let best: number | undefined;
    let bestAt = Infinity;
    const start = this.rotation++ % this.buckets;
    for (let i = 0; i < this.buckets; i++) {
      const b = (start + i) % this.buckets;
      const at = this.readyAt[b]!;
      if (at <= now && at < bestAt) {
        best = b;
        bestAt = at;
      }
    }
    return best;
  }

  /** Records whether other workers are registered. */
  otherWorkers(others: boolean): void {
    this.others = others;
  }

  /**
   * Whether a whole refresh is due (nothing being ready): never done, nothing known anywhere, a
   * recheck time came, or, while other workers run, an idle poll passed since the last.
   */
  needsRefresh(now: number): boolean {
    const soonest = this.soonest();
    if (this.refreshedAt === -Infinity || soonest === Infinity || soonest <= now) return true;
    return this.others && Date.now() - this.refreshedAt >= this.idlePollMs;
  }

  /** Nothing queued or out in any bucket (as last seen). */
  empty(): boolean {
    return this.soonest() === Infinity;
  }

  /**
   * When a claim should look again, nothing being ready at `now`: the soonest ready or recheck
   * time; while other workers run and the view was not just refreshed (`fresh`), no later than
   * one idle poll after the last refresh.
   */
  nextLook(now: number, fresh: boolean): number {
    const soonest = this.soonest();
    if (fresh || !this.others) return soonest;
    return Math.min(soonest, now + Math.max(1, this.refreshedAt + this.idlePollMs - Date.now()));
  }

  private soonest(): number {
    let soonest = Infinity;
    for (let b = 0; b < this.buckets; b++) {
      const ready = this.readyAt[b]!;
      const recheck = this.recheckAt[b]!;
      if (ready < soonest) soonest = ready;
      if (recheck < soonest) soonest = recheck;
    }
    return soonest;
  }
}

/** The next times at the end of a script's reply ('' = none → NaN). */
export function timesOf(reply: readonly unknown[]): BucketTimes {
  const number = (value: unknown): number => (value === '' || value === undefined ? Number.NaN : Number(value));
  return { readyAt: number(reply[reply.length - 2]), recheckAt: number(reply[reply.length - 1]) };
}
