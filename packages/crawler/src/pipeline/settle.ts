// The only code that ends a lease and moves a host's clock: from an outcome's value.
//
// `clock.readyAt` paces the host after this request; `clock.handBackTo` hands the claim's clock
// back when no request was made; `clock.notBefore` holds it (a Retry-After, a backoff). The store keeps each host's latest hold
// and never sets its clock before it, whoever settles next: another request of this process, or
// of another worker sharing the store (@politely/frontier, SettleOptions). So a pace never undoes
// a hold, here or elsewhere. This process's own record of holds (politeness/host-clock.ts) adds
// what the store cannot know yet: a hold met by a request whose handler still runs.

import type {
  AddOptions,
  AddOutcome,
  CompleteOptions,
  CompletionClaimRequest,
  FrontierLease,
  FrontierStore,
  SettleOptions,
} from '@politely/frontier';
import { postponed } from '../frontier/revisit-schedule.js';
import {
  type ClockChange,
  HostHolds,
  HostSendTurns,
  type SendTicket,
  type SharedSendTurnSettings,
  SharedSendTurns,
} from '../politeness/index.js';
import { failureOf, settlementOf, type UrlOutcome } from './outcome.js';

/**
 * Who takes the slot a completed URL frees, when the store can claim in the completion's own
 * round trip (`FrontierStore.completeAndClaim`): the claim loop (claim-loop.ts).
 */
export interface SlotSuccessor {
  /** The claim to make with the completion, or undefined when the slot is not to be filled now. */
  claimForSettle(): CompletionClaimRequest | undefined;
  /** Dispatches the lease so claimed, at once (its walk waits for its `startAt`). */
  dispatchClaimed(lease: FrontierLease): void;
}

export class LeaseSettler {
  /** Set once the claim loop exists (see `SlotSuccessor`); without it, completions claim nothing. */
  successor: SlotSuccessor | undefined;

  private readonly holds = new HostHolds();
  /**
   * Per host, the latest pace a request of this process started or answered asks for (its start
   * or answer plus the delay), and the order its requests go out in. With several requests in
   * flight at a host (`perHostConcurrency` > 1, or a rendered page's sub-requests), the one that
   * settles last need not be the one that started last: no settle may pace the host before the
   * latest of them.
   */
  private readonly paces = new HostSendTurns();

  /** Above per-host concurrency 1, with a store that has send turns: every worker's requests go out one at a time. */
  private readonly sharedSends: SharedSendTurns | undefined;

  /**
   * `perHostConcurrency`: requests the store lets one host have in flight. Above 1 another claim
   * of the host may have moved its clock since this one, and handing this claim's clock back
   * would undo that claim's turn: the clock then stays as the claims set it.
   */
  constructor(
    private readonly store: FrontierStore,
    private readonly perHostConcurrency: number,
    /** The frontier's options for adding a done page's links (`maxPerHost`). */
    private readonly addOptions: AddOptions = {},
    /** How the store's send turns are held (see `SharedSendTurns`); omitted, they are not taken. */
    sendTurns?: Omit<SharedSendTurnSettings, 'store'>,
  ) {
    const { takeSendTurn, endSendTurn } = store;
    this.sharedSends =
      perHostConcurrency > 1 && sendTurns !== undefined && takeSendTurn !== undefined && endSendTurn !== undefined
        ? new SharedSendTurns(this.paces, {
            ...sendTurns,
            store: { takeSendTurn: takeSendTurn.bind(store), endSendTurn: endSendTurn.bind(store) },
          })
        : undefined;
  }

  /** The hold on the host this process knows of at `now`, if any. */
  heldUntil(hostKey: string, now: number): number | undefined {
    return this.holds.current(hostKey, now);
  }

  /** Records that a request to the host starts or was answered: the host's clock must not go before `readyAt`. */
  notePace(hostKey: string, readyAt: number | undefined, now: number): void {
    if (readyAt !== undefined) this.paces.raise(hostKey, readyAt, now);
  }

  /** The latest pace noted for the host (`notePace`), or a hold this process knows, while still ahead of `now`. */
  paceOf(hostKey: string, now: number): number | undefined {
    const pace = this.paces.paceOf(hostKey, now);
    const hold = this.holds.current(hostKey, now);
    return pace === undefined ? hold : hold === undefined ? pace : Math.max(pace, hold);
  }

