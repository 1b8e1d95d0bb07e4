// redirects: chains a crawler must cut short: an endless chain, a loop, and hops to places no
// crawler may go (a file: URL, a private address, the cloud metadata address). Nothing here ever
// connects to those targets; the host only names them in Location headers.

import { redirectResource, sendResource } from '@politely/demo-web/internal';
import { type HostileCase, skip } from './hostile-types.js';
import { ALLOW_ALL_ROBOTS_TXT, caseList, type HttpHostileHost, hostilePage, responder } from './http-host.js';

const ENDLESS = /^\/redirect\/endless\/(\d{1,15})$/;

const FIXED_REDIRECTS: ReadonlyMap<string, string> = new Map([
  ['/redirect/loop/a', '/redirect/loop/b'],
  ['/redirect/loop/b', '/redirect/loop/a'],
  ['/redirect/to-file', 'file:///etc/passwd'],
  ['/redirect/to-private', 'http://10.255.255.1/admin'],
  ['/redirect/to-metadata', 'http://169.254.169.254/latest/meta-data/'],
]);

export function buildRedirects(origin: string): HttpHostileHost {
  const cases: HostileCase[] = [
    {
      name: 'endless-redirect',
      description: '/redirect/endless/N answers 302 to /redirect/endless/N+1, forever.',
      entryUrl: `${origin}/redirect/endless/1`,
      reportedUrlPrefixes: [`${origin}/redirect/endless/`],
      expect: skip('too-many-redirects'),
    },
    {
      name: 'redirect-loop',
      description: '/redirect/loop/a redirects to /redirect/loop/b, which redirects back to a.',
      entryUrl: `${origin}/redirect/loop/a`,
      reportedUrlPrefixes: [`${origin}/redirect/loop/`],
      expect: skip('duplicate'),
    },
    {
      name: 'redirect-to-file',
      description: 'A 302 to file:///etc/passwd.',
      entryUrl: `${origin}/redirect/to-file`,
      reportedUrlPrefixes: ['file://'],
      expect: skip('unsupported-scheme'),
    },
    {
      name: 'redirect-to-private',
      description: 'A 302 to http://10.255.255.1/admin, a private address.',
      entryUrl: `${origin}/redirect/to-private`,
      reportedUrlPrefixes: ['http://10.255.255.1/'],
      expect: skip('blocked-address'),
    },
    {
      name: 'redirect-to-metadata',
      description: 'A 302 to http://169.254.169.254/latest/meta-data/, the cloud metadata service.',
      entryUrl: `${origin}/redirect/to-metadata`,
      reportedUrlPrefixes: ['http://169.254.169.254/'],
      expect: skip('blocked-address'),
    },
  ];
  const pages = new Map([
    ['/', hostilePage('redirects', 'Redirects that go nowhere good', caseList(cases))],
    ...[...FIXED_REDIRECTS].map(([path, location]) => [path, redirectResource(302, location)] as const),
  ]);
  return {
    name: 'redirects',
    description: 'Redirect chains to cut short: endless, looping, and to file:, private and metadata addresses.',
    robotsTxt: ALLOW_ALL_ROBOTS_TXT,
    cases,
    goodPaths: ['/'],
    respond: responder(pages, (req, res, path) => {
      const step = ENDLESS.exec(path)?.[1];
      if (step === undefined) return false;
      sendResource(req, res, redirectResource(302, `/redirect/endless/${Number(step) + 1}`), false);
      return true;
    }),
  };
}
