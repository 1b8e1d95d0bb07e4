// docs: a documentation site whose robots.txt names PolitelyDemo in its own group (a slower
// crawl-delay for everyone else), uses `$` to allow exactly one page of an old, disallowed
// version, and declares its sitemap on another host (the cdn), as the sitemaps protocol allows.

import type { HostSpec } from '../host-spec.js';
import { a, escapeHtml, linkList, renderPage } from '../html.js';
import { createRandom, paragraph } from '../random.js';
import { htmlResource, type Resource, textResource } from '../resource.js';
import { urlsetXml } from '../sitemap-files.js';
import { type DemoOrigins, demoFooter } from './demo-hosts.js';

const SITE = 'politely docs';

export function docsRobotsTxt(origins: DemoOrigins): string {
  return `# ${SITE}
User-agent: *
Disallow: /v1/
Disallow: /search
Disallow: /internal/
Disallow: /*.pdf$
Crawl-delay: 1

# The demo crawler may read the one page of the old docs that still matters.
User-agent: PolitelyDemo
Disallow: /v1/
Allow: /v1/migration$
Disallow: /search
Disallow: /internal/
Disallow: /*.pdf$
Crawl-delay: 0.2

# Our sitemap is published by the static file host.
Sitemap: ${origins.cdn}/sitemaps/docs.xml
`;
}

const GUIDES = [
  'getting-started',
  'robots-txt',
  'crawl-delay',
  'sitemaps',
  'redirects',
  'scopes',
  'storage',
  'deployment',
];
const API = [
  'createCrawler',
  'parseRobotsTxt',
  'createRobotsGate',
  'isAllowed',
  'explain',
  'lintRobotsTxt',
  'fromSitemaps',
  'productToken',
];

const NAV = [
  ['/', 'Home'],
  ['/guide/getting-started', 'Guide'],
  ['/api/', 'API'],
  ['/faq', 'FAQ'],
] as const;

/** Paths of the docs pages a crawler should find (the cdn's sitemap lists them). */
export function docsPaths(): string[] {
  return [
    '/',
    '/faq',
    '/changelog',
    '/api/',
    ...GUIDES.map((g) => `/guide/${g}`),
    ...API.map((name) => `/api/${name}`),
  ];
}

export function buildDocs(origins: DemoOrigins): HostSpec {
  const random = createRandom(31337);
  const resources = new Map<string, Resource>();
  const page = (title: string, main: string): Resource =>
    htmlResource(renderPage({ siteName: SITE, title, nav: NAV, main, footer: demoFooter(origins) }));
  const guideLinks = GUIDES.map((g) => [`/guide/${g}`, titleOf(g)] as const);
  const apiLinks = API.map((name) => [`/api/${name}`, `${name}()`] as const);

  const reference = linkList([
    ['/api/', 'API reference'],
    ['/changelog', 'Changelog'],
    ['/v1/migration', 'Migrating from v1'],
  ]);
  resources.set(
    '/',
    page('Documentation', `<h2>Guides</h2>\n${linkList(guideLinks)}\n<h2>Reference</h2>\n${reference}`),
  );
  resources.set('/api/', page('API reference', linkList(apiLinks)));
  const prose = (): string => `<p>${escapeHtml(paragraph(random))}</p>`;
  resources.set('/faq', page('FAQ', `${prose()}<p>${a('/search?q=robots', 'Search the docs')}</p>`));
  resources.set('/changelog', page('Changelog', `${prose()}<p>${a('/internal/roadmap', 'Roadmap (maintainers)')}</p>`));
  GUIDES.forEach((guide, i) => {
    const next = GUIDES[i + 1];
    const body = `${prose()}${prose()}
<p>${a(`/guide/${guide}.pdf`, 'This guide as PDF')} · ${a(`/v1/guide/${guide}`, 'The v1 version of this page')}</p>
${next === undefined ? '' : `<p>Next: ${a(`/guide/${next}`, titleOf(next))}</p>`}
<p>See also: ${a(`/api/${API[i] ?? API[0]}`, `${API[i] ?? API[0]}()`)}</p>`;
    resources.set(`/guide/${guide}`, page(titleOf(guide), body));
    resources.set(`/guide/${guide}.pdf`, textResource(`%PDF-1.4\n% ${guide}\n`, 'application/pdf'));
    resources.set(`/v1/guide/${guide}`, page(`${titleOf(guide)} (v1)`, '<p>This is the old version.</p>'));
  });
  for (const name of API)
    resources.set(`/api/${name}`, page(`${name}()`, `<pre><code>${name}(…)</code></pre>${prose()}`));
  const migration = `<p>Most options kept their names. ${a('/v1/migration/details', 'All the details')}</p>`;
  resources.set('/v1/migration', page('Migrating from v1', migration));
  resources.set('/v1/migration/details', page('Migration details', '<p>Every renamed option.</p>'));
  resources.set('/internal/roadmap', page('Roadmap', '<p>Maintainers only.</p>'));
  return {
    name: 'docs',
    description:
      'Documentation: a PolitelyDemo group beside *, Allow: /v1/migration$ inside a disallowed /v1/, ' +
      'Disallow: /*.pdf$, and a Sitemap: line pointing at another host (the cdn).',
    robotsStatus: 200,
    robotsTxt: docsRobotsTxt(origins),
    resources,
    resolve: (path) => (path.startsWith('/search') ? page('Search', '<p>No results.</p>') : undefined),
  };
}

/** The cross-host sitemap of the docs, served by the cdn host. */
export function docsSitemapXml(origins: DemoOrigins): string {
  return urlsetXml(
    docsPaths().map((path) => ({ loc: origins.docs + path, lastmod: '2026-10-30', changefreq: 'monthly' })),
  );
}

function titleOf(slug: string): string {
  const text = slug.replace(/-/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
