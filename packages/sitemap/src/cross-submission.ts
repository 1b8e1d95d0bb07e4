// Cross-submission (sitemaps.org, "Sitemaps & Cross Submits"): a sitemap declared in the
// robots.txt of several origins may list URLs on every one of them. The declarations arrive in
// any order — from each origin's discovery, while the sitemap is queued, being read, or read —
// so the crawl keeps them here, not only in the sitemap's frontier entry (which dedupe gives the
// first declarer alone):
// - `declaredFor(sitemap)`: every origin known so far to declare it (or an index that lists it);
// - a URL on an origin whose discovery has not run yet is held, not judged out of scope: when
//   that origin's robots.txt is read, the URL is let in if it declared the sitemap, and skipped
//   (`sitemap-scope`) if not; whatever is still held when the crawl ends is skipped then.
// Memory: the held URLs of files read before their declarers' discovery (each file capped by
// maxUrlsPerFile). Held URLs live in this process: a crawl killed meanwhile reads the sitemap's
// file again only if it was not done.

import type { SitemapUrlRecord } from './options.js';

/** A URL a sitemap listed on an origin whose declarations are not known yet. */
export interface HeldUrl {
  readonly record: SitemapUrlRecord;
  readonly sitemapUrl: string;
}

export class CrossSubmissions {
  /** Origins whose discovery has not run. */
  private readonly undiscovered = new Set<string>();
  /** Sitemap URL → origins that declared it. */
  private readonly declared = new Map<string, Set<string>>();
  /** Child sitemap URL → the index that listed it (its declarers are the child's too). */
  private readonly listedBy = new Map<string, string>();
  /** Origin → URLs held for it. */
  private readonly held = new Map<string, HeldUrl[]>();

  /** A new crawl: the origins whose discovery is queued. */
  reset(origins: readonly string[]): void {
    this.undiscovered.clear();
    this.declared.clear();
    this.listedBy.clear();
    this.held.clear();
    for (const origin of origins) this.undiscovered.add(origin);
  }

  /**
   * `origin`'s robots.txt declares `sitemaps`. Returns the URLs held for the origin: `admitted`
   * (a sitemap it declared listed them, directly or through an index) and `refused`.
   */
  discovered(origin: string, sitemaps: readonly string[]): { admitted: HeldUrl[]; refused: HeldUrl[] } {
    this.undiscovered.delete(origin);
    for (const sitemap of sitemaps) {
      let origins = this.declared.get(sitemap);
      if (origins === undefined) this.declared.set(sitemap, (origins = new Set()));
      origins.add(origin);
    }
    const held = this.held.get(origin) ?? [];
    this.held.delete(origin);
    const admitted: HeldUrl[] = [];
    const refused: HeldUrl[] = [];
    for (const url of held) (this.declaredFor(url.sitemapUrl, []).includes(origin) ? admitted : refused).push(url);
    return { admitted, refused };
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

  /** Holds a URL outside the sitemap's scope as known so far, if its origin may still declare it. */
  hold(origin: string, url: HeldUrl): boolean {
    if (!this.undiscovered.has(origin)) return false;
    let list = this.held.get(origin);
    if (list === undefined) this.held.set(origin, (list = []));
    list.push(url);
    return true;
  }

  /** The crawl ended: every URL still held (its origin's discovery never ran). */
  drain(): HeldUrl[] {
    const all = [...this.held.values()].flat();
    this.held.clear();
    return all;
  }
}
