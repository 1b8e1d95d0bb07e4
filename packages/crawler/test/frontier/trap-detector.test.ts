import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  detectTrap,
  type ResolvedTrapDetection,
  resolveTrapDetection,
  type TrapDetectionOptions,
} from '../../src/frontier/trap-detector.js';
import { expectInvalidOption as expectInvalidOptionError } from '../expect-invalid-option.js';

// Every calendar test runs in mid-2026 unless it says otherwise.
const NOW_2026 = Date.UTC(2026, 5, 15);

function resolve(options: TrapDetectionOptions = {}): ResolvedTrapDetection {
  const resolved = resolveTrapDetection({ now: () => NOW_2026, ...options });
  if (resolved === null) throw new Error('expected detection to be on');
  return resolved;
}

const DEFAULTS = resolve();

function trapOf(url: string, detection: ResolvedTrapDetection = DEFAULTS): string | null {
  return detectTrap(new URL(url, 'http://example.com/'), detection);
}

/** Every trap option error starts with 'trapDetection: ' and names the value. */
function expectInvalidOption(build: () => unknown, mentions: string): void {
  expectInvalidOptionError(build, 'trapDetection: ', mentions);
}

function segments(count: number, name: (i: number) => string = (i) => `s${i}`): string {
  return Array.from({ length: count }, (_, i) => '/' + name(i)).join('');
}

function params(count: number, pair: (i: number) => string = (i) => `p${i}=1`): string {
  return Array.from({ length: count }, (_, i) => pair(i)).join('&');
}

