// content: pages that are fine to fetch but hard to read: lying charsets, broken HTML, a page
// with 100,000 links (whose targets robots.txt disallows) and a link 5,000 characters long.

import { a, htmlResource, type Resource } from '@politely/demo-web/internal';
import { buildCharsetPages } from './charsets.js';
import { type HostileCase, pageCase, skip } from './hostile-types.js';
import { caseList, type HttpHostileHost, hostilePage, responder } from './http-host.js';
import { buildMalformedPages } from './malformed.js';

export interface ContentOptions {
  readonly manyLinks: number;
}

/** The length of the long URL, absolute, scheme and origin included. */
export const LONG_URL_CHARS = 5_000;
const MANY_LINKS_PATH = '/many-links/';
const LONG_URL_PAGE = '/long-url';

export function contentRobotsTxt(): string {
  return `# The link farm's targets are off limits: a crawler meets them only as links.
User-agent: *
Disallow: ${MANY_LINKS_PATH}targets/
`;
}

export function buildContent(origin: string, options: ContentOptions): HttpHostileHost {
  const nextPage = (title: string): Resource => hostilePage('content', title, '<p>Made it through.</p>');
  const charsets = buildCharsetPages(origin, nextPage);
  const malformed = buildMalformedPages(origin, nextPage);
  const manyLinksUrl = `${origin}${MANY_LINKS_PATH}`;
  const longUrl = longUrlOf(origin);
  const cases: HostileCase[] = [
    ...charsets.cases,
    ...malformed.cases,
    pageCase(
      'many-links',
      `A page of ${options.manyLinks} distinct links to ${MANY_LINKS_PATH}targets/N, which robots.txt disallows.`,
      manyLinksUrl,
    ),
    {
      name: 'many-links-cap',
      description: 'The same page: more links than a crawler should take from one page.',
      entryUrl: manyLinksUrl,
      reportedUrlPrefixes: [manyLinksUrl],
      expect: skip('too-many-links'),
    },
    {
      name: 'long-url',
      description: `A page linking a same-host URL ${LONG_URL_CHARS} characters long.`,
      entryUrl: `${origin}${LONG_URL_PAGE}`,
      reportedUrlPrefixes: [`${origin}/long/`],
      expect: skip('url-too-long'),
    },
  ];
  const pages = new Map<string, Resource>([
    ['/', hostilePage('content', 'Content that is hard to read', caseList(cases))],
    ...charsets.pages,
    ...malformed.pages,
    [MANY_LINKS_PATH, manyLinksPage(options.manyLinks)],
    [LONG_URL_PAGE, hostilePage('content', 'A long link', `<p>${a(longUrl, 'a very long link')}</p>`)],
    [
      new URL(longUrl).pathname,
      hostilePage('content', 'Long', '<p>A crawler with a URL length cap never gets here.</p>'),
    ],
  ]);
  return {
    name: 'content',
    description: 'Hard pages: lying and unknown charsets, malformed HTML, 100,000 links, a 5,000-character URL.',
    robotsTxt: contentRobotsTxt(),
    cases,
    goodPaths: ['/', ...charsets.goodPaths, ...malformed.goodPaths, MANY_LINKS_PATH, LONG_URL_PAGE],
    respond: responder(pages),
  };
}

/**
 * `count` links to distinct targets, written as tersely as HTML allows (relative hrefs, no
 * text) so that 100,000 of them stay under 3 MB.
 */
function manyLinksPage(count: number): Resource {
  const links = Array.from({ length: count }, (_, i) => `<a href="targets/${i}"></a>`);
  return htmlResource(
    `<!doctype html><html><head><title>Many links</title></head><body><h1>${count} links</h1>\n${links.join('\n')}\n</body></html>\n`,
  );
}

/** An absolute URL of exactly LONG_URL_CHARS characters under `/long/`. */
function longUrlOf(origin: string): string {
  const start = `${origin}/long/`;
  return start + 'segment/'.repeat(LONG_URL_CHARS).slice(0, LONG_URL_CHARS - start.length - 1) + 'x';
}
