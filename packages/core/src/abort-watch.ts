// Watching a long-lived AbortSignal (a crawl's) from many short-lived waits, without adding a
// listener to the signal for each.
//
// Why: Node's EventTarget keeps its listeners in a linked list, and a removed listener keeps its
// `next` and `previous` links. A crawl adds and removes one listener per request. Once an old
// listener has been promoted to V8's old generation, its stale links keep the next listener (and
// everything its closure holds: the request, its body, the page's text) alive through every young
// collection, until the next full GC: tens of KB a page promoted that should die young, and a
// peak heap several times the live one. One listener per signal, fanning out to a
// Set, leaves no stale links: a Set's deleted slot holds nothing.

type Watchers = Set<() => void>;

const watchersBySignal = new WeakMap<AbortSignal, Watchers>();

/**
 * Calls `onAbort` once when `signal` fires (at once, synchronously, if it already has). Returns
 * the function that stops watching; call it when the wait is over. Cheap to call per request: the
 * signal gets one listener however many watch it.
 */
export function watchAbort(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort();
    return unwatched;
  }
  let watchers = watchersBySignal.get(signal);
  if (watchers === undefined) {
    const created: Watchers = new Set();
    watchers = created;
    watchersBySignal.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        watchersBySignal.delete(signal);
        for (const watcher of created) watcher();
        created.clear();
      },
      { once: true },
    );
  }
  // A wrapper per watch: the same function may watch twice, and each stop removes its own.
  const watcher = (): void => onAbort();
  const set = watchers;
  set.add(watcher);
  return () => {
    set.delete(watcher);
  };
}

function unwatched(): void {}
