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

interface KeyClass {
  readonly name: DirectiveName;
  readonly typo: boolean;
}

// Keys repeat ("Disallow" thousands of times in a big file): remember how each spelling reads.
const KEY_CLASSES = new Map<string, KeyClass>();
const MAX_REMEMBERED_KEYS = 512;

export function classifyKey(key: string): KeyClass {
  let known = KEY_CLASSES.get(key);
  if (known === undefined) {
    known = classifyKeyText(key.toLowerCase());
    if (KEY_CLASSES.size < MAX_REMEMBERED_KEYS) KEY_CLASSES.set(key, known);
  }
  return known;
}

function classifyKeyText(lower: string): KeyClass {
  for (const spelling of DIRECTIVE_SPELLINGS) {
    if (lower.startsWith(spelling.canonical)) return { name: spelling.name, typo: false };
    for (const typo of spelling.typos) {
      if (lower.startsWith(typo)) return { name: spelling.name, typo: true };
    }
  }
  return { name: 'unknown', typo: false };
}

/** The directive on one line (a byte string), read the way the reference parser reads it. */
export function readDirective(bytes: string): Directive | null {
  let line = bytes;
  const nul = line.indexOf('\0');
  if (nul !== -1) line = line.slice(0, nul);
  const hash = line.indexOf('#');
  if (hash !== -1) line = line.slice(0, hash);
  line = strip(line);
  return line.length === 0 ? null : splitKeyValue(line);
}

/** A line's directive and what a linter wants to know about the line. */
export function readLine(bytes: string): LineShape {
  const nul = bytes.indexOf('\0');
  const beforeNul = nul === -1 ? bytes : bytes.slice(0, nul);
  const hash = beforeNul.indexOf('#');
  const directive = readDirective(bytes);
  const isBlank = directive === null && strip(hash === -1 ? beforeNul : beforeNul.slice(0, hash)).length === 0;
  return { directive, hasComment: hash !== -1, hasNul: nul !== -1, isBlank };
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
