// Which responses are parsed for links: HTML only. PURE.

const HTML_MEDIA_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Whether a `Content-Type` value names an HTML document (`text/html` or `application/xhtml+xml`),
 * ignoring case, whitespace and parameters (`text/html; charset=utf-8`). A missing header is not
 * HTML: the crawler does not sniff bodies.
 */
export function isHtmlContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  const mediaType = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return HTML_MEDIA_TYPES.has(mediaType);
}
