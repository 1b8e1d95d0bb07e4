// legacy: the shop's old address, now mostly redirects: permanent and temporary, cross-host, a
// chain of three hops, a loop, and one into a disallowed path (which must not be followed).

import type { HostSpec } from '../host-spec.js';
import { a, linkList, renderPage } from '../html.js';
import { htmlResource, type Resource, redirectResource } from '../resource.js';
import { demoProducts } from './catalog.js';
import { type DemoOrigins, demoFooter } from './demo-hosts.js';

const SITE = 'Loopback Supply (old site)';

export function legacyRobotsTxt(): string {
  return `# ${SITE}
User-agent: *
Disallow: /private/
Crawl-delay: 0.2
`;
}

export function buildLegacy(origins: DemoOrigins): HostSpec {
  const resources = new Map<string, Resource>();
  const page = (title: string, main: string): Resource =>
    htmlResource(renderPage({ siteName: SITE, title, nav: [['/', 'Home']], main, footer: demoFooter(origins) }));
  const moved = demoProducts().slice(0, 5);
  resources.set(
    '/',
    page(
      'We have moved',
      `<p>Our shop lives at a new address now.</p>
${linkList([
  ['/shop', 'The new shop (301, to another host)'],
  ['/chain/start', 'A redirect chain (302 → 301 → 307 → page)'],
  ['/loop/a', 'A redirect loop (302 ↔ 302)'],
  ['/to-private', 'Staff archive (302 into a disallowed path)'],
  ['/go/docs', 'Documentation (302, to another host)'],
  ['/moved', 'Our story (308)'],
  ['/private/', 'Staff area (disallowed)'],
  ...moved.map((product) => [`/old-products/${product.slug}`, `${product.name} (old link)`] as const),
])}`,
    ),
  );
  resources.set('/shop', redirectResource(301, `${origins.shop}/`));
  for (const product of moved)
    resources.set(`/old-products/${product.slug}`, redirectResource(301, origins.shop + product.path));
  resources.set('/chain/start', redirectResource(302, '/chain/step-2'));
  resources.set('/chain/step-2', redirectResource(301, `${origins.legacy}/chain/step-3`));
  resources.set('/chain/step-3', redirectResource(307, '/chain/end'));
  resources.set('/chain/end', page('End of the chain', `<p>Three hops to get here. ${a('/', 'Back home')}</p>`));
  resources.set('/loop/a', redirectResource(302, '/loop/b'));
  resources.set('/loop/b', redirectResource(302, '/loop/a'));
  resources.set('/to-private', redirectResource(302, '/private/archive'));
  resources.set('/go/docs', redirectResource(302, `${origins.docs}/`));
  resources.set('/moved', redirectResource(308, '/our-story'));
  resources.set('/our-story', page('Our story', '<p>Twenty years of selling good things.</p>'));
  resources.set('/private/', page('Staff area', `<p>${a('/private/archive', 'Archive')}</p>`));
  resources.set('/private/archive', page('Staff archive', '<p>Invoices from 2009.</p>'));
  return {
    name: 'legacy',
    description:
      'Redirects: 301/308 permanent, 302/307 temporary, cross-host (to shop and docs), a three-hop chain, a loop, ' +
      'and a 302 into Disallow: /private/.',
    robotsStatus: 200,
    robotsTxt: legacyRobotsTxt(),
    resources,
  };
}