describe('detectTrap', () => {
  it.each([
    // Consecutive repeats of a block of 1, 2 or 3 segments.
    ['/a/a/a/', "path segment 'a' repeated 3 times in a row"],
    ['/x/a/a/a/a/y', "path segment 'a' repeated 4 times in a row"],
    ['/a/b/a/b/a/b/', "path segments 'a/b' repeated 3 times in a row"],
    ['/shop/a/b/a/b/a/b/a/item', "path segments 'a/b' repeated 3 times in a row"],
    ['/a/b/c/a/b/c/a/b/c', "path segments 'a/b/c' repeated 3 times in a row"],
    ['/a////b', "path segment '' repeated 3 times in a row"],
    // One segment too often, anywhere.
    ['/a/x/a/y/a/z/a', "path segment 'a' occurs 4 times"],
    ['/en/docs/en/guide/en/api/en', "path segment 'en' occurs 4 times"],
    // Too many segments.
    [segments(33), 'path has 33 segments, more than 32'],
    // Query: repeats, count, length.
    ['/s?q=a&q=a&q=a&q=a', "query parameter 'q' occurs 4 times"],
    ['/s?a=1&q&b=2&q=&q=1&q=2', "query parameter 'q' occurs 4 times"],
    ['/s?' + params(33), 'query has 33 parameters, more than 32'],
    ['/s?q=' + 'x'.repeat(1023), 'query string is 1025 characters, more than 1024'],
    // Calendars: path tails that are only a date.
    ['/calendar/2031/05', 'calendar date 2031-05 is more than 2 years ahead'],
    ['/calendar/2029/01', 'calendar date 2029-01 is more than 2 years ahead'],
    ['/calendar/2031/05/17/', 'calendar date 2031-05-17 is more than 2 years ahead'],
    ['/events/2031-05', 'calendar date 2031-05 is more than 2 years ahead'],
    ['/events/2031-05-17', 'calendar date 2031-05-17 is more than 2 years ahead'],
    ['/day/20310517', 'calendar date 2031-05-17 is more than 2 years ahead'],
    ['/2031/05?view=week', 'calendar date 2031-05 is more than 2 years ahead'],
    ['/archive/1990/01', 'calendar date 1990-01 is more than 20 years behind'],
    ['/calendar/0001/01/01', 'calendar date 0001-01-01 is more than 20 years behind'],
    ['/calendar/9999/12', 'calendar date 9999-12 is more than 2 years ahead'],
    // Calendars: query values.
    ['/c?date=2031-05-17', "calendar date 2031-05-17 in query parameter 'date' is more than 2 years ahead"],
    ['/c?view=month&month=2031-05', "calendar date 2031-05 in query parameter 'month' is more than 2 years ahead"],
    ['/c?from=20310517', "calendar date 2031-05-17 in query parameter 'from' is more than 2 years ahead"],
    ['/c?year=2031', "calendar year 2031 in query parameter 'year' is more than 2 years ahead"],
    ['/c?yr=9999', "calendar year 9999 in query parameter 'yr' is more than 2 years ahead"],
    ['/c?yr=0001', "calendar year 0001 in query parameter 'yr' is more than 20 years behind"],
    ['/c?startYear=1900', "calendar year 1900 in query parameter 'startYear' is more than 20 years behind"],
    [
      '/c?day=2026-05-17&next=2031-06-01',
      "calendar date 2031-06-01 in query parameter 'next' is more than 2 years ahead",
    ],
  ] as const)('%s is a trap: %s', (url, reason) => {
    expect(trapOf(url)).toContain(reason);
  });

  it.each([
    '/',
    '/?',
    '/?&&&',
    '/2024/05/17/some-story',
    '/en/docs/en/guide',
    '/a/b/c/d/e/f/g',
    '/products?page=2&sort=asc',
    '/search?q=a+b&page=3',
    '/p/1/2/3/4',
    '/files/2024-05-17-report.pdf',
    '/archive/2010/',
    '/archive/2010/01',
    '/blog/2005/03/12/old-story',
    '/?year=2025',
    '/calendar/2027/01',
    '/calendar/2028/12/31',
    '/calendar/2006/01',
    '/v1/v1/x',
    '/a/a/',
    '/a/b/a/b/',
    '/a/b/c/a/b/c',
    '/a//b',
    '/a/x/a/y/a',
    '/s?q=a&q=a&q=a',
    '/s?' + params(32),
    '/s?q=' + 'x'.repeat(1022),
    segments(32),
    // Dates that are not date-only, or not dates.
    '/calendar/2031/13',
    '/calendar/2031/00',
    '/calendar/2031/05/32',
    '/calendar/2031/5',
    '/item/203105',
    '/c?id=2031',
    '/c?date=2031-5-17',
    '/c?date=2031-05-17T00:00',
    '/c?x=1200&y=15000',
    '/c?x=10&y=1500',
    '/c?id=12340101',
    '/c?year=31',
  ])('%s is not a trap', (url) => {
    expect(trapOf(url)).toBeNull();
  });

  it('gives one reason: query length, then the path, then the rest of the query', () => {
    const url = segments(40, () => 'a') + '?' + params(40, () => 'q=1');
    expect(trapOf(url)).toBe('path has 40 segments, more than 32');
    expect(trapOf('/a/a/a/a?q&q&q&q')).toBe("path segment 'a' repeated 4 times in a row");
    expect(trapOf('/x?' + params(40, () => 'q=1'))).toBe('query has 40 parameters, more than 32');
    expect(trapOf('/2031/05?q&q&q&q')).toBe('calendar date 2031-05 is more than 2 years ahead');
    expect(trapOf('/2026/05?q&q&q&q')).toBe("query parameter 'q' occurs 4 times");
    expect(trapOf('/a/a/a?q=' + 'x'.repeat(1100))).toBe('query string is 1102 characters, more than 1024');
  });

  it('cuts a long segment or name short in the reason', () => {
    const long = 'x'.repeat(500);
    const reason = trapOf(`/${long}/${long}/${long}`);
    expect(reason).toMatch(/^path segment 'x+…' repeated 3 times in a row$/);
    expect(reason!.length).toBeLessThan(120);
  });

  it('counts repeats and occurrences as the limits say', () => {
    const strict = resolve({ maxConsecutiveRepeats: 1, maxSegmentOccurrences: 1, maxQueryParamRepeats: 1 });
    expect(trapOf('/a/a', strict)).toBe("path segment 'a' repeated 2 times in a row");
    expect(trapOf('/a/b/a/b', strict)).toBe("path segments 'a/b' repeated 2 times in a row");
    expect(trapOf('/a/b/a', strict)).toBe("path segment 'a' occurs 2 times");
    expect(trapOf('/?q=1&q=2', strict)).toBe("query parameter 'q' occurs 2 times");
    const loose = resolve({ maxConsecutiveRepeats: 4, maxSegmentOccurrences: 5 });
    expect(trapOf('/a/a/a/a', loose)).toBeNull();
    expect(trapOf('/a/a/a/a/a', loose)).toBe("path segment 'a' repeated 5 times in a row");
  });

  it('finds a date at the end of a short path, read without splitting it', () => {
    expect(trapOf('/2031/05')).toBe('calendar date 2031-05 is more than 2 years ahead');
    expect(trapOf('/2031/05/')).toBe('calendar date 2031-05 is more than 2 years ahead');
    expect(trapOf('/2031-05-17')).toBe('calendar date 2031-05-17 is more than 2 years ahead');
    for (const path of ['/05', '/pages/11', '/x/05', '//05', '/2031//05', '/05/', '/pages', '/11/x']) {
      expect(trapOf(path)).toBeNull();
    }
  });

  it('gives a short path the verdict it gets when every segment is read (fast-check)', () => {
    // With one occurrence allowed, a path of two distinct segments or more is always split.
    const readAll = resolve({ maxSegmentOccurrences: 1 });
    const segment = fc.constantFrom(
      '2031',
      '2026',
      '05',
      '17',
      '13',
      '2031-05',
      '2031-05-17',
      '20310517',
      'x',
      '1',
      '',
    );
    const path = fc
      .uniqueArray(segment, { minLength: 2, maxLength: 3 })
      .chain((parts) => fc.boolean().map((slash) => `/${parts.join('/')}${slash ? '/' : ''}`));
    fc.assert(
      fc.property(path, (p) => {
        expect(trapOf(p)).toBe(trapOf(p, readAll));
      }),
      { numRuns: 1000 },
    );
  });

  it('compares segments case-sensitively and as written', () => {
    expect(trapOf('/Page/page/PAGE/page')).toBeNull();
    expect(trapOf('/s?Q=1&q=1&Q=2&q=2&Q=3&q=3')).toBeNull();
    expect(trapOf('/%C3%A9/%C3%A9/%C3%A9')).toBe("path segment '%C3%A9' repeated 3 times in a row");
  });

  it('turns each check off with Infinity', () => {
    const off = resolve({
      maxPathSegments: Number.POSITIVE_INFINITY,
      maxConsecutiveRepeats: Number.POSITIVE_INFINITY,
      maxSegmentOccurrences: Number.POSITIVE_INFINITY,
      maxQueryParams: Number.POSITIVE_INFINITY,
      maxQueryParamRepeats: Number.POSITIVE_INFINITY,
      maxQueryLength: Number.POSITIVE_INFINITY,
      calendar: { yearsAhead: Number.POSITIVE_INFINITY, yearsBehind: Number.POSITIVE_INFINITY },
    });
    const url = segments(100, () => 'a') + '?' + params(100, () => 'q=' + 'x'.repeat(50)) + '&year=9999';
    expect(trapOf(url, off)).toBeNull();
    expect(trapOf('/calendar/0001/01', off)).toBeNull();
  });

  it('pins the calendar to the clock, and reads the clock only for a dated URL', () => {
    const in2031 = resolve({ now: () => Date.UTC(2031, 0, 1) });
    expect(trapOf('/calendar/2031/05', in2031)).toBeNull();
    expect(trapOf('/calendar/2034/01', in2031)).toBe('calendar date 2034-01 is more than 2 years ahead');
    expect(trapOf('/calendar/2010/12', in2031)).toBe('calendar date 2010-12 is more than 20 years behind');
    expect(trapOf('/calendar/2011/01', in2031)).toBeNull();

    let reads = 0;
    const counting = resolve({ now: () => (reads++, NOW_2026) });
    expect(trapOf('/a/b/c?page=2', counting)).toBeNull();
    expect(reads).toBe(0);
    expect(trapOf('/c/2026/05?from=2026-01-01&to=2026-12-31', counting)).toBeNull();
    expect(reads).toBe(1);
  });

  it('honours custom year windows, and calendar: false', () => {
    const narrow = resolve({ calendar: { yearsAhead: 0, yearsBehind: 1 } });
    expect(trapOf('/calendar/2026/12', narrow)).toBeNull();
    expect(trapOf('/calendar/2027/01', narrow)).toBe('calendar date 2027-01 is more than 0 years ahead');
    expect(trapOf('/calendar/2024/12', narrow)).toBe('calendar date 2024-12 is more than 1 year behind');
    const noCalendar = resolve({ calendar: false });
    expect(noCalendar.calendar).toBeNull();
    expect(trapOf('/calendar/9999/12', noCalendar)).toBeNull();
    expect(trapOf('/c?year=9999', noCalendar)).toBeNull();
  });

  it('answers a clock that gives no date with no calendar verdict', () => {
    expect(trapOf('/calendar/9999/12', resolve({ now: () => Number.NaN }))).toBeNull();
  });

  // Inputs on which no check stops early: segments and names each occur twice (s0/s0/s1/s1/…),
  // values are this year's dates, and the count and length limits are off.
  const UNCOUNTED = resolve({
    maxPathSegments: Number.POSITIVE_INFINITY,
    maxQueryParams: Number.POSITIVE_INFINITY,
    maxQueryLength: Number.POSITIVE_INFINITY,
  });
  const pathOf = (n: number): URL => new URL('http://example.com' + segments(n, (i) => `s${i >> 1}`) + '/');
  const queryOf = (n: number): URL =>
    new URL(
      'http://example.com/s?' +
        params(n, (i) =>
          i % 3 === 0 ? `year${i >> 1}=2026` : `p${i >> 1}=2026-05-${String((i % 28) + 1).padStart(2, '0')}`,
        ),
    );

  it('decides a 2,000-segment path and a 2,000-parameter query quickly', () => {
    const path = pathOf(2000);
    const query = queryOf(2000);
    const cases: [URL, ResolvedTrapDetection, boolean][] = [
      [path, UNCOUNTED, false],
      [query, UNCOUNTED, false],
      [path, DEFAULTS, true],
      [query, DEFAULTS, true],
      // The trap at the very end is found after a full scan.
      [new URL(path.href + 'z/z/z'), UNCOUNTED, true],
      [new URL(query.href + '&q&q&q&q'), UNCOUNTED, true],
    ];
    for (const [url, detection, isTrap] of cases) {
      const started = performance.now();
      const reason = detectTrap(url, detection);
      const elapsed = performance.now() - started;
      expect(reason !== null).toBe(isTrap);
      // Linear work takes well under a millisecond; a blow-up on these inputs would take seconds.
      expect(elapsed).toBeLessThan(500);
    }
  });

  it('takes time linear in the URL length: n and 8n compared', () => {
    for (const urlOf of [pathOf, queryOf]) {
      const small = urlOf(500);
      const large = urlOf(4000);
      expect(detectTrap(small, UNCOUNTED)).toBeNull();
      expect(detectTrap(large, UNCOUNTED)).toBeNull();
      const ratio = scalingRatio(
        () => detectTrap(small, UNCOUNTED),
        () => detectTrap(large, UNCOUNTED),
      );
      expect(ratio).toBeLessThan(30);
    }
  });

  it('never throws, and keeps reasons short, for any URL (fast-check)', () => {
    const token = fc.constantFrom(
      '/',
      '//',
      '/a',
      '/a/b',
      '?',
      '&',
      '=',
      '%',
      '%zz',
      '%C3%A9',
      '2031',
      '-05',
      '05',
      '/2031/05',
      'q=1',
      'year=',
      'y=0001',
      '..',
      '#',
      'ツ',
      '\uD800',
    );
    const input = fc
      .array(fc.oneof(token, fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 60 })
      .map((parts) => parts.join(''));
    const strict = resolve({
      maxConsecutiveRepeats: 1,
      maxSegmentOccurrences: 1,
      maxQueryParamRepeats: 1,
      maxPathSegments: 3,
      maxQueryParams: 2,
      calendar: { yearsAhead: 0, yearsBehind: 0 },
    });
    fc.assert(
      fc.property(input, (tail) => {
        let url: URL;
        try {
          url = new URL('http://h/' + tail);
        } catch {
          return; // Not a URL at all: the frontier never passes one.
        }
        for (const detection of [DEFAULTS, strict]) {
          const reason = detectTrap(url, detection);
          if (reason !== null) expect(reason.length).toBeGreaterThan(0);
          if (reason !== null) expect(reason.length).toBeLessThan(200);
        }
      }),
      { numRuns: fuzzRuns() },
    );
  });
});

