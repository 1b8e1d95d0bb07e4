// Crawler-trap heuristic for the frontier (PURE): flags URLs from endless URL spaces (relative
// links that repeat path segments, ever-growing query strings, calendars that link the next
// month forever) so they are skipped with a reason. It runs for every discovered link, so the
// options are validated once, and a check is a few linear passes over the path and the query:
// no RegExps, and at most one split and one small Map per part.

import { PolitelyError } from '@politely/core';

/** How far ahead and behind a calendar page's date may be before its URL is taken for a crawler trap. */
export interface TrapCalendarOptions {
  /**
   * Years after the current year that a calendar page may be dated. `Infinity` allows any.
   * @default 2
   */
  readonly yearsAhead?: number;
  /**
   * Years before the current year that a calendar page may be dated. `Infinity` allows any.
   * @default 20
   */
  readonly yearsBehind?: number;
}

/**
 * Limits that keep a crawl out of crawler traps (the `trapDetection` option): path depth, repeated
 * segments, query size, calendar pages.
 */
export interface TrapDetectionOptions {
  /**
   * Most path segments a URL may have. `Infinity` means no limit.
   * @default 32
   */
  readonly maxPathSegments?: number;
  /**
   * Times a run of 1–3 path segments may repeat back to back (`/a/a/a/` and `/a/b/a/b/a/b/`
   * repeat 3 times). `Infinity` means no limit.
   * @default 2
   */
  readonly maxConsecutiveRepeats?: number;
  /**
   * Times one path segment may occur anywhere in the path. `Infinity` means no limit.
   * @default 3
   */
  readonly maxSegmentOccurrences?: number;
  /**
   * Most query parameters (empty pieces, as in `a=1&&b=2`, are not counted). `Infinity` means
   * no limit.
   * @default 32
   */
  readonly maxQueryParams?: number;
  /**
   * Times one query parameter name may occur. `Infinity` means no limit.
   * @default 3
   */
  readonly maxQueryParamRepeats?: number;
  /**
   * Longest query string (after `?`), in characters. `Infinity` means no limit.
   * @default 1024
   */
  readonly maxQueryLength?: number;
  /**
   * Calendar pages: a date-only URL whose year is more than `yearsAhead` after, or more than
   * `yearsBehind` before, the current (UTC) year. Date-only means the path ends in a date
   * (`/YYYY/MM`, `/YYYY/MM/DD`, `/YYYY-MM`, `/YYYY-MM-DD`, `/YYYYMMDD`; month and day two
   * digits) or a query value is one (`date=YYYY-MM-DD`, `month=YYYY-MM`; the bare `YYYYMMDD`
   * form only in a parameter named like a date: `d`, `from`, `…date…`, `…day…`), or a 4-digit
   * year in a parameter named like a year (`yr`, `…year`; not `y`, a coordinate as often). A date followed
   * by a slug (`/YYYY/MM/DD/story`) is an article, not a calendar page. `false` turns calendar
   * detection off.
   * @default { yearsAhead: 2, yearsBehind: 20 }
   */
  readonly calendar?: false | TrapCalendarOptions;
  /**
   * The clock for "the current year", in epoch milliseconds (tests pin it). Read only when a
   * URL holds a date.
   * @default Date.now
   */
  readonly now?: () => number;
}

/** Options with every default filled in and validated: resolve once, reuse for every URL. */
export interface ResolvedTrapDetection {
  readonly maxPathSegments: number;
  readonly maxConsecutiveRepeats: number;
  readonly maxSegmentOccurrences: number;
  readonly maxQueryParams: number;
  readonly maxQueryParamRepeats: number;
  readonly maxQueryLength: number;
  /** null when calendar detection is off. */
  readonly calendar: { readonly yearsAhead: number; readonly yearsBehind: number } | null;
  readonly now: () => number;
}

/**
 * Validates `options` once and fills every default; `false` turns detection off (null).
 * Throws `ERR_INVALID_OPTION` (message starting `trapDetection: `) for bad values.
 */
export function resolveTrapDetection(options: TrapDetectionOptions | false | undefined): ResolvedTrapDetection | null {
  if (options === false) return null;
  const opts = options === undefined ? {} : options;
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) {
    throw invalidOption(`options must be an object or false, got ${describeValue(opts)}`);
  }
  const now = opts.now === undefined ? Date.now : opts.now;
  if (typeof now !== 'function') throw invalidOption(`now must be a function, got ${describeValue(now)}`);
  return Object.freeze({
    maxPathSegments: limitOption('maxPathSegments', opts.maxPathSegments, 32),
    maxConsecutiveRepeats: limitOption('maxConsecutiveRepeats', opts.maxConsecutiveRepeats, 2),
    maxSegmentOccurrences: limitOption('maxSegmentOccurrences', opts.maxSegmentOccurrences, 3),
    maxQueryParams: limitOption('maxQueryParams', opts.maxQueryParams, 32),
    maxQueryParamRepeats: limitOption('maxQueryParamRepeats', opts.maxQueryParamRepeats, 3),
    maxQueryLength: limitOption('maxQueryLength', opts.maxQueryLength, 1024),
    calendar: resolveCalendar(opts.calendar),
    now,
  });
}

