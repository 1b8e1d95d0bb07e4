// One robots.txt line → a directive (key + value), as the reference parser reads it
// (robots.cc GetKeyAndValueFrom and ParsedRobotsKey::Parse), plus what a linter wants to know.

export type DirectiveName = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'crawl-delay' | 'unknown';

interface DirectiveSpelling {
  readonly name: Exclude<DirectiveName, 'unknown'>;
  /** The spelling of the standard. */
  readonly canonical: string;
  /** Misspellings accepted as the reference accepts them. */
  readonly typos: readonly string[];
}

/**
 * Keys are matched case-insensitively by prefix, in this order (the reference's order:
 * `allowed:` is read as `allow`, and `disallow` is tested after `allow` without clash).
 * `crawl-delay` is an extension the reference ignores; it never affects allow/disallow.
 */
export const DIRECTIVE_SPELLINGS: readonly DirectiveSpelling[] = [
  { name: 'user-agent', canonical: 'user-agent', typos: ['useragent', 'user agent'] },
  { name: 'allow', canonical: 'allow', typos: [] },
  { name: 'disallow', canonical: 'disallow', typos: ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'] },
  { name: 'sitemap', canonical: 'sitemap', typos: ['site-map'] },
  { name: 'crawl-delay', canonical: 'crawl-delay', typos: ['crawldelay', 'crawl delay'] },
];

export interface Directive {
  readonly name: DirectiveName;
  /** The key as written (whitespace stripped). */
  readonly key: string;
  /** The value as written (whitespace stripped), still a byte string. */
  readonly value: string;
  /** The key was an accepted misspelling (`dissallow`, `useragent`, …). */
  readonly typo: boolean;
  /** Whitespace stood in for the colon (`disallow /x`). */
  readonly missingColon: boolean;
}

export interface LineShape {
  readonly directive: Directive | null;
  readonly hasComment: boolean;
  /** The line held a NUL byte; as in the reference, the line ends there. */
  readonly hasNul: boolean;
  /** Nothing but whitespace and comments. */
  readonly isBlank: boolean;
}

// absl::ascii_isspace: space, \t, \n, \v, \f, \r.
function isAsciiSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

function strip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isAsciiSpace(s.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

// The missing-colon rule only knows space and tab (robots.cc kWhite).
function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function indexOfBlank(s: string, from = 0): number {
  for (let i = from; i < s.length; i++) if (isBlank(s.charCodeAt(i))) return i;
  return -1;
}

export function classifyKey(key: string): { name: DirectiveName; typo: boolean } {
  const lower = key.toLowerCase();
  for (const spelling of DIRECTIVE_SPELLINGS) {
    if (lower.startsWith(spelling.canonical)) return { name: spelling.name, typo: false };
    for (const typo of spelling.typos) {
      if (lower.startsWith(typo)) return { name: spelling.name, typo: true };
    }
  }
  return { name: 'unknown', typo: false };
}

/** Reads one line (a byte string) the way the reference parser does. */
export function readLine(bytes: string): LineShape {
  let line = bytes;
  const nul = line.indexOf('\0');
  const hasNul = nul !== -1;
  if (hasNul) line = line.slice(0, nul);
  const hash = line.indexOf('#');
  const hasComment = hash !== -1;
  if (hasComment) line = line.slice(0, hash);
  line = strip(line);
  if (line.length === 0) return { directive: null, hasComment, hasNul, isBlank: true };
  return { directive: splitKeyValue(line), hasComment, hasNul, isBlank: false };
}

function splitKeyValue(line: string): Directive | null {
  let separator = line.indexOf(':');
  let missingColon = false;
  if (separator === -1) {
    // Google: people forget the colon, so whitespace may stand in for it, but only when the
    // line is exactly two runs of non-whitespace ("disallow /x", not "disallow /x /y").
    separator = indexOfBlank(line);
    if (separator === -1) return null;
    let valueStart = separator;
    while (valueStart < line.length && isBlank(line.charCodeAt(valueStart))) valueStart++;
    if (indexOfBlank(line, valueStart) !== -1) return null;
    missingColon = true;
  }
  const key = strip(line.slice(0, separator));
  if (key.length === 0) return null;
  const value = strip(line.slice(separator + 1));
  const { name, typo } = classifyKey(key);
  return { name, key, value, typo, missingColon };
}
