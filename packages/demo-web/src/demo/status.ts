// status: a host whose robots.txt answers 503. RFC 9309 2.3.1.4: the crawler must assume
// everything is disallowed, so a polite crawler asks for nothing here but /robots.txt.

import type { HostSpec } from '../host-spec.js';
import { linkList, renderPage } from '../html.js';
import { htmlResource, type Resource } from '../resource.js';
import { type DemoOrigins, demoFooter } from './demo-hosts.js';

const SITE = 'Loopback Status';
const INCIDENTS = ['2026-10-09', '2026-10-21', '2026-11-02'];

export function buildStatus(origins: DemoOrigins): HostSpec {
  const resources = new Map<string, Resource>();
  const page = (title: string, main: string): Resource =>
    htmlResource(renderPage({ siteName: SITE, title, nav: [['/', 'Status']], main, footer: demoFooter(origins) }));
  const incidents = INCIDENTS.map((day) => [`/incidents/${day}`, `Incident of ${day}`] as const);
  resources.set('/', page('All systems operational', linkList(incidents)));
  for (const day of INCIDENTS) resources.set(`/incidents/${day}`, page(`Incident of ${day}`, '<p>Resolved.</p>'));
  return {
    name: 'status',
    description: 'robots.txt answers 503 (unreachable): a polite crawler fetches nothing here but /robots.txt.',
    robotsStatus: 503,
    robotsTxt: '',
    resources,
  };
}
