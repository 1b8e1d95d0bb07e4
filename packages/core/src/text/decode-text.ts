// Body bytes → text, by the charset the response declares (a byte order mark, then the
// Content-Type header, then <meta charset>), UTF-8 otherwise. An unknown or lying label never
// throws: bad bytes become U+FFFD. The crawler and @politely/content decode through this one
// function, so a page's text is the same wherever it is read.

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i;
const HEADER_CHARSET = /charset\s*=\s*"?([^";\s]+)/i;

/** The charset a byte order mark names, if the bytes start with one. */
function bomCharset(head: Uint8Array): string | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** The charset of a body: its byte order mark, the header's `charset`, or the first KiB's `<meta charset>`. */
export function charsetOf(contentType: string | undefined, head: Uint8Array): string | undefined {
  const fromBom = bomCharset(head);
  if (fromBom !== undefined) return fromBom;
  const fromHeader = contentType === undefined ? undefined : HEADER_CHARSET.exec(contentType)?.[1];
  if (fromHeader !== undefined) return fromHeader;
  const prefix = new TextDecoder('latin1').decode(head.subarray(0, 1024));
  return META_CHARSET.exec(prefix)?.[1];
}

/** Decodes a body as text (see `charsetOf`); the byte order mark is dropped. */
export function decodeText(body: Uint8Array, contentType: string | undefined): string {
  const label = charsetOf(contentType, body) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