describe('resolveTrapDetection', () => {
  it('fills every default, frozen', () => {
    const resolved = resolveTrapDetection(undefined);
    expect(resolved).toEqual({
      maxPathSegments: 32,
      maxConsecutiveRepeats: 2,
      maxSegmentOccurrences: 3,
      maxQueryParams: 32,
      maxQueryParamRepeats: 3,
      maxQueryLength: 1024,
      calendar: { yearsAhead: 2, yearsBehind: 20 },
      now: Date.now,
    });
    expect(resolveTrapDetection({})).toEqual(resolved);
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(Object.isFrozen(resolved!.calendar)).toBe(true);
  });

  it('fills the calendar defaults one by one', () => {
    expect(resolveTrapDetection({ calendar: { yearsAhead: 5 } })!.calendar).toEqual({ yearsAhead: 5, yearsBehind: 20 });
    expect(resolveTrapDetection({ calendar: {} })!.calendar).toEqual({ yearsAhead: 2, yearsBehind: 20 });
  });

  it('turns detection off for false', () => {
    expect(resolveTrapDetection(false)).toBeNull();
  });

  it.each([
    [{ maxPathSegments: 0 }, 'maxPathSegments'],
    [{ maxPathSegments: -1 }, 'maxPathSegments'],
    [{ maxConsecutiveRepeats: 0 }, 'maxConsecutiveRepeats'],
    [{ maxConsecutiveRepeats: 1.5 }, 'maxConsecutiveRepeats'],
    [{ maxSegmentOccurrences: Number.NaN }, 'maxSegmentOccurrences'],
    [{ maxQueryParams: Number.NEGATIVE_INFINITY }, 'maxQueryParams'],
    [{ maxQueryParamRepeats: '3' }, 'maxQueryParamRepeats'],
    [{ maxQueryLength: -5 }, 'maxQueryLength'],
    [{ calendar: { yearsAhead: -1 } }, 'calendar.yearsAhead'],
    [{ calendar: { yearsBehind: 2.5 } }, 'calendar.yearsBehind'],
    [{ calendar: true }, 'calendar'],
    [{ calendar: null }, 'calendar'],
    [{ now: 1234 }, 'now'],
    [true, 'options'],
    [null, 'options'],
  ])('rejects %j, naming %s', (options, name) => {
    expectInvalidOption(() => resolveTrapDetection(options as TrapDetectionOptions), name);
  });

  it('names the bad value in the message', () => {
    expectInvalidOption(
      () => resolveTrapDetection({ maxPathSegments: 0 }),
      'maxPathSegments must be a positive integer or Infinity, got 0',
    );
    expectInvalidOption(() => resolveTrapDetection({ calendar: { yearsAhead: -1 } }), 'got -1');
  });

  it('accepts zero years and Infinity limits', () => {
    const resolved = resolveTrapDetection({
      maxQueryLength: Number.POSITIVE_INFINITY,
      calendar: { yearsAhead: 0, yearsBehind: 0 },
    });
    expect(resolved).toMatchObject({
      maxQueryLength: Number.POSITIVE_INFINITY,
      calendar: { yearsAhead: 0, yearsBehind: 0 },
    });
  });
});

