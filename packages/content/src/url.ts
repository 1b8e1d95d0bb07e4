// URLs of a page made absolute: against <base href> (itself resolved against the page URL) or the
// page URL. A URL that does not parse, or whose scheme is not one a reader can follow, is null.

const FOLLOWED = new Set(['http:', 'https:', 'mailto:', 'ftp:', 'file:', 'tel:']);

export function absoluteUrl(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    return FOLLOWED.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** The base URL of a page: its <base href> resolved against its URL, or its URL. */
export function baseUrlOf(pageUrl: string, baseHref: string | null): string {
  if (baseHref === null) return pageUrl;
  const resolved = absoluteUrl(baseHref, pageUrl);
  return resolved ?? pageUrl;
}
