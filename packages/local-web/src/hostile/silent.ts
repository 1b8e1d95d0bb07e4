// silent: accepts TCP connections and never sends a byte, not even for robots.txt. A crawler
// must give up on robots.txt (RFC 9309: unreachable means disallow everything) instead of
// hanging. The sockets are held until the web closes.

import { type HostileHostFacts, skip } from './hostile-types.js';

export function buildSilent(origin: string): HostileHostFacts {
  return {
    name: 'silent',
    description: 'Accepts connections and never answers, not even /robots.txt.',
    robotsTxt: null,
    cases: [
      {
        name: 'silent-host',
        description: 'A host that accepts TCP connections and never sends a byte.',
        entryUrl: `${origin}/`,
        reportedUrlPrefixes: [`${origin}/`],
        expect: skip('robots-unreachable'),
      },
    ],
    goodPaths: [],
  };
}