/** Property runs: FUZZ_RUNS (default 200), capped in CI where every test file shares the budget. */
function fuzzRuns(): number {
  const runs = Number(process.env['FUZZ_RUNS'] ?? 200);
  const valid = Number.isInteger(runs) && runs > 0 ? runs : 200;
  return process.env['CI'] ? Math.min(valid, 500) : valid;
}

/**
 * CPU time of `large` over `small` (medians of interleaved samples, after a warm-up): about 8
 * for linear work on 8× the input, about 64 for quadratic. CPU time, not wall time, so a loaded
 * machine inflates both alike.
 */
function scalingRatio(small: () => unknown, large: () => unknown): number {
  const cpuMs = (): number => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const timeRuns = (work: () => unknown, reps: number): number => {
    const start = cpuMs();
    for (let i = 0; i < reps; i++) work();
    return (cpuMs() - start) / reps;
  };
  for (let i = 0; i < 20; i++) {
    small();
    large();
  }
  // Enough repetitions for one small sample to take about 10 ms.
  let reps = 1;
  while (reps < 1 << 20 && timeRuns(small, reps) * reps < 10) reps *= 2;
  const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1]!;
  const smallCosts: number[] = [];
  const largeCosts: number[] = [];
  for (let s = 0; s < 7; s++) {
    smallCosts.push(timeRuns(small, reps));
    largeCosts.push(timeRuns(large, Math.max(1, reps >> 3)));
  }
  return median(largeCosts) / Math.max(median(smallCosts), 1e-6);
}
