// One percent-encoding form for rule paths and URLs, so that they compare byte for byte
// (test/conformance/README.md rule 3; RFC 9309 2.2.2; RFC 3986 6.2.2):
// `%xx` hex is upper-cased and `%xx` of an unreserved character is decoded, on both sides.

const HEX = '0123456789ABCDEF';

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** RFC 3986 unreserved: A-Z a-z 0-9 - . _ ~ */
export function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}

export function percentEncodeByte(code: number): string {
  return '%' + HEX[code >> 4]! + HEX[code & 0xf]!;
}

/**
 * If `s[i]` starts a `%xx` escape, returns its normal form (decoded when unreserved, else
 * `%XX`); otherwise null.
 */
export function normalEscapeAt(s: string, i: number): string | null {
  if (s.charCodeAt(i) !== 0x25 || i + 2 >= s.length) return null;
  const high = hexValue(s.charCodeAt(i + 1));
  const low = hexValue(s.charCodeAt(i + 2));
  if (high < 0 || low < 0) return null;
  const code = high * 16 + low;
  return isUnreserved(code) ? String.fromCharCode(code) : '%' + HEX[high]! + HEX[low]!;
}

/**
 * Whether the `%` at `s[i]`, two characters before the end at least, is in normal form already:
 * an escape in upper-case hex of a reserved byte, or no escape at all (a lone `%` is kept as it is).
 */
function isNormalEscapeAt(s: string, i: number): boolean {
  const highCode = s.charCodeAt(i + 1);
  const lowCode = s.charCodeAt(i + 2);
  const high = hexValue(highCode);
  const low = hexValue(lowCode);
  if (high < 0 || low < 0) return true;
  return !isUnreserved(high * 16 + low) && highCode === HEX.charCodeAt(high) && lowCode === HEX.charCodeAt(low);
}

/** Whether every `%xx` escape in `s[from, to)` is in normal form: normalising that range changes nothing. */
export function hasNormalEscapes(s: string, from = 0, to = s.length): boolean {
  for (let i = s.indexOf('%', from); i !== -1 && i < to; i = s.indexOf('%', i + 1)) {
    // An escape must end inside the range: one cut by `to` is not an escape of the range.
    if (i + 2 < to && !isNormalEscapeAt(s, i)) return false;
  }
  return true;
}

/** Normalises every `%xx` escape in an already-encoded path (the URL side). */
export function normalizeEscapes(path: string): string {
  // Most paths have no escape, or only normal ones (`%3A`): they are returned as they are,
  // without a new string.
  if (hasNormalEscapes(path)) return path;
  let out = '';
  let last = 0;
  for (let i = path.indexOf('%'); i !== -1; i = path.indexOf('%', i + 1)) {
    const normal = normalEscapeAt(path, i);
    if (normal === null) continue;
    out += path.slice(last, i) + normal;
    last = i + 3;
    i += 2;
  }
  return out + path.slice(last);
}
