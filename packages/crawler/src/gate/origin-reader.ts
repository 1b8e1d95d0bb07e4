// `url.origin` for a stream of http(s) URLs, most of them of the origin just before: Node builds
// the origin string anew on each read, and a page's links mostly share one origin.

/**
 * A reader of URL origins that reuses the last origin it gave while the URLs keep to it. An http(s)
 * URL whose serialisation starts with an origin and then `/` is of that origin: the origin holds
 * no `@` (so the URL has no userinfo) and no `/`, so its host and port are the URL's.
 */
export function createOriginReader(): (url: URL) => string {
  let last = '';
  return (url) => {
    const href = url.href;
    if (last !== '' && href.charCodeAt(last.length) === 0x2f /* / */ && href.startsWith(last)) return last;
    last = url.origin;
    return last;
  };
}
