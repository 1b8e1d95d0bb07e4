// The host's clock as a settle sets it. PURE arithmetic (`now` is passed in), and a small
// per-host record of it.
//
// The store keeps each host's clock: the time its next request may start. A claim moves it on by
// the host's delay; each settle (complete, release, retry) may set it again, to one of two kinds
// of time:
//   - a pace: the delay after this request's response (anchor + delay), or, when no request was
//     made, the clock as it was before the claim (handed back);
//   - a hold: a time before which no request to the host may start — a server's Retry-After on
//     429/503, or a backoff after a failure.
// With several requests in flight at one host they settle in any order. A pace is only about its
// own request: it must never move the clock back before a hold that another request set (a 200
// that settles after a sibling's 503 `Retry-After: 2` would otherwise let the next request, even
// the refused URL's retry, go at once).
//
// The store is where that rule lives (`SettleOptions.hostNotBefore` of @politely/frontier): it
// keeps per host the latest hold it is told, and never sets the clock before it, whichever
// worker's settle asks. That is the only place every worker of a shared store (Redis, a shared
// SQLite file) meets.
//
// What this process's record adds: a hold is known here the moment its response is in, but the
// store learns it only when a request settles. So every settle of this process sends the host's
// current hold (the store hears it from whichever request settles first: a 503 on a URL's last
// attempt settles only after its handler), and a URL claimed for a host held here goes back
// without a request. The pace sent is raised to the hold too, for a store written before
// `hostNotBefore` that keeps no holds.
//
// Retry-After is host-wide: the server is asking the client to slow down, not about one URL. The
// retried URL goes back to its host's queue, and a URL is only claimed when its host's clock has
// come; since nothing moves the clock before the hold, the URL is not requested again before its
// Retry-After either. No per-URL "not before" is needed in the store.

/** The time a settle should set the host's clock to: never before a hold still in force. */
export function settledReadyAt(
  proposed: number | undefined,
  holdUntil: number | undefined,
  now: number,
): number | undefined {
  // Nothing proposed: the store keeps its clock, which no settle of ours moved before the hold.
  if (proposed === undefined || holdUntil === undefined || holdUntil <= now) return proposed;
  return Math.max(proposed, holdUntil);
}

/** The hold after another one asks for `until`: the later of the two. */
export function raisedHold(holdUntil: number | undefined, until: number): number {
  return holdUntil === undefined ? until : Math.max(holdUntil, until);
}

/** Hosts with a hold remembered at most; past holds go first, then the earliest to end. */
const MAX_HOLDS = 100_000;

/** Per host, the latest hold this process has set (Retry-After, backoff). */
export class HostHolds {
  private readonly holds = new Map<string, number>();

  constructor(private readonly maxHosts = MAX_HOLDS) {}

  /** No request to the host may start before `until`. Returns the host's hold now. */
  hold(hostKey: string, until: number, now: number): number {
    const held = raisedHold(this.current(hostKey, now), until);
    if (held <= now) return held;
    if (!this.holds.has(hostKey) && this.holds.size >= this.maxHosts) this.evict(now);
    this.holds.set(hostKey, held);
    return held;
  }

  /** The clock a settle of a request to this host should set (see `settledReadyAt`). */
  readyAt(hostKey: string, proposed: number | undefined, now: number): number | undefined {
    return settledReadyAt(proposed, this.current(hostKey, now), now);
  }

  /** The hold in force at `now`, if any. */
  current(hostKey: string, now: number): number | undefined {
    const held = this.holds.get(hostKey);
    if (held === undefined) return undefined;
    if (held > now) return held;
    this.holds.delete(hostKey);
    return undefined;
  }

  get size(): number {
    return this.holds.size;
  }

  private evict(now: number): void {
    for (const [key, held] of this.holds) if (held <= now) this.holds.delete(key);
    if (this.holds.size < this.maxHosts) return;
    let earliest: string | undefined;
    let earliestAt = Infinity;
    for (const [key, held] of this.holds) {
      if (held < earliestAt) {
        earliest = key;
        earliestAt = held;
      }
    }
    if (earliest !== undefined) this.holds.delete(earliest);
  }
}
