// The URLs the commands take (crawl seeds, robots explain and batch URLs, sitemap list targets):
// absolute, http or https, as the WHATWG URL parser reads them.

/** `text` parsed, if it is an absolute http(s) URL; otherwise null. */
export function parseHttpUrl(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}
