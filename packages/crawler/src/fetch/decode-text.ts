// Body bytes → text, by the charset the response declares (Content-Type, then <meta charset>),
// UTF-8 otherwise. An unknown or lying label never throws: bad bytes become U+FFFD.

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i;
const HEADER_CHARSET = /charset\s*=\s*"?([^";\s]+)/i;

export function charsetOf(contentType: string | undefined, head: Uint8Array): string | undefined {
  const fromHeader = contentType === undefined ? undefined : HEADER_CHARSET.exec(contentType)?.[1];
  if (fromHeader !== undefined) return fromHeader;
  const prefix = new TextDecoder('latin1').decode(head.subarray(0, 1024));
  return META_CHARSET.exec(prefix)?.[1];
}

export function decodeText(body: Uint8Array, contentType: string | undefined): string {
  const label = charsetOf(contentType, body) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
