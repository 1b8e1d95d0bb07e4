// hub: the directory at the first address, the demo crawl's entry page: it links every host of
// the web. Its robots.txt declares a second sitemap under a disallowed path (never fetch it).

import type { HostSpec } from '../host-spec.js';
import { a, escapeHtml, renderPage } from '../html.js';
import { htmlResource, type Resource, textResource } from '../resource.js';
import { urlsetXml } from '../sitemap-files.js';
import { DEMO_HOST_NAMES, type DemoHostName, type DemoOrigins } from './demo-hosts.js';

const SITE = 'The politely demo web';

export function hubRobotsTxt(origin: string): string {
  return `# ${SITE}: the directory.
User-agent: *
Disallow: /admin/
Crawl-delay: 0.2

Sitemap: ${origin}/sitemap.xml
# Declared, but under /admin/, which robots.txt disallows: a polite crawler does not fetch it.
Sitemap: ${origin}/admin/sitemap.xml
`;
}

const BLURBS: Readonly<Record<DemoHostName, string>> = {
  hub: 'this directory',
  shop: 'a shop with products worth collecting',
  news: 'a blog with feeds',
  docs: 'documentation',
  events: 'events, and an endless calendar',
  legacy: 'the old shop, full of redirects',
  cdn: 'static files, without a robots.txt',
  status: 'a status page whose robots.txt answers 503',
};

export function buildHub(origins: DemoOrigins): HostSpec {
  const origin = origins.hub;
  const resources = new Map<string, Resource>();
  const page = (title: string, main: string): Resource =>
    htmlResource(renderPage({ siteName: SITE, title, nav: [['/about', 'About']], main }));
  const items = DEMO_HOST_NAMES.filter((name) => name !== 'hub').map(
    (name) => `<li>${a(`${origins[name]}/`, name)}: ${escapeHtml(BLURBS[name])}</li>`,
  );
  resources.set(
    '/',
    page(
      'Directory',
      `<p>Eight small sites on loopback addresses, for a polite crawler to visit.</p>
<ul class="hosts">
${items.join('\n')}
</ul>
<p>${a('/about', 'About this web')} · ${a('/admin/', 'Administration')}</p>`,
    ),
  );
  resources.set(
    '/about',
    page(
      'About',
      `<p>Each site runs on its own address (127.0.0.x) with its own robots.txt.</p>
<p>Start at ${a(`${origins.shop}/category/garden`, 'the garden department')}
or ${a(`${origins.legacy}/shop`, 'the old shop address')}.</p>`,
    ),
  );
  resources.set('/admin/', page('Administration', '<p>Sign in first.</p>'));
  resources.set('/admin/users', page('Users', '<p>Nobody here.</p>'));
  const xml = 'application/xml; charset=utf-8';
  resources.set('/sitemap.xml', textResource(urlsetXml([{ loc: `${origin}/` }, { loc: `${origin}/about` }]), xml));
  resources.set('/admin/sitemap.xml', textResource(urlsetXml([{ loc: `${origin}/admin/users` }]), xml));
  return {
    name: 'hub',
    description: 'The directory and entry page: links every host; Disallow: /admin/ and a Sitemap: line under it.',
    robotsStatus: 200,
    robotsTxt: hubRobotsTxt(origin),
    resources,
    sitemapFiles: [`${origin}/sitemap.xml`, `${origin}/admin/sitemap.xml`],
    sitemapLocs: [`${origin}/`, `${origin}/about`, `${origin}/admin/users`],
  };
}
