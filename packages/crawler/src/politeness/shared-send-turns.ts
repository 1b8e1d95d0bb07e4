// Send turns shared by every worker of a store, above per-host concurrency 1.
//
// This process's requests to a host already go out one at a time, each paced from the moment
// the one before it was written (send-turns.ts). Other workers' requests are not seen here: a
// request that took its time between claim and wire (robots.txt, a wait for a connection, a busy
// event loop) could reach the server closer than the delay to another worker's. So, once this
// process gives a request its turn, the request also takes the host's send turn in the store
// (`FrontierStore.takeSendTurn`), and ends it when its head is written: the store then paces the
// host's next request, from any worker, from that moment. The local turn comes first so that
// requests of one process contend here, not in store round trips.

import { randomBytes } from 'node:crypto';
import type { FrontierStore } from '@politely/frontier';
import { sleepUntil } from './host-turn.js';
import type { HostSendTurns, SendTicket } from './send-turns.js';

/** As in send-turns.ts: the server's clock is finer than `Date.now()`. */
const CLOCK_GRAIN_MS = 1;

export interface SharedSendTurnSettings {
  readonly store: Required<Pick<FrontierStore, 'takeSendTurn' | 'endSendTurn'>>;
  /**
   * The longest a request may take to be written once it has its turn (its timeouts): the store
   * holds the turn that long at most, so a worker that dies holding it blocks the host no longer.
   */
  readonly busyForMs: number;
  /** A store failure while ending a turn (the turn then runs out at its `busyUntil`). */
  readonly onError: (error: unknown) => void;
}

export class SharedSendTurns {
  /** With a counter, names this process's turns uniquely across workers. */
  private readonly nonce = randomBytes(6).toString('base64url');
  private turns = 0;

  constructor(
    private readonly local: HostSendTurns,
    private readonly settings: SharedSendTurnSettings,
  ) {}

  /**
   * This process's turn at the host (`HostSendTurns.take`), then the store's. Undefined when a
   * signal fires first (the local turn is given back).
   */
  async take(
    hostKey: string,
    delayMs: () => number,
    signals: readonly AbortSignal[],
    notBefore?: (now: number) => number | undefined,
  ): Promise<SendTicket | undefined> {
    const local = await this.local.take(hostKey, delayMs, signals, notBefore);
    if (local === undefined) return undefined;
    // Without a delay there is no gap to keep between requests, so nothing to share: no store
    // round trips (the store still bounds the requests in flight through the claims).
    if (delayMs() <= 0) return local;
    const turnId = `${this.nonce}.${(++this.turns).toString(36)}`;
    let granted: boolean;
    try {
      granted = await this.takeFromStore(hostKey, turnId, signals);
    } catch (error) {
      await local.end(Date.now());
      throw error;
    }
    if (!granted) {
      await local.end(Date.now());
      return undefined;
    }
    return this.ticket(hostKey, turnId, delayMs, local);
  }

  /** Asks the store until it grants the host's send turn; false when a signal fires first. */
  private async takeFromStore(hostKey: string, turnId: string, signals: readonly AbortSignal[]): Promise<boolean> {
    const { store, busyForMs } = this.settings;
    for (;;) {
      if (signals.some((signal) => signal.aborted)) return false;
      const now = Date.now();
      const turn = await store.takeSendTurn(hostKey, { turnId, now, busyUntil: now + busyForMs });
      if (turn.granted) return true;
      await sleepUntil(turn.retryAt, signals);
    }
  }

  /** The local ticket, and the store's turn ended with it: once, when written or when over. */
  private ticket(hostKey: string, turnId: string, delayMs: () => number, local: SendTicket): SendTicket {
    let ended: Promise<void> | undefined;
    const sent = (at: number): void => {
      if (ended !== undefined) return;
      local.sent(at);
      ended = this.settings.store
        .endSendTurn(hostKey, { turnId, readyAt: at + CLOCK_GRAIN_MS + delayMs() })
        .catch((error: unknown) => this.settings.onError(error));
    };
    return {
      sent,
      end: async (now) => {
        sent(now);
        await local.end(now);
        await ended;
      },
    };
  }
}
