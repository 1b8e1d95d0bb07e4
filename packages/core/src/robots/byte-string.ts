// robots.txt is processed as a "byte string": one UTF-16 code unit per input byte (0–255).
// The reference parser works on raw bytes (its line cap counts bytes, it percent-encodes each
// byte of a non-ASCII rule, a file in Latin-1 keeps its bytes), so we do too; text meant for
// people is decoded back to UTF-8 at the edge with `byteStringToText`.

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const CHUNK = 8192;

export interface ByteStringInput {
  /** The bytes kept, one char per byte. */
  readonly bytes: string;
  /** Size of the whole input in bytes, before any cap. */
  readonly totalBytes: number;
}

/** Converts a robots.txt body into a byte string, keeping at most `maxBytes` bytes. */
export function toByteString(input: string | Uint8Array, maxBytes: number): ByteStringInput {
  if (typeof input === 'string') {
    if (ASCII_ONLY.test(input)) {
      return { bytes: input.length > maxBytes ? input.slice(0, maxBytes) : input, totalBytes: input.length };
    }
    input = new TextEncoder().encode(input);
  }
  const kept = input.length > maxBytes ? input.subarray(0, maxBytes) : input;
  return { bytes: bytesToByteString(kept), totalBytes: input.length };
}

function bytesToByteString(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return out;
}

/** True when every byte is ASCII (so the byte string is also the text). */
export function isAscii(bytes: string): boolean {
  return ASCII_ONLY.test(bytes);
}

/** Decodes a byte string as UTF-8 for display; invalid sequences become U+FFFD. */
export function byteStringToText(bytes: string): string {
  if (ASCII_ONLY.test(bytes)) return bytes;
  const buffer = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) buffer[i] = bytes.charCodeAt(i);
  return new TextDecoder('utf-8').decode(buffer);
}

/** True when the byte string is valid UTF-8 (used by the linter). */
export function isValidUtf8(bytes: string): boolean {
  if (ASCII_ONLY.test(bytes)) return true;
  const buffer = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) buffer[i] = bytes.charCodeAt(i);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer);
    return true;
  } catch {
    return false;
  }
}
