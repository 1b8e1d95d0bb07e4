// The tail of a dataset's outputs, held by one writer at a time, first come first served: a
// page from its first push until it commits (its records lie together at the end of every
// output), or one round of records pushed outside a handler. See dataset.ts for why.

export class TailLock {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  /** Resolves, once the tail is this caller's, with the function that hands it on. */
  async acquire(): Promise<() => void> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The next holder takes it over directly, so no one can cut in between.
      if (next === undefined) this.held = false;
      else next();
    };
  }
}