  /**
   * Waits for this process's turn to send a request to the host: its pace and holds have come,
   * and no earlier request to it is still unwritten (politeness/send-turns.ts); above per-host
   * concurrency 1, then the store's send turn, shared by every worker (shared-send-turns.ts).
   * Undefined when a signal fires first.
   */
  takeSendTurn(
    hostKey: string,
    delayMs: () => number,
    signals: readonly AbortSignal[],
  ): Promise<SendTicket | undefined> {
    const notBefore = (now: number): number | undefined => this.holds.current(hostKey, now);
    if (this.sharedSends !== undefined) return this.sharedSends.take(hostKey, delayMs, signals, notBefore);
    return this.paces.take(hostKey, delayMs, signals, notBefore);
  }

  /** Records a hold the moment it is known (the response is in), before the URL settles. */
  noteHold(hostKey: string, clock: ClockChange, now: number): void {
    if (clock.notBefore !== undefined) this.holds.hold(hostKey, clock.notBefore, now);
  }

  /**
   * Ends the lease as the outcome says; a done URL's links are stored in the same step. Resolves
   * with the store's answer for each of `outcome.links` (empty without any).
   */
  async settle(lease: FrontierLease, outcome: UrlOutcome, now = Date.now()): Promise<AddOutcome[]> {
    const options = this.settleOptions(lease.entry.hostKey, outcome.clock, now);
    switch (settlementOf(outcome)) {
      case 'release':
        await this.store.release(lease.id, options);
        return [];
      case 'retry':
        await this.store.retry(lease.id, options);
        return [];
      case 'complete': {
        const links = outcome.kind === 'done' || outcome.kind === 'failed' ? (outcome.links ?? []) : [];
        // A revisit that fetched nothing keeps its memory, due again from now: a crawl revisits
        // a URL once (reopenDue takes only URLs due before the crawl began).
        const revisit = lease.entry.revisit;
        const lastFetch =
          outcome.kind === 'done' && outcome.lastFetch !== undefined
            ? outcome.lastFetch
            : revisit === undefined
              ? undefined
              : postponed(revisit, now);
        const failure = failureOf(lease.entry, outcome, now);
        // Fields set one by one on the settle's own fresh options: spreading `{}` or `{ field }`
        // for each would allocate objects per page.
        const completion: Mutable<CompleteOptions> = options;
        if (links.length > 0) {
          completion.add = links;
          completion.addOptions = this.addOptions;
        }
        if (lastFetch !== undefined) completion.lastFetch = lastFetch;
        if (failure !== undefined) completion.failure = failure;
        return this.complete(lease, completion);
      }
    }
  }

  /** The completion, and with a store that can, the claim for the slot it frees, in one round trip. */
  private async complete(lease: FrontierLease, completion: CompleteOptions): Promise<AddOutcome[]> {
    const { store, successor } = this;
    if (store.completeAndClaim !== undefined && successor !== undefined) {
      const claim = successor.claimForSettle();
      if (claim !== undefined) {
        const { outcomes, next } = await store.completeAndClaim(lease.id, completion, claim);
        if (next !== null) successor.dispatchClaimed(next);
        return outcomes;
      }
    }
    return store.complete(lease.id, completion);
  }

  /**
   * What a settle tells the store: the pace asked for, and the host's hold in this process
   * (raised to the outcome's own first). Every settle sends the hold, so the store hears it from
   * whichever request to the host settles first. The pace is raised to the hold here too, for a
   * store that keeps no holds of its own (one written before `hostNotBefore`).
   */
  private settleOptions(hostKey: string, clock: ClockChange, now: number): Mutable<SettleOptions> {
    this.noteHold(hostKey, clock, now);
    const hostNotBefore = this.holds.current(hostKey, now);
    const handBack = this.perHostConcurrency === 1 ? clock.handBackTo : undefined;
    const readyAt = this.paces.readyAt(hostKey, this.holds.readyAt(hostKey, clock.readyAt ?? handBack, now), now);
    // A fresh object for each settle: `settle` adds a completion's fields to it.
    const options: Mutable<SettleOptions> = {};
    if (readyAt !== undefined) options.hostReadyAt = readyAt;
    if (hostNotBefore !== undefined) options.hostNotBefore = hostNotBefore;
    return options;
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
