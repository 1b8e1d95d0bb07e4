// events: an events listing with a crawler trap, an endless calendar (every month links the
// previous and the next one, from year 1000 to 9999), which robots.txt does not fence off for
// PolitelyDemo: only a depth or page limit gets a crawler out. Month pages are made on request.

import type { HostSpec } from '../host-spec.js';
import { a, escapeHtml, linkList, renderPage } from '../html.js';
import { htmlResource, type Resource, redirectResource, textResource } from '../resource.js';
import { type DemoOrigins, demoFooter } from './demo-hosts.js';

const SITE = 'Loopback Events';
const CALENDAR = /^\/calendar\/(\d{4})\/(\d{2})$/;

export function eventsRobotsTxt(): string {
  return `# ${SITE}
User-agent: *
Disallow: /tickets/
Disallow: /*.ics$
Crawl-delay: 0.2

# This bot got lost in our calendar once.
User-agent: CalendarBot
Disallow: /calendar/
`;
}

interface DemoEvent {
  readonly slug: string;
  readonly title: string;
  /** YYYY-MM-DD; every event falls in the same month. */
  readonly date: string;
  readonly venue: string;
}

const EVENTS: readonly DemoEvent[] = [
  { slug: 'robots-txt-office-hours', title: 'robots.txt office hours', date: '2026-11-03', venue: 'Room 127' },
  { slug: 'crawler-meetup', title: 'Polite crawler meetup', date: '2026-11-07', venue: 'The Harbour Hall' },
  { slug: 'sitemap-workshop', title: 'Sitemap workshop', date: '2026-11-12', venue: 'Library, 2nd floor' },
  { slug: 'garden-market', title: 'Autumn garden market', date: '2026-11-15', venue: 'Orchard Square' },
  { slug: 'book-reading', title: 'Reading: The Patient Crawler', date: '2026-11-21', venue: 'Lantern Books' },
  { slug: 'year-end-party', title: 'Year-end party', date: '2026-11-28', venue: 'The Copper Room' },
];

const NAV = [
  ['/', 'Upcoming'],
  ['/calendar/2026/11', 'Calendar'],
] as const;

export function buildEvents(origins: DemoOrigins): HostSpec {
  const resources = new Map<string, Resource>();
  const page = (title: string, main: string): Resource =>
    htmlResource(renderPage({ siteName: SITE, title, nav: NAV, main, footer: demoFooter(origins) }));
  resources.set(
    '/',
    page('Upcoming events', `${eventList(EVENTS)}\n<p>${a('/calendar/2026/11', 'Browse the calendar')}</p>`),
  );
  resources.set('/calendar/', redirectResource(302, '/calendar/2026/11'));
  for (const event of EVENTS) {
    resources.set(`/events/${event.slug}`, page(event.title, eventHtml(event)));
    resources.set(`/tickets/${event.slug}`, page(`Tickets: ${event.title}`, '<p>Sold at the door.</p>'));
    resources.set(`/events/${event.slug}.ics`, textResource(icsOf(event), 'text/calendar; charset=utf-8'));
  }
  return {
    name: 'events',
    description:
      'An events site with a crawler trap: /calendar/YYYY/MM links the previous and next month forever ' +
      '(allowed by robots.txt); Disallow: /tickets/ and /*.ics$.',
    robotsStatus: 200,
    robotsTxt: eventsRobotsTxt(),
    resources,
    resolve: (path) => {
      const html = calendarHtml(path);
      return html === undefined ? undefined : page(html.title, html.main);
    },
    trapPrefixes: ['/calendar/'],
  };
}

function eventList(events: readonly DemoEvent[]): string {
  return linkList(events.map((e) => [`/events/${e.slug}`, `${e.date}: ${e.title}`] as const));
}

function icsOf(event: DemoEvent): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', `SUMMARY:${event.title}`];
  lines.push(`DTSTART;VALUE=DATE:${event.date.replace(/-/g, '')}`, 'END:VEVENT', 'END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

function eventHtml(event: DemoEvent): string {
  const [year, month] = event.date.split('-');
  return `<div class="event" itemscope itemtype="https://schema.org/Event">
<h2 itemprop="name">${escapeHtml(event.title)}</h2>
<p>When: <time itemprop="startDate" datetime="${event.date}">${event.date}</time></p>
<p>Where: <span itemprop="location">${escapeHtml(event.venue)}</span></p>
</div>
<p>${a(`/tickets/${event.slug}`, 'Buy tickets')} · ${a(`/events/${event.slug}.ics`, 'Add to your calendar')}
· ${a(`/calendar/${year}/${month}`, 'This month')}</p>`;
}

function calendarHtml(path: string): { title: string; main: string } | undefined {
  const match = CALENDAR.exec(path);
  if (match === null) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (year < 1000 || month < 1 || month > 12) return undefined;
  const previous = month === 1 ? [year - 1, 12] : [year, month - 1];
  const next = month === 12 ? [year + 1, 1] : [year, month + 1];
  const monthPath = ([y, m]: number[]): string => `/calendar/${String(y)}/${String(m).padStart(2, '0')}`;
  const key = `${match[1]}-${match[2]}`;
  const events = EVENTS.filter((event) => event.date.startsWith(key));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const pager: string[] = [];
  if (year > 1000 || month > 1) pager.push(a(monthPath(previous), '← Previous month'));
  if (year < 9999 || month < 12) pager.push(a(monthPath(next), 'Next month →'));
  const list = events.length === 0 ? '<p>Nothing planned yet.</p>' : eventList(events);
  return {
    title: `Calendar ${key}`,
    main: `<p>${days} days.</p>\n${list}\n<nav class="pager">${pager.join(' ')}</nav>`,
  };
}