function resolveCalendar(calendar: TrapDetectionOptions['calendar']): ResolvedTrapDetection['calendar'] {
  if (calendar === false) return null;
  const cal = calendar === undefined ? {} : calendar;
  if (typeof cal !== 'object' || cal === null || Array.isArray(cal)) {
    throw invalidOption(`calendar must be an object or false, got ${describeValue(cal)}`);
  }
  return Object.freeze({
    yearsAhead: yearsOption('calendar.yearsAhead', cal.yearsAhead, 2),
    yearsBehind: yearsOption('calendar.yearsBehind', cal.yearsBehind, 20),
  });
}

/**
 * Why `url` looks like a trap, or null. `url` is expected canonical (escapes normalised) but any
 * URL is answered without throwing. The first reason found is reported: query length, then the
 * path (segment count, repeats, occurrences, calendar), then the rest of the query (parameter
 * count, repeated names, calendar).
 */
export function detectTrap(url: URL, detection: ResolvedTrapDetection): string | null {
  const search = url.search; // '' for no query and for a bare '?'
  const queryLength = search.length === 0 ? 0 : search.length - 1;
  if (queryLength > detection.maxQueryLength) {
    return `query string is ${queryLength} characters, more than ${detection.maxQueryLength}`;
  }
  const clock: Clock = { now: detection.now, year: undefined };
  return checkPath(url.pathname, detection, clock) ?? (queryLength === 0 ? null : checkQuery(search, detection, clock));
}

/** The current year, read from the clock at most once per URL and only when a date is found. */
interface Clock {
  readonly now: () => number;
  year: number | undefined;
}

function currentYear(clock: Clock): number {
  clock.year ??= new Date(clock.now()).getUTCFullYear();
  return clock.year;
}

// --- path ----------------------------------------------------------------------------------

function checkPath(pathname: string, detection: ResolvedTrapDetection, clock: Clock): string | null {
  // Segments follow the leading '/'; a trailing '/' closes the last one instead of opening an
  // empty one, but empty segments inside (`/a//b`) are kept: they are how `//` loops repeat.
  const start = pathname.charCodeAt(0) === 0x2f ? 1 : 0;
  if (pathname.length <= start) return null; // '/': no segment at all
  let end = pathname.length;
  if (pathname.charCodeAt(end - 1) === 0x2f) end--;
  // Counted before splitting, so an over-long path costs no allocation.
  let count = 1;
  for (let i = pathname.indexOf('/', start); i !== -1 && i < end; i = pathname.indexOf('/', i + 1)) count++;
  if (count > detection.maxPathSegments) {
    return `path has ${count} segments, more than ${detection.maxPathSegments}`;
  }
  // A short path (the common link) repeats nothing: only a date at its end could flag it.
  const repeatsPossible = count > detection.maxConsecutiveRepeats || count > detection.maxSegmentOccurrences;
  if (!repeatsPossible && (detection.calendar === null || !mayEndInDate(pathname, start, end))) return null;
  const segments = pathname.slice(start, end).split('/');
  return (
    consecutiveRepeats(segments, detection.maxConsecutiveRepeats) ??
    segmentOccurrences(segments, detection.maxSegmentOccurrences) ??
    (detection.calendar === null ? null : calendarPathTail(segments, detection.calendar, clock))
  );
}

/**
 * Whether the segments of `pathname[start, end)` could end in a date (`calendarPathTail`), read
 * in place: a date segment starts with a digit, and a two-character one (a month or a day) needs
 * a segment before it that starts with a digit too (its year or month).
 */
function mayEndInDate(pathname: string, start: number, end: number): boolean {
  const lastAt = Math.max(start, pathname.lastIndexOf('/', end - 1) + 1);
  if (lastAt >= end || !isDigitCode(pathname.charCodeAt(lastAt))) return false;
  if (end - lastAt !== 2) return true;
  if (lastAt === start) return false; // one segment: no year or month before it
  const beforeAt = Math.max(start, pathname.lastIndexOf('/', lastAt - 2) + 1);
  return beforeAt < lastAt - 1 && isDigitCode(pathname.charCodeAt(beforeAt));
}

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * A block of k = 1…3 segments repeated more than `maxRepeats` times back to back. For each k,
 * `run` counts consecutive positions i with segments[i] === segments[i - k]: a run of m such
 * positions is floor((m + k) / k) copies of the block, so more than `maxRepeats` copies means
 * m ≥ maxRepeats·k. O(3n) comparisons of (usually short) strings.
 */
