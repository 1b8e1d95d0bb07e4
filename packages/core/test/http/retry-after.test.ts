import { parseHttpDate as exportedParseHttpDate, retryAfterMs as exportedRetryAfterMs } from '@politely/core';
import { describe, expect, it } from 'vitest';
import { parseHttpDate, retryAfterMs } from '../../src/http/retry-after.js';

const NOW = Date.UTC(2026, 10, 22, 0, 0, 0); // Sun, 22 Nov 2026 00:00:00 GMT
const SECOND = 1000;

describe('retryAfterMs (RFC 9110 10.2.3)', () => {
  it('is the one exported from @politely/core', () => {
    expect(exportedRetryAfterMs).toBe(retryAfterMs);
    expect(exportedParseHttpDate).toBe(parseHttpDate);
  });

  it('reads delay-seconds (1*DIGIT)', () => {
    expect(retryAfterMs('120', NOW)).toBe(120 * SECOND);
    expect(retryAfterMs('0', NOW)).toBe(0);
    expect(retryAfterMs('007', NOW)).toBe(7 * SECOND);
    expect(retryAfterMs('86400', NOW)).toBe(86_400 * SECOND);
  });

  it('drops the field value’s own leading and trailing whitespace (SP, HTAB) only', () => {
    expect(retryAfterMs(' 5', NOW)).toBe(5 * SECOND);
    expect(retryAfterMs('5 ', NOW)).toBe(5 * SECOND);
    expect(retryAfterMs('\t5 \t', NOW)).toBe(5 * SECOND);
    expect(retryAfterMs('\n5', NOW)).toBeUndefined();
    expect(retryAfterMs('5\u00a0', NOW)).toBeUndefined();
    expect(retryAfterMs('1 2', NOW)).toBeUndefined();
  });

  it('ignores what is not delay-seconds or an HTTP-date', () => {
    for (const value of [
      undefined,
      null,
      '',
      '   ',
      'Abc -3', // Date.parse reads this as a date
      '-3',
      '+3',
      '1.5',
      '1e3',
      '0x10',
      '5s',
      '5, 6',
      'soon',
      'Nov 6 1994', // Date.parse reads this too
      '2026-11-22T00:00:30Z', // ISO 8601 is not an HTTP-date
      'Sun, 22 Nov 2026 00:00:30 GMT, Sun, 22 Nov 2026 00:00:40 GMT',
    ]) {
      expect(retryAfterMs(value, NOW), String(value)).toBeUndefined();
    }
  });

  it('reads an IMF-fixdate as a wait from now', () => {
    expect(retryAfterMs('Sun, 22 Nov 2026 00:00:30 GMT', NOW)).toBe(30 * SECOND);
    expect(retryAfterMs('Mon, 23 Nov 2026 00:00:00 GMT', NOW)).toBe(86_400 * SECOND);
    expect(retryAfterMs(new Date(NOW + 2 * SECOND).toUTCString(), NOW)).toBe(2 * SECOND);
    // Relative to `now`, to the millisecond (an HTTP-date has whole seconds).
    expect(retryAfterMs('Sun, 22 Nov 2026 00:00:02 GMT', NOW + 250)).toBe(1750);
  });

  it('reads the obsolete RFC 850 and asctime forms (recipients must accept them)', () => {
    expect(retryAfterMs('Sunday, 22-Nov-26 00:00:30 GMT', NOW)).toBe(30 * SECOND);
    expect(retryAfterMs('Sun Nov 22 00:00:30 2026', NOW)).toBe(30 * SECOND);
    expect(retryAfterMs('Tue Dec  1 00:00:00 2026', NOW)).toBe(9 * 86_400 * SECOND);
  });

  it('takes a date already past as now (0)', () => {
    expect(retryAfterMs('Sat, 21 Nov 2026 23:59:59 GMT', NOW)).toBe(0);
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(0);
    expect(retryAfterMs('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(0);
    expect(retryAfterMs('Sun Nov  6 08:49:37 1994', NOW)).toBe(0);
  });

  it('does not cap a long wait (callers cap it), but keeps it a safe integer', () => {
    expect(retryAfterMs('31536000', NOW)).toBe(31_536_000 * SECOND);
    expect(retryAfterMs('9'.repeat(30), NOW)).toBe(Number.MAX_SAFE_INTEGER);
    expect(retryAfterMs('9'.repeat(400), NOW)).toBe(Number.MAX_SAFE_INTEGER);
    expect(retryAfterMs('Fri, 31 Dec 9999 23:59:59 GMT', NOW)).toBe(Date.UTC(9999, 11, 31, 23, 59, 59) - NOW);
  });
});

describe('parseHttpDate (RFC 9110 5.6.7)', () => {
  const RFC_EXAMPLE = Date.UTC(1994, 10, 6, 8, 49, 37);

  it('reads the three forms of the RFC’s example alike', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(RFC_EXAMPLE);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(RFC_EXAMPLE);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994', NOW)).toBe(RFC_EXAMPLE);
  });

  it('places an RFC 850 two-digit year no more than 50 years ahead of now', () => {
    expect(parseHttpDate('Friday, 01-Jan-76 00:00:00 GMT', NOW)).toBe(Date.UTC(2076, 0, 1));
    expect(parseHttpDate('Saturday, 01-Jan-77 00:00:00 GMT', NOW)).toBe(Date.UTC(1977, 0, 1));
    expect(parseHttpDate('Saturday, 01-Jan-00 00:00:00 GMT', NOW)).toBe(Date.UTC(2000, 0, 1));
    // Near the end of a century, a small two-digit year is the next century's.
    expect(parseHttpDate('Monday, 01-Jan-05 00:00:00 GMT', Date.UTC(2090, 0, 1))).toBe(Date.UTC(2105, 0, 1));
  });

  it('reads a leap second and years before 100 exactly', () => {
    expect(parseHttpDate('Wed, 31 Dec 2008 23:59:60 GMT', NOW)).toBe(Date.UTC(2009, 0, 1));
    expect(parseHttpDate('Sat, 01 Jan 0050 00:00:00 GMT', NOW)).toBe(new Date(0).setUTCFullYear(50, 0, 1));
  });

  it('refuses anything off the grammar', () => {
    for (const value of [
      'sun, 06 Nov 1994 08:49:37 GMT', // case-sensitive
      'Sun, 06 nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 08:49:37 gmt',
      'Sun, 06 Nov 1994 08:49:37 UTC',
      'Sun, 06 Nov 1994 08:49:37 +0000',
      'Sun, 6 Nov 1994 08:49:37 GMT', // IMF-fixdate's day has two digits
      'Sun,  06 Nov 1994 08:49:37 GMT',
      'Sun 06 Nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 94 08:49:37 GMT',
      'Sun, 06 Nov 1994 8:49:37 GMT',
      'Sun, 06 Nov 1994 08:49 GMT',
      'Sun, 31 Feb 1994 08:49:37 GMT', // no such day
      'Sun, 00 Nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 24:00:00 GMT',
      'Sun, 06 Nov 1994 08:60:00 GMT',
      'Sun, 06 Nov 1994 08:49:61 GMT',
      'Sunday, 06-Nov-1994 08:49:37 GMT', // RFC 850 has a two-digit year
      'Sun, 06-Nov-94 08:49:37 GMT', // and a long day name
      'Sun Nov 6 08:49:37 1994', // asctime pads a one-digit day with a space
      'Sun Nov 06 08:49:37 94',
      'Abc, 06 Nov 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 08:49:37 GMT ',
    ]) {
      expect(parseHttpDate(value, NOW), value).toBeUndefined();
    }
  });
});
