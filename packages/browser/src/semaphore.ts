// At most N pages open at once: a render waits for a slot, and gives up waiting when its signal
// fires or the session closes.

import { PolitelyError } from '@politely/core';

interface Waiter {
  grant(): void;
  fail(error: Error): void;
}

export class Semaphore {
  #free: number;
  readonly #waiters: Waiter[] = [];
  #closedWith: Error | undefined;

  constructor(slots: number) {
    this.#free = slots;
  }

  /** Resolves with a release function (idempotent) once a slot is free. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (this.#closedWith !== undefined) return Promise.reject(this.#closedWith);
    if (signal.aborted) return Promise.reject(abortedError());
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        reject(abortedError());
      };
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.#releaser());
        },
        fail: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** Fails every waiter and every later `acquire` with `error`. */
  close(error: Error): void {
    this.#closedWith = error;
    for (const waiter of this.#waiters.splice(0)) waiter.fail(error);
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next waiter, so no newcomer can overtake it.
      const next = this.#waiters.shift();
      if (next !== undefined) next.grant();
      else this.#free++;
    };
  }
}

function abortedError(): PolitelyError {
  return new PolitelyError('ERR_ABORTED', 'render aborted while waiting for a free page');
}
