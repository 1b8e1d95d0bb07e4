// Splits a robots.txt byte string into numbered lines exactly as the reference parser does
// (google/robotstxt robots.cc, RobotsTxtParser::Parse):
// - a UTF-8 BOM, whole or partial (EF, EF BB, EF BB BF), is skipped at the very start only;
// - LF, CR and CRLF each end a line ("\r\n" is one break, "\r\r" two); the last line is
//   always emitted, so a file ending in a newline has an empty last line;
// - a line keeps at most MAX_LINE_BYTES bytes; the rest of that line is dropped.

/** 2083 (a common URL length limit) × 8, less the reference's terminating NUL. */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

const BOM = [0xef, 0xbb, 0xbf] as const;
const LF = 0x0a;
const CR = 0x0d;

export interface RawLine {
  /** 1-based line number, counted as the reference counts it. */
  readonly number: number;
  /** The line's bytes, cut at MAX_LINE_BYTES. */
  readonly bytes: string;
  /** True when the line was longer than MAX_LINE_BYTES and was cut. */
  readonly tooLong: boolean;
}

/** Number of BOM bytes at the start of `bytes` that the reference skips. */
export function bomLength(bytes: string): number {
  let n = 0;
  while (n < BOM.length && n < bytes.length && bytes.charCodeAt(n) === BOM[n]) n++;
  return n;
}

/**
 * Visits every line in order without building a list: `parseRobotsTxt` runs over 500 KiB files
 * and should allocate little more than the strings it keeps.
 */
export function forEachLine(bytes: string, visit: (line: string, number: number, tooLong: boolean) => void): void {
  let start = bomLength(bytes);
  let lastWasCR = false;
  let lineNumber = 0;
  const length = bytes.length;
  for (let i = start; i < length; i++) {
    const ch = bytes.charCodeAt(i);
    if (ch !== LF && ch !== CR) continue;
    const isCrlfContinuation = i === start && lastWasCR && ch === LF;
    if (!isCrlfContinuation) emit(++lineNumber, start, i);
    start = i + 1;
    lastWasCR = ch === CR;
  }
  emit(++lineNumber, start, length);

  function emit(number: number, from: number, to: number): void {
    const tooLong = to - from > MAX_LINE_BYTES;
    visit(bytes.slice(from, tooLong ? from + MAX_LINE_BYTES : to), number, tooLong);
  }
}

export function tokenizeLines(bytes: string): RawLine[] {
  const lines: RawLine[] = [];
  forEachLine(bytes, (line, number, tooLong) => lines.push({ number, bytes: line, tooLong }));
  return lines;
}