function consecutiveRepeats(segments: readonly string[], maxRepeats: number): string | null {
  const n = segments.length;
  for (let k = 1; k <= 3; k++) {
    if (n < (maxRepeats + 1) * k) break; // Not room for one copy too many (Infinity: never).
    const needed = maxRepeats * k;
    let run = 0;
    for (let i = k; i < n; i++) {
      if (segments[i] !== segments[i - k]) {
        run = 0;
        continue;
      }
      if (++run < needed) continue;
      // Report the whole run, not just the copy that crossed the limit.
      let stop = i + 1;
      while (stop < n && segments[stop] === segments[stop - k]) {
        stop++;
        run++;
      }
      const first = stop - run - k;
      const times = Math.floor((run + k) / k);
      return k === 1
        ? `path segment ${quote(segments[first]!)} repeated ${times} times in a row`
        : `path segments ${quote(segments.slice(first, first + k).join('/'))} repeated ${times} times in a row`;
    }
  }
  return null;
}

function segmentOccurrences(segments: readonly string[], maxOccurrences: number): string | null {
  if (segments.length <= maxOccurrences) return null; // No Map for the common short path.
  const counts = new Map<string, number>();
  let over: string | undefined;
  for (const segment of segments) {
    const count = (counts.get(segment) ?? 0) + 1;
    counts.set(segment, count);
    if (over === undefined && count > maxOccurrences) over = segment;
  }
  return over === undefined ? null : `path segment ${quote(over)} occurs ${counts.get(over)!} times`;
}

/** The path ends in a date, and only a date: `/2031/05`, `/2031/05/17`, or one dated segment. */
function calendarPathTail(
  segments: readonly string[],
  calendar: NonNullable<ResolvedTrapDetection['calendar']>,
  clock: Clock,
): string | null {
  const n = segments.length;
  const last = segments[n - 1]!;
  let date: string;
  if (last.length === 2) {
    const before = n >= 2 ? segments[n - 2]! : '';
    const yearFirst = n >= 3 ? segments[n - 3]! : '';
    if (isYearSegment(yearFirst) && isMonthSegment(before) && isDaySegment(last))
      date = `${yearFirst}-${before}-${last}`;
    else if (isYearSegment(before) && isMonthSegment(last)) date = `${before}-${last}`;
    else return null;
  } else {
    if (!isDate(last)) return null;
    date = formatDate(last);
  }
  return yearOutOfRange(digitsValue(date, 0, 4), `calendar date ${date}`, calendar, clock);
}

// --- query ---------------------------------------------------------------------------------

/**
 * One pass over the `&`-separated pieces of `search` ('?…'): counts, repeated names and dated
 * values are all collected, then reported in that order. Names and values are compared as
 * written (the canonical form has normalised their escapes), so a malformed escape is just text.
 */
function checkQuery(search: string, detection: ResolvedTrapDetection, clock: Clock): string | null {
  const { maxQueryParams, maxQueryParamRepeats, calendar } = detection;
  let params = 0;
  let firstName: string | undefined;
  let counts: Map<string, number> | undefined; // Made on the second parameter: most queries have one.
  let overName: string | undefined;
  let calendarReason: string | null = null;
  for (let at = 1; at <= search.length; ) {
    const amp = search.indexOf('&', at);
    const stop = amp === -1 ? search.length : amp;
    if (stop > at) {
      params++;
      const eq = search.indexOf('=', at);
      const nameEnd = eq === -1 || eq > stop ? stop : eq;
      const name = search.slice(at, nameEnd);
      if (maxQueryParamRepeats !== Number.POSITIVE_INFINITY) {
        if (firstName === undefined) {
          firstName = name; // Once can't be too often: maxQueryParamRepeats is at least 1.
        } else {
          counts ??= new Map([[firstName, 1]]);
          const count = (counts.get(name) ?? 0) + 1;
          counts.set(name, count);
          if (overName === undefined && count > maxQueryParamRepeats) overName = name;
        }
      }
      if (calendar !== null && calendarReason === null && nameEnd < stop) {
        calendarReason = calendarQueryValue(search, name, nameEnd + 1, stop, calendar, clock);
      }
    }
    at = stop + 1;
  }
  if (params > maxQueryParams) return `query has ${params} parameters, more than ${maxQueryParams}`;
  if (overName !== undefined) {
    return `query parameter ${quote(overName)} occurs ${counts!.get(overName)!} times`;
  }
  return calendarReason;
}

