// Backpressure between writers and a buffer: writers wait while it is full, and are all woken
// each time it drains. One promise at a time, shared by every waiter.

export class RoomSignal {
  private room: { promise: Promise<void>; resolve: () => void } | undefined;

  /** Resolves the next time the buffer has room (`open`). */
  wait(): Promise<void> {
    if (this.room === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.room = { promise, resolve };
    }
    return this.room.promise;
  }

  /** The buffer has room again: wakes every waiter. */
  open(): void {
    const room = this.room;
    this.room = undefined;
    room?.resolve();
  }
}
