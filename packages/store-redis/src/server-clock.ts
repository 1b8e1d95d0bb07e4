// The store's clock as a worker sees it. The bucket scripts read the time from the Redis server
// (TIME), so that every worker of a crawl judges a host's turn by one clock; the times they store
// and answer (a host's next turn, a lease's start and expiry, a bucket's next ready time) are
// on that clock. The worker waits and measures on its own clock, so the store converts: a time
// from Redis minus the offset is the worker's; a time of the worker's plus the offset is Redis's.
//
// The offset (server time − local time) is learnt from TIME replies, each a sample: the local
// time is taken as the middle of the round trip, so a sample is off by at most half its round
// trip. The estimate is the sample with the shortest round trip among the last SAMPLES (queueing
// behind other commands only lengthens a round trip, so the shortest is the most exact). A
// sample whose interval (offset ± half its round trip) does not meet the estimate's means that
// a clock moved (an NTP step, a failover to a node with another clock): the older samples are
// dropped and the new one decides at once.

/** Samples kept: with a heartbeat's sample every 2.5 s, about the last 20 s. */
const SAMPLES = 8;

interface Sample {
  readonly offsetMs: number;
  readonly roundTripMs: number;
}

/** What one TIME reply says: seconds and microseconds, as Redis answers. */
export type TimeReply = readonly (string | number)[];

export class ServerClock {
  private samples: Sample[] = [];
  private best: Sample | undefined;

  /**
   * `caller`: the store keeps the caller's clock (offset 0, nothing learnt); `server`: Redis's,
   * learnt through `sample`.
   */
  constructor(readonly kind: 'server' | 'caller') {}

  /** Server time − local time, in whole ms (0 until a sample, and always for a caller's clock). */
  get offsetMs(): number {
    return this.best === undefined ? 0 : Math.round(this.best.offsetMs);
  }

  /** Half the round trip of the sample that decides the offset: how far off it may be (ms). */
  get uncertaintyMs(): number {
    return this.best === undefined ? Infinity : this.best.roundTripMs / 2;
  }

  /** A local time (ms) on the store's clock. */
  toStore(localMs: number): number {
    return localMs + this.offsetMs;
  }

  /** A store time (ms) on the local clock. */
  toLocal(storeMs: number): number {
    return storeMs - this.offsetMs;
  }

  /**
   * Asks the server its time through `time` (a TIME command) and learns from the reply. A caller's
   * clock asks nothing.
   */
  async sample(time: () => Promise<TimeReply>): Promise<void> {
    if (this.kind === 'caller') return;
    const sentAt = performance.now();
    const sentAtMs = Date.now();
    const [seconds, micros] = await time();
    const roundTripMs = performance.now() - sentAt;
    const serverMs = Number(seconds) * 1000 + Number(micros) / 1000;
    this.learn({ offsetMs: serverMs - (sentAtMs + roundTripMs / 2), roundTripMs });
  }

  private learn(sample: Sample): void {
    if (!Number.isFinite(sample.offsetMs) || !(sample.roundTripMs >= 0)) return;
    const best = this.best;
    const apart = best === undefined ? 0 : Math.abs(sample.offsetMs - best.offsetMs);
    // 1 ms more: Date.now() and TIME's ms are whole.
    if (best !== undefined && apart > (sample.roundTripMs + best.roundTripMs) / 2 + 1) this.samples = [];
    this.samples.push(sample);
    if (this.samples.length > SAMPLES) this.samples.shift();
    this.best = this.samples.reduce((a, b) => (b.roundTripMs < a.roundTripMs ? b : a));
  }
}
