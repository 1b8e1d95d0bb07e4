// cdn: a static file host without a robots.txt (404: everything allowed, RFC 9309 2.3.1.3) that
// also publishes the docs host's sitemap: a cross-host sitemap declared in docs' robots.txt.

import type { HostSpec } from '../host-spec.js';
import { linkList, renderPage } from '../html.js';
import { htmlResource, type Resource, textResource } from '../resource.js';
import { type DemoOrigins, demoFooter } from './demo-hosts.js';
import { docsPaths, docsSitemapXml } from './docs.js';

const SITE = 'Loopback Static';

const DOWNLOADS = ['handbook', 'press-kit', 'price-list'];

export function buildCdn(origins: DemoOrigins): HostSpec {
  const resources = new Map<string, Resource>();
  const nav = [['/downloads/', 'Downloads']] as const;
  const page = (title: string, main: string): Resource =>
    htmlResource(renderPage({ siteName: SITE, title, nav, main, footer: demoFooter(origins) }));
  const downloads = DOWNLOADS.map((d) => [`/downloads/${d}`, d.replace('-', ' ')] as const);
  resources.set('/', page('Static files', `<p>Files for the other sites of the demo web.</p>\n${linkList(nav)}`));
  resources.set('/downloads/', page('Downloads', linkList(downloads)));
  for (const name of DOWNLOADS) resources.set(`/downloads/${name}`, page(name, '<p>Available on request.</p>'));
  resources.set('/sitemaps/docs.xml', textResource(docsSitemapXml(origins), 'application/xml; charset=utf-8'));
  return {
    name: 'cdn',
    description:
      "A static host with no robots.txt (404: allow all) serving the docs host's sitemap (a cross-host sitemap).",
    robotsStatus: 404,
    robotsTxt: '',
    resources,
    sitemapFiles: [`${origins.cdn}/sitemaps/docs.xml`],
    sitemapLocs: docsPaths().map((path) => origins.docs + path),
  };
}
