// `toLowerCase` without a copy for what is lowercase already: V8 (Node 20) returns a new string
// even then, and header names, which undici gives lowercase, are lowercased for every response.

/** `value.toLowerCase()`, the same string when `value` has no upper-case ASCII and no non-ASCII character. */
export function lowercased(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code >= 0x41 && code <= 0x5a) || code > 0x7f) return value.toLowerCase();
  }
  return value;
}
