// Which URLs a sitemap may list (sitemaps.org, "Sitemap file location"), and the data a sitemap
// entry carries through the frontier. Pure.

/** The plugin data of a `sitemap` frontier entry (plain JSON, so a durable store keeps it). */
export interface SitemapEntryData {
  /** Index nesting: 0 for a declared sitemap, 1 for a sitemap its index lists, … */
  readonly depth: number;
  /** Origins whose robots.txt declared the sitemap (or its index): its URLs may lie anywhere on them. */
  readonly declaredFor: readonly string[];
  /** Queued as a guess (`/sitemap.xml` with no `Sitemap:` line): a miss is no error. */
  readonly guessed?: boolean;
  /** The indexes that listed it, nearest first (a declaration of any of them declares it). */
  readonly via?: readonly string[];
}

/** Reads an entry's data defensively: it may come back from a durable store, or from a user's own enqueue. */
export function sitemapEntryDataOf(data: Readonly<Record<string, unknown>> | undefined): SitemapEntryData {
  const depth = data?.['depth'];
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  const via = strings(data?.['via']);
  return {
    depth: typeof depth === 'number' && Number.isInteger(depth) && depth >= 0 ? depth : 0,
    declaredFor: strings(data?.['declaredFor']),
    ...(data?.['guessed'] === true ? { guessed: true } : {}),
    ...(via.length > 0 ? { via } : {}),
  };
}

/** Plain JSON for the frontier. */
export function sitemapEntryData(data: SitemapEntryData): Record<string, unknown> {
  return {
    depth: data.depth,
    declaredFor: [...data.declaredFor],
    ...(data.guessed === true ? { guessed: true } : {}),
    ...(data.via === undefined || data.via.length === 0 ? {} : { via: [...data.via] }),
  };
}

export interface SitemapScope {
  /** Whether the sitemap may list `url`. */
  allows(url: URL): boolean;
  /** For messages: what the sitemap may list. */
  readonly description: string;
}

/**
 * A sitemap at `http://example.com/catalog/sitemap.xml` may list URLs under
 * `http://example.com/catalog/` (same scheme, host and port), and any URL of an origin whose
 * robots.txt declared it (cross-submission).
 */
export function sitemapScopeOf(sitemapUrl: string, declaredFor: readonly string[]): SitemapScope {
  const sitemap = new URL(sitemapUrl);
  const directory = sitemap.pathname.slice(0, sitemap.pathname.lastIndexOf('/') + 1);
  const origins = new Set(declaredFor);
  const base = `${sitemap.origin}${directory}`;
  return {
    allows: (url) => origins.has(url.origin) || (url.origin === sitemap.origin && url.pathname.startsWith(directory)),
    description: origins.has(sitemap.origin)
      ? `on ${[...origins].join(', ')}`
      : origins.size === 0
        ? `under ${base}`
        : `under ${base} or on ${[...origins].join(', ')}`,
  };
}
