// The dedupe keys this worker has seen the crawl hold, so that a page's links the crawl already
// knows (a site's navigation, on every one of its pages) are answered 'duplicate' without being
// sent: fewer bytes, fewer arguments built, fewer lookups in Redis.
//
// Redis forgets a dedupe key only when the crawl is cleared (`clear()`, by any worker). Each
// bucket counts its clears (its generation, `g` in its META hash); a key is remembered with the
// generation this worker believed its bucket had when the key's script was sent. A link is left
// out of a script only on its own page's bucket, whose completion goes there anyway, and that
// script carries the generation the worker believes: when Redis holds another one, the script
// changes nothing and says so, and the worker learns the new generation and sends every link.
//
// Why that is enough. Belief only ever rises to what Redis answered, and generations only rise:
// at a key's send, belief ≤ the generation its script ran in. A key is left out only when its
// remembered generation is today's belief, which the script checks is Redis's generation now.
// So the key's script ran in today's generation: no clear since, and the key is still held.

// The keys are kept in two maps, as a two-generation cache: new keys go to `recent`; when it is
// full it becomes `older` and the keys of the one before are forgotten. A key met in `older`
// moves back to `recent`. Unlike a strict LRU, a hit in `recent` (most of them) reorders
// nothing: a page's known links cost a Map lookup each.

export class KnownUrls {
  /** Dedupe key → the generation its bucket was believed to have when it was learnt. */
  private recent = new Map<string, number>();
  private older = new Map<string, number>();
  /** Keys `recent` takes before it turns older: half the capacity, so at most `capacity` in all (2 for 1). */
  private readonly half: number;
  /** The generation believed for each bucket (0 until Redis says otherwise). */
  private readonly generations: number[];

  /** @param capacity keys remembered at most (0: none, every link is sent). */
  constructor(
    readonly capacity: number,
    buckets: number,
  ) {
    this.half = Math.max(1, Math.floor(capacity / 2));
    this.generations = new Array<number>(buckets).fill(0);
  }

  /** The generation this worker believes bucket `b` has. */
  generationOf(b: number): number {
    return this.generations[b]!;
  }

  /** What Redis said bucket `b`'s generation is (an answer that arrives late never lowers it). */
  learnGeneration(b: number, generation: number): void {
    if (generation > this.generations[b]!) this.generations[b] = generation;
  }

  /** Whether `key`, of bucket `b`, was held by the crawl in the generation believed now. */
  holds(key: string, b: number): boolean {
    const generation = this.generations[b];
    const recent = this.recent.get(key);
    if (recent !== undefined) return recent === generation;
    const older = this.older.get(key);
    if (older === undefined) return false;
    this.remember(key, older);
    return older === generation;
  }

  /** `key` is held by the crawl, as a script sent while its bucket was believed in `generation` said. */
  remember(key: string, generation: number): void {
    if (this.capacity === 0) return;
    if (!this.recent.has(key) && this.recent.size >= this.half) {
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(key, generation);
  }

  /** Keys remembered now (at most `capacity`; a key may be in both maps, counted once per map). */
  get size(): number {
    return this.recent.size + this.older.size;
  }

  clear(): void {
    this.recent.clear();
    this.older.clear();
  }
}
