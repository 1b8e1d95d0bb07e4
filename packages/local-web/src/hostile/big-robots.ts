// big-robots: a robots.txt of 10 MB. RFC 9309 2.5 lets a crawler stop parsing after 500 KiB,
// so the rule it writes last (`Disallow: /late/`, past that cap) is one a crawler must ignore,
// while `Disallow: /private/` at the top still holds.

import { MIN_ROBOTS_TXT_BYTES } from '@politely/core/internal';
import { a } from '@politely/demo-web/internal';
import { type HostileCase, pageCase, skip } from './hostile-types.js';
import { caseList, type HttpHostileHost, hostilePage, responder } from './http-host.js';

const HEAD = 'User-agent: *\nDisallow: /private/\n';
const TAIL = 'Disallow: /late/\n';
/** The smallest size that still puts the tail beyond RFC 9309's 500 KiB. */
export const MIN_BIG_ROBOTS_BYTES = MIN_ROBOTS_TXT_BYTES + 64 * 1024;

/**
 * Exactly `bytes` long: the head, filler lines (comments, and now and then a line that is no
 * directive at all; never a blank line, which some parsers take as the end of a group), the tail.
 */
export function bigRobotsTxt(bytes: number): string {
  const lines: string[] = [HEAD];
  const fillerEnd = bytes - TAIL.length;
  let length = HEAD.length;
  for (let n = 0; length < fillerEnd; n++) {
    const room = fillerEnd - length;
    let line =
      n % 100 === 99
        ? `this line is not a directive ${n}\n`
        : `# filler line ${n}: nothing to see here, keep reading\n`;
    // The last line takes up exactly the room left (never a lone newline: that is a blank line).
    if (room <= line.length + 1) line = `#${'.'.repeat(room - 2)}\n`;
    lines.push(line);
    length += line.length;
  }
  lines.push(TAIL);
  return lines.join('');
}

export function buildBigRobots(origin: string, robotsBytes: number): HttpHostileHost {
  const cases: HostileCase[] = [
    {
      name: 'big-robots-disallowed',
      description: 'Disallowed by the first lines of a 10 MB robots.txt: never requested.',
      entryUrl: `${origin}/private/secret`,
      reportedUrlPrefixes: [`${origin}/private/`],
      expect: skip('robots'),
    },
    pageCase(
      'big-robots-after-cap',
      'Disallowed only by a rule after the first 500 KiB of robots.txt, which RFC 9309 lets a crawler ignore.',
      `${origin}/late/page`,
    ),
  ];
  const index = hostilePage(
    'big-robots',
    'A very big robots.txt',
    `${caseList(cases)}\n<p>${a('/ok', 'An ordinary page')}</p>`,
  );
  const pages = new Map([
    ['/', index],
    ['/ok', hostilePage('big-robots', 'OK', '<p>Nothing special.</p>')],
    ['/late/page', hostilePage('big-robots', 'Late', '<p>Only a rule past 500 KiB forbids this page.</p>')],
    ['/private/secret', hostilePage('big-robots', 'Secret', '<p>A polite crawler never sees this.</p>')],
  ]);
  return {
    name: 'big-robots',
    description: `A robots.txt of ${robotsBytes} bytes: Disallow: /private/ first, Disallow: /late/ after 500 KiB.`,
    robotsTxt: bigRobotsTxt(robotsBytes),
    cases,
    goodPaths: ['/', '/late/page', '/ok'],
    disallowedKnownPaths: ['/private/secret'],
    respond: responder(pages),
  };
}
