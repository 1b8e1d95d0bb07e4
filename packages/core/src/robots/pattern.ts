// Rule patterns: how a rule value is encoded, and how an encoded pattern matches a path.

import { normalEscapeAt, percentEncodeByte } from './percent-encoding.js';

// Bytes a WHATWG URL serialiser percent-encodes in a path of an http(s) URL, and in its query
// (test/conformance/README.md rule 3). Controls, DEL and non-ASCII are encoded everywhere.
const ENCODE_IN_PATH = new Set([0x20, 0x22, 0x3c, 0x3e, 0x60, 0x7b, 0x7d]);
const ENCODE_IN_QUERY = new Set([0x20, 0x22, 0x3c, 0x3e, 0x27]);
/** Any byte that encodeRulePattern might change: '%', controls, space, the sets above, DEL, non-ASCII. */
const NEEDS_ENCODING = /[\x00-\x20"%'<>`{}\x7f-\xff]/;

/**
 * Encodes an allow/disallow value (a byte string) into the form URLs are compared in.
 * `*` and `$` keep their meaning; `%2A` and `%24` stay literal.
 */
export function encodeRulePattern(value: string): string {
  // Most rules are plain ASCII paths: nothing to encode, nothing to allocate.
  if (!NEEDS_ENCODING.test(value)) return value;
  let out = '';
  let inQuery = false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x25) {
      const normal = normalEscapeAt(value, i);
      if (normal !== null) {
        out += normal;
        i += 2;
        continue;
      }
    }
    if (code === 0x3f) inQuery = true;
    const encode = code < 0x20 || code >= 0x7f || (inQuery ? ENCODE_IN_QUERY.has(code) : ENCODE_IN_PATH.has(code));
    out += encode ? percentEncodeByte(code) : value[i];
  }
  return out;
}

const enum Shape {
  /** No wildcard: the pattern is a prefix of the path. */
  Prefix,
  /** Only a final `$`: the pattern is the whole path. */
  Exact,
  /** `*` wildcards, perhaps a final `$`. */
  Glob,
}

/**
 * A pattern compiled once, matched many times. Matching is linear in practice and never
 * backtracks: patterns are written by strangers, and `/*a*a*a*a*a*b` must not explode.
 * For `*`-only globs anchored at the start, taking the leftmost occurrence of each literal
 * segment in turn is exact (a later occurrence can only leave less room for what follows);
 * with a final `$`, the last segment must sit at the very end.
 */
export class CompiledPattern {
  readonly source: string;
  /** The match priority: the pattern's length in bytes (the reference's rule). */
  readonly priority: number;
  /** The literal text every matching path starts with (a cheap first test). */
  readonly prefix: string;
  private readonly shape: Shape;
  private readonly segments: readonly string[];
  private readonly anchoredEnd: boolean;

  constructor(source: string) {
    this.source = source;
    this.priority = source.length;
    this.anchoredEnd = source.endsWith('$');
    const body = this.anchoredEnd ? source.slice(0, -1) : source;
    this.segments = body.split('*');
    this.prefix = this.segments[0]!;
    this.shape = this.segments.length > 1 ? Shape.Glob : this.anchoredEnd ? Shape.Exact : Shape.Prefix;
  }

  matches(path: string): boolean {
    if (!path.startsWith(this.prefix)) return false;
    if (this.shape === Shape.Prefix) return true;
    if (this.shape === Shape.Exact) return path.length === this.prefix.length;
    return this.matchesGlob(path);
  }

  private matchesGlob(path: string): boolean {
    const segments = this.segments;
    const last = segments.length - 1;
    let position = this.prefix.length;
    for (let i = 1; i < last; i++) {
      const segment = segments[i]!;
      const found = path.indexOf(segment, position);
      if (found === -1) return false;
      position = found + segment.length;
    }
    const tail = segments[last]!;
    if (this.anchoredEnd) return path.length - tail.length >= position && path.endsWith(tail);
    return path.indexOf(tail, position) !== -1;
  }
}