/** A value that is a date (any parameter), or a 4-digit year in a parameter named like a year. */
function calendarQueryValue(
  search: string,
  name: string,
  from: number,
  to: number,
  calendar: NonNullable<ResolvedTrapDetection['calendar']>,
  clock: Clock,
): string | null {
  const length = to - from;
  // Only a value of a date's length is sliced out: a long value costs nothing here.
  if (length === 4) {
    if (digitsValue(search, from, 4) === -1 || !isYearName(name)) return null;
    const year = search.slice(from, to);
    return yearOutOfRange(
      digitsValue(year, 0, 4),
      `calendar year ${year} in query parameter ${quote(name)}`,
      calendar,
      clock,
    );
  }
  if (length !== 7 && length !== 8 && length !== 10) return null;
  // Eight bare digits are as often an id (`?id=12340101`) as a date: only date-named parameters.
  if (length === 8 && !isDateName(name)) return null;
  const value = search.slice(from, to);
  if (!isDate(value)) return null;
  const date = formatDate(value);
  return yearOutOfRange(
    digitsValue(date, 0, 4),
    `calendar date ${date} in query parameter ${quote(name)}`,
    calendar,
    clock,
  );
}

/** `yr`, or a name ending in `year` (`startYear`, `from_year`), in any case. (Not `y`: a map coordinate as often as a year.) */
function isYearName(name: string): boolean {
  if (name.length > 32) return false;
  const lower = name.toLowerCase();
  return lower === 'yr' || lower.endsWith('year');
}

const DATE_NAMES = new Set(['d', 'from', 'to', 'start', 'end', 'since', 'until', 'on', 'at']);

/** A name that holds a date: `date`, `day`, `startDate`, `from`, … in any case. */
function isDateName(name: string): boolean {
  if (name.length > 32) return false;
  const lower = name.toLowerCase();
  return lower.includes('date') || lower.includes('day') || DATE_NAMES.has(lower);
}

// --- dates ---------------------------------------------------------------------------------

function yearOutOfRange(
  year: number,
  what: string,
  calendar: NonNullable<ResolvedTrapDetection['calendar']>,
  clock: Clock,
): string | null {
  const current = currentYear(clock);
  // A clock giving NaN (an invalid Date) compares false both ways: no calendar verdict.
  if (year - current > calendar.yearsAhead) return `${what} is more than ${plural(calendar.yearsAhead, 'year')} ahead`;
  if (current - year > calendar.yearsBehind)
    return `${what} is more than ${plural(calendar.yearsBehind, 'year')} behind`;
  return null;
}

/**
 * A whole-string `YYYY-MM`, `YYYY-MM-DD` or `YYYYMMDD`: any four-digit year (traps run on to
 * 9999 and back to 0001), month 01–12, day 01–31.
 */
function isDate(s: string): boolean {
  switch (s.length) {
    case 7:
      return digitsValue(s, 0, 4) !== -1 && s.charCodeAt(4) === 0x2d && isMonthAt(s, 5);
    case 8:
      return digitsValue(s, 0, 4) !== -1 && isMonthAt(s, 4) && isDayAt(s, 6);
    case 10:
      return (
        digitsValue(s, 0, 4) !== -1 &&
        s.charCodeAt(4) === 0x2d &&
        isMonthAt(s, 5) &&
        s.charCodeAt(7) === 0x2d &&
        isDayAt(s, 8)
      );
    default:
      return false;
  }
}

/** A date accepted by `isDate`, written `YYYY-MM` or `YYYY-MM-DD`. */
function formatDate(s: string): string {
  return s.length === 8 ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6)}` : s;
}

function isYearSegment(s: string): boolean {
  return s.length === 4 && digitsValue(s, 0, 4) !== -1;
}

function isMonthSegment(s: string): boolean {
  return s.length === 2 && isMonthAt(s, 0);
}

function isDaySegment(s: string): boolean {
  return s.length === 2 && isDayAt(s, 0);
}

/** Two digits 01–12 at `at`. */
function isMonthAt(s: string, at: number): boolean {
  const value = digitsValue(s, at, 2);
  return value >= 1 && value <= 12;
}

/** Two digits 01–31 at `at`. */
function isDayAt(s: string, at: number): boolean {
  const value = digitsValue(s, at, 2);
  return value >= 1 && value <= 31;
}

/** The value of `count` ASCII digits at `at`, or -1 when any is missing or not a digit. */
function digitsValue(s: string, at: number, count: number): number {
  if (at + count > s.length) return -1;
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = s.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

// --- options and messages ------------------------------------------------------------------

function limitOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 1)) return value;
  throw invalidOption(`${name} must be a positive integer or Infinity, got ${describeValue(value)}`);
}

function yearsOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 0)) return value;
  throw invalidOption(`${name} must be a non-negative integer or Infinity, got ${describeValue(value)}`);
}

function invalidOption(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', `trapDetection: ${message}`);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined)
    return String(value);
  return typeof value;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A segment or name for a message: quoted, and cut short so a huge one keeps the message small. */
function quote(s: string): string {
  return `'${s.length > 60 ? s.slice(0, 60) + '…' : s}'`;
}
