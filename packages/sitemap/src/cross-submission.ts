// Cross-submission (sitemaps.org, "Sitemaps & Cross Submits"): a sitemap declared in the
// robots.txt of several origins may list URLs on every one of them. The declarations arrive in
// any order — from each origin's discovery, while the sitemap is queued, being read, or read, in
// this worker or another one sharing the store — so this process keeps what it has seen here
// (not only in the sitemap's frontier entry, which dedupe gives the first declarer alone):
// - `declaredFor(sitemap)`: every origin known here to declare it (or an index that lists it);
// - `mayHold(origin)`: a URL on a crawl origin whose discovery has not run here is not judged out
//   of scope at once: it is held, as an entry of its own in the store (held-urls.ts), which waits
//   for that origin's robots.txt like any URL of the host, so that whichever worker claims it
//   lets it in if the origin declared the sitemap, and a worker killed meanwhile loses nothing.

export class CrossSubmissions {
  /** Crawl origins whose discovery has not run in this process. */
  private readonly undiscovered = new Set<string>();
  /** Sitemap URL → origins that declared it. */
  private readonly declared = new Map<string, Set<string>>();
  /** Child sitemap URL → the index that listed it (its declarers are the child's too). */
  private readonly listedBy = new Map<string, string>();

  /** A new crawl: the origins whose discovery is queued. */
  reset(origins: readonly string[]): void {
    this.undiscovered.clear();
    this.declared.clear();
    this.listedBy.clear();
    for (const origin of origins) this.undiscovered.add(origin);
  }

  /** `origin`'s robots.txt declares `sitemaps`. */
  discovered(origin: string, sitemaps: readonly string[]): void {
    this.undiscovered.delete(origin);
    for (const sitemap of sitemaps) {
      let origins = this.declared.get(sitemap);
      if (origins === undefined) this.declared.set(sitemap, (origins = new Set()));
      origins.add(origin);
    }
  }

  /** `child` was listed by the index `index`: whoever declared the index declared it too. */
  listed(child: string, index: string): void {
    if (child !== index && !this.listedBy.has(child)) this.listedBy.set(child, index);
  }

  /** The origins `sitemap` may list URLs on: those its entry carries, and every declaration known. */
  declaredFor(sitemap: string, fromEntry: readonly string[]): string[] {
    const origins = new Set(fromEntry);
    const seen = new Set<string>();
    for (let url: string | undefined = sitemap; url !== undefined && !seen.has(url); url = this.listedBy.get(url)) {
      seen.add(url);
      for (const origin of this.declared.get(url) ?? []) origins.add(origin);
    }
    return [...origins];
  }

  /**
   * Whether a URL on `origin` outside a sitemap's scope as known here is held for the origin's
   * robots.txt: the origin is one of the crawl's, and its discovery has not run in this process
   * (in another worker it may have: the held entry reads the origin's robots.txt itself).
   */
  mayHold(origin: string): boolean {
    return this.undiscovered.has(origin);
  }
}
