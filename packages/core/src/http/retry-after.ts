// `Retry-After` and HTTP-date, strictly by RFC 9110. PURE: no clock, `now` is passed in.
//
//   Retry-After   = HTTP-date / delay-seconds                       (RFC 9110 10.2.3)
//   delay-seconds = 1*DIGIT
//   HTTP-date     = IMF-fixdate / obs-date                          (RFC 9110 5.6.7)
//   IMF-fixdate   = day-name "," SP day SP month SP year SP time SP "GMT"
//                   Sun, 06 Nov 1994 08:49:37 GMT
//   rfc850-date   = day-name-l "," SP day "-" month "-" 2DIGIT SP time SP "GMT"
//                   Sunday, 06-Nov-94 08:49:37 GMT
//   asctime-date  = day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time SP year
//                   Sun Nov  6 08:49:37 1994
//
// A recipient must accept all three date forms (5.6.7); anything else is not a Retry-After and
// is ignored (undefined): no `Date.parse`, whose leniency reads `Abc -3` or `-3` as dates.
// HTTP-date is case-sensitive. The field value's own leading and trailing whitespace (OWS: space
// and tab, RFC 9110 5.5) is not part of it; any other whitespace is.

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const DAY_LONG = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${DAY_LONG}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} (\\d{2}| \\d) ${TIME} (\\d{4})$`);
const DELAY_SECONDS = /^\d+$/;
const OWS_AROUND = /^[ \t]+|[ \t]+$/g;

/** Days in each month of a (proleptic Gregorian) year. */
function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

function toEpochMs(
  year: number,
  monthName: string,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | undefined {
  const month = MONTHS.indexOf(monthName as (typeof MONTHS)[number]);
  // 23:59:60 is a leap second (RFC 9110 5.6.7); Date.UTC carries it into the next minute.
  if (month < 0 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 60)
    return undefined;
  const ms = new Date(0).setUTCFullYear(year, month, day);
  return ms + ((hour * 60 + minute) * 60 + second) * 1000;
}

/**
 * An HTTP-date (RFC 9110 5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime forms) as ms
 * since the epoch, or undefined when `value` is not one. `now` places RFC 850's two-digit year:
 * the year with those last two digits nearest to now (never more than 50 years ahead).
 */
export function parseHttpDate(value: string, now: number): number | undefined {
  let match = IMF_FIXDATE.exec(value);
  if (match !== null) {
    const [, day, month, year, hh, mm, ss] = match;
    return toEpochMs(Number(year), month!, Number(day), Number(hh), Number(mm), Number(ss));
  }
  match = RFC850_DATE.exec(value);
  if (match !== null) {
    const [, day, month, yy, hh, mm, ss] = match;
    const nowYear = new Date(now).getUTCFullYear();
    let year = nowYear - (nowYear % 100) + Number(yy);
    if (year > nowYear + 50) year -= 100;
    else if (year <= nowYear - 50) year += 100;
    return toEpochMs(year, month!, Number(day), Number(hh), Number(mm), Number(ss));
  }
  match = ASCTIME_DATE.exec(value);
  if (match !== null) {
    const [, month, day, hh, mm, ss, year] = match;
    return toEpochMs(Number(year), month!, Number(day!.trim()), Number(hh), Number(mm), Number(ss));
  }
  return undefined;
}

/**
 * The wait a `Retry-After` value asks for, in ms from `now` (RFC 9110 10.2.3): delay-seconds,
 * or an HTTP-date (a date already past is 0). undefined when absent or not a valid value.
 * Not capped (callers cap it to their own longest wait), except that a delay too large to
 * count in ms exactly is `Number.MAX_SAFE_INTEGER`.
 */
export function retryAfterMs(value: string | undefined | null, now: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = value.replace(OWS_AROUND, '');
  if (DELAY_SECONDS.test(trimmed)) return Math.min(Number(trimmed) * 1000, Number.MAX_SAFE_INTEGER);
  const date = parseHttpDate(trimmed, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}
