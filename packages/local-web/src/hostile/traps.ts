// traps: endless link chains that robots.txt allows. A crawler bounded only by depth wanders in
// them for a long time; one with a trap heuristic stops early. Pages are made on request. The
// first page of each chain is an ordinary good page.

import { a, type Resource, sendResource } from '@politely/demo-web/internal';
import { type HostileCase, skip } from './hostile-types.js';
import { ALLOW_ALL_ROBOTS_TXT, caseList, type HttpHostileHost, hostilePage, responder } from './http-host.js';

const CALENDAR = /^\/calendar\/(\d{4})\/(\d{2})$/;
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;
const CALENDAR_PREFIX = '/calendar/';
const CALENDAR_ENTRY = '/calendar/2026/11';
const LOOP_PREFIX = '/loop/';
const LOOP_ENTRY = '/loop/a/';
const SEARCH_PREFIX = '/search?';
const SEARCH_ENTRY = '/search?q=a';

export function buildTraps(origin: string): HttpHostileHost {
  const trapCase = (name: string, description: string, entry: string, prefix: string): HostileCase => ({
    name,
    description,
    entryUrl: `${origin}${entry}`,
    reportedUrlPrefixes: [`${origin}${prefix}`],
    expect: skip('trap'),
  });
  const cases: HostileCase[] = [
    trapCase(
      'calendar',
      'Every month links the previous and the next one, years 1 to 9999.',
      CALENDAR_ENTRY,
      CALENDAR_PREFIX,
    ),
    trapCase(
      'repeated-segments',
      'Every /loop/…/ page links a/, b/ and x/../a/b/ below itself.',
      LOOP_ENTRY,
      LOOP_PREFIX,
    ),
    trapCase('growing-query', 'Every /search?… page links itself with one more &q=a.', SEARCH_ENTRY, SEARCH_PREFIX),
  ];
  const pages = new Map([['/', hostilePage('traps', 'Traps', caseList(cases))]]);
  return {
    name: 'traps',
    description: 'Crawler traps robots.txt allows: an endless calendar, repeated path segments, a growing query.',
    robotsTxt: ALLOW_ALL_ROBOTS_TXT,
    cases,
    goodPaths: ['/', CALENDAR_ENTRY, LOOP_ENTRY, SEARCH_ENTRY],
    trapPrefixes: [CALENDAR_PREFIX, LOOP_PREFIX, SEARCH_PREFIX],
    respond: responder(pages, (req, res, path) => {
      const page = calendarPage(path) ?? loopPage(path) ?? searchPage(path);
      if (page === undefined) return false;
      sendResource(req, res, page, false);
      return true;
    }),
  };
}

function monthPath(year: number, month: number): string {
  return `${CALENDAR_PREFIX}${String(year).padStart(4, '0')}/${String(month).padStart(2, '0')}`;
}

/** A month, linking the previous and the next month; undefined outside years 1–9999. */
function calendarPage(path: string): Resource | undefined {
  const match = CALENDAR.exec(path);
  if (match === null) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12) return undefined;
  const links: string[] = [];
  if (year > FIRST_YEAR || month > 1) {
    links.push(a(month === 1 ? monthPath(year - 1, 12) : monthPath(year, month - 1), 'Previous month'));
  }
  if (year < LAST_YEAR || month < 12) {
    links.push(a(month === 12 ? monthPath(year + 1, 1) : monthPath(year, month + 1), 'Next month'));
  }
  const title = `Calendar ${path.slice(CALENDAR_PREFIX.length)}`;
  return hostilePage('traps', title, `<p>No events this month.</p><p>${links.join(' · ')}</p>`);
}

/** Any directory under /loop/: relative links that only ever go deeper. */
function loopPage(path: string): Resource | undefined {
  if (!path.startsWith(LOOP_PREFIX) || !path.endsWith('/') || path.includes('?')) return undefined;
  const links = [a('a/', 'Deeper'), a('b/', 'Sideways and deeper'), a('x/../a/b/', 'Round about')];
  return hostilePage('traps', 'Loop', `<p>You are at ${path.length} characters.</p><p>${links.join(' · ')}</p>`);
}

/** Any search: a link to the same search with one more parameter. */
function searchPage(path: string): Resource | undefined {
  if (!path.startsWith(SEARCH_PREFIX)) return undefined;
  return hostilePage('traps', 'Search', `<p>No results.</p><p>${a(`${path}&q=a`, 'Refine the search')}</p>`);
}
