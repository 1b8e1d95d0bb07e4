// hub: the entry page of the hostile web. It links every host's index and every case, so one
// crawl from here meets them all; robots.txt allows everything.

import { a, escapeHtml } from '@politely/demo-web/internal';
import type { HostileHostFacts } from './hostile-types.js';
import { ALLOW_ALL_ROBOTS_TXT, type HttpHostileHost, hostilePage, responder } from './http-host.js';

export function buildHub(others: readonly (HostileHostFacts & { readonly origin: string })[]): HttpHostileHost {
  const sections = others.map((host) => {
    const entries = [...new Set(host.cases.map((c) => c.entryUrl))];
    const names = (url: string): string =>
      host.cases
        .filter((c) => c.entryUrl === url)
        .map((c) => c.name)
        .join(', ');
    const items = entries.map((url) => `<li>${a(url, names(url))}</li>`);
    const index = host.goodPaths.includes('/') ? `<p>${a(`${host.origin}/`, `The ${host.name} index`)}</p>` : '';
    return `<h2>${escapeHtml(host.name)}</h2>\n<p>${escapeHtml(host.description)}</p>\n${index}\n<ul>\n${items.join('\n')}\n</ul>`;
  });
  const pages = new Map([
    [
      '/',
      hostilePage(
        'hub',
        'Every way a server can misbehave',
        `<p>${a('/about', 'About this web')} · ${a('/missing', 'A page that is not there')}</p>\n${sections.join('\n')}`,
      ),
    ],
    ['/about', hostilePage('hub', 'About', '<p>Loopback servers that misbehave, for crawlers to survive.</p>')],
  ]);
  return {
    name: 'hub',
    description:
      'The entry page: links every host index and every case; robots.txt allows everything; /missing is a 404.',
    robotsTxt: ALLOW_ALL_ROBOTS_TXT,
    cases: [],
    goodPaths: ['/', '/about'],
    respond: responder(pages),
  };
}
