// Explaining a robots.txt decision: which group applies to your crawler, which line decided,
// from a file, or live from the site (fetched and interpreted as RFC 9309 says: a 4xx allows
// everything, a 5xx disallows everything for now).
//
//   node examples/explain-robots.mjs URL... [--file robots.txt]
//
// URLs default to $URLS (space-separated), then a few of the demo web's shop (port 8080).

import { readFileSync } from 'node:fs';
import { createRobotsGate, parseRobotsTxt } from '@politely/core';

const USER_AGENT = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const args = process.argv.slice(2);
const fileAt = args.indexOf('--file');
const file = fileAt === -1 ? undefined : args.splice(fileAt, 2)[1];
const urls =
  args.length > 0
    ? args
    : (process.env.URLS ?? 'http://127.0.0.3:8080/account/help http://127.0.0.3:8080/account/orders').split(' ');

if (file !== undefined) {
  // From a file: parse once, explain many.
  const robots = parseRobotsTxt(readFileSync(file));
  for (const url of urls) {
    const why = robots.explain(url, USER_AGENT);
    const rule = why.rule === undefined ? why.basis : `line ${why.rule.line}: ${why.rule.text}`;
    const group = why.groups
      .map((agents) => agents.map((agent) => `line ${agent.line}: user-agent: ${agent.value}`).join(', '))
      .join('; ');
    console.log(
      `${why.allowed ? 'ALLOWED' : 'DISALLOWED'} ${url}\n  group: ${group || 'none'} (${why.groupKind})\n  decided by: ${rule}`,
    );
  }
} else {
  // Live: the gate fetches each origin's robots.txt once and caches it. Its SSRF guard refuses
  // loopback and private addresses: the demo web on 127.0.0.x is let through by name.
  const gate = createRobotsGate({ userAgent: USER_AGENT, allowNet: ['127.0.0.0/8'] });
  try {
    for (const url of urls) {
      const check = await gate.check(url, USER_AGENT);
      const rule =
        check.rule === undefined ? `no rule (${check.reason})` : `line ${check.rule.line}: ${check.rule.text}`;
      const delay = check.crawlDelay === undefined ? '' : `, crawl-delay ${check.crawlDelay} s`;
      console.log(
        `${check.allowed ? 'ALLOWED' : 'DISALLOWED'} ${url}\n  robots.txt ${check.status ?? 'unreachable'} (${check.reason})${delay}\n  decided by: ${rule}`,
      );
    }
  } finally {
    await gate.close();
  }
}
