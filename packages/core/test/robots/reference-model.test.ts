import { parseRobotsTxt } from '@politely/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toByteString } from '../../src/robots/byte-string.js';
import { readLine } from '../../src/robots/directives.js';
import { encodeRulePattern } from '../../src/robots/pattern.js';
import { tokenizeLines } from '../../src/robots/tokenize.js';
import { matchPathOf } from '../../src/robots/url-path.js';
import { referenceMatches } from './reference-matcher.js';

// An independent model of the reference matcher's streaming state machine (robots.cc
// RobotsMatcher: seen_global_agent_, seen_specific_agent_, seen_separator_, best priorities per
// side), fed by the same line reader. politely compiles groups instead of streaming; this
// checks that the two agree on group selection, merging and precedence.

const token = (s: string) => /^[A-Za-z_-]*/.exec(s)![0];

function referenceAllowed(body: string, userAgent: string, url: string): boolean {
  const path = matchPathOf(url);
  if (path === '/robots.txt') return true;
  const agent = token(userAgent).toLowerCase();
  let global = false,
    specific = false,
    everSpecific = false,
    separator = false;
  const best = { allowSpecific: -1, disallowSpecific: -1, allowGlobal: -1, disallowGlobal: -1 };
  const record = (allow: boolean, priority: number) => {
    const key = `${allow ? 'allow' : 'disallow'}${specific ? 'Specific' : 'Global'}` as keyof typeof best;
    if (best[key] < priority) best[key] = priority;
  };
  for (const line of tokenizeLines(toByteString(body, Infinity).bytes)) {
    const d = readLine(line.bytes).directive;
    if (d === null) continue;
    if (d.name === 'user-agent') {
      if (separator) global = specific = separator = false;
      if (d.value[0] === '*' && (d.value.length === 1 || /\s/.test(d.value[1]!))) global = true;
      else if (token(d.value).toLowerCase() === agent) everSpecific = specific = true;
    } else if (d.name === 'allow' || d.name === 'disallow') {
      if (!global && !specific) continue;
      separator = true;
      const pattern = encodeRulePattern(d.value);
      if (referenceMatches(path, pattern)) record(d.name === 'allow', pattern.length);
      else if (d.name === 'allow') {
        const slash = pattern.lastIndexOf('/');
        const alt = pattern.slice(0, slash + 1) + '$';
        if (slash !== -1 && pattern.startsWith('/index.htm', slash) && referenceMatches(path, alt))
          record(true, alt.length);
      }
    }
  }
  if (best.allowSpecific > 0 || best.disallowSpecific > 0) return !(best.disallowSpecific > best.allowSpecific);
  if (everSpecific) return true;
  if (best.allowGlobal > 0 || best.disallowGlobal > 0) return !(best.disallowGlobal > best.allowGlobal);
  return true;
}

const agentValue = fc.constantFrom(
  '*',
  '* extra',
  '*bot',
  'FooBot',
  'foobot/2.0',
  'Foo Bar',
  'BarBot',
  '',
  'Baz_Bot-x',
);
const ruleValue = fc
  .array(fc.constantFrom('/', 'a', 'b', '*', '$', '.html', 'index.html', '?', '%61', 'ツ', ' '), { maxLength: 6 })
  .map((p) => p.join(''));
const line = fc.oneof(
  agentValue.map((v) => `User-agent: ${v}`),
  fc.tuple(fc.constantFrom('Allow', 'Disallow', 'disalow', 'allow'), ruleValue).map(([k, v]) => `${k}: ${v}`),
  fc.constantFrom('', '# comment', 'Sitemap: http://x/s.xml', 'Crawl-delay: 3', 'unknown: x', 'junk line here'),
);
const body = fc.array(line, { maxLength: 14 }).map((lines) => lines.join('\n'));
const pathPart = fc
  .array(fc.constantFrom('/', 'a', 'b', '.html', 'index.html', '?', 'x=1', '%61', 'ツ'), { maxLength: 6 })
  .map((p) => p.join(''));
const url = pathPart.map((p) => `http://site.example/${p}`);
const userAgent = fc.constantFrom('FooBot', 'foobot/1.0 (+http://x)', 'Foo', 'BarBot', 'Other', 'Baz_Bot-x', '');

describe('RobotsTxt.isAllowed against a model of the reference matcher', () => {
  it('agrees on random files, agents and URLs', () => {
    fc.assert(
      fc.property(body, userAgent, url, (robots, ua, u) => {
        expect(parseRobotsTxt(robots).isAllowed(u, ua)).toBe(referenceAllowed(robots, ua, u));
      }),
      { numRuns: 20_000 },
    );
  });
});
