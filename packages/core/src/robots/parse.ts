// bytes → lines → directives → groups. Pure: no I/O, no clock.

import { PolitelyError } from '../errors.js';
import { byteStringToText, toByteString } from './byte-string.js';
import { readLine } from './directives.js';
import { encodeRulePattern } from './pattern.js';
import { createRobotsTxt } from './robots-txt.js';
import { tokenizeLines } from './tokenize.js';
import type { RobotsGroup, RobotsRule, RobotsTxt, RobotsUserAgentLine } from './types.js';
import { isGlobalAgentValue, productToken } from './user-agent.js';

/** RFC 9309 2.5: crawlers must parse at least the first 500 KiB. */
export const MIN_ROBOTS_TXT_BYTES = 500 * 1024;

export interface ParseRobotsTxtOptions {
  /**
   * Bytes of the file that are parsed; the rest is ignored, as RFC 9309 allows.
   * Never below 500 KiB.
   * @default 512000 (500 KiB)
   */
  readonly maxBytes?: number;
}

export function resolveParseRobotsTxtOptions(options: ParseRobotsTxtOptions = {}): Required<ParseRobotsTxtOptions> {
  const maxBytes = options.maxBytes ?? MIN_ROBOTS_TXT_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < MIN_ROBOTS_TXT_BYTES) {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `parseRobotsTxt: maxBytes must be an integer of at least ${MIN_ROBOTS_TXT_BYTES} (500 KiB), got ${String(maxBytes)}`,
    );
  }
  return { maxBytes };
}

interface GroupBuilder {
  userAgents: RobotsUserAgentLine[];
  rules: RobotsRule[];
  crawlDelay?: number;
}

/**
 * Parses a robots.txt body. Never throws on content: invalid UTF-8, NUL bytes, binary data or an
 * HTML page parse to whatever valid lines they hold.
 */
export function parseRobotsTxt(input: string | Uint8Array, options?: ParseRobotsTxtOptions): RobotsTxt {
  const { maxBytes } = resolveParseRobotsTxtOptions(options);
  const { bytes, totalBytes } = toByteString(input, maxBytes);
  const groups: GroupBuilder[] = [];
  const sitemaps: string[] = [];
  let current: GroupBuilder | null = null;
  // A user-agent line after a rule starts a new group; before any rule it joins the current one.
  let sawRuleInCurrent = false;

  for (const raw of tokenizeLines(bytes)) {
    const directive = readLine(raw.bytes).directive;
    if (directive === null) continue;
    switch (directive.name) {
      case 'user-agent': {
        if (current === null || sawRuleInCurrent) {
          current = { userAgents: [], rules: [] };
          groups.push(current);
          sawRuleInCurrent = false;
        }
        current.userAgents.push({
          value: byteStringToText(directive.value),
          isGlobal: isGlobalAgentValue(directive.value),
          token: isGlobalAgentValue(directive.value) ? '*' : productToken(directive.value),
          line: raw.number,
        });
        break;
      }
      case 'allow':
      case 'disallow': {
        if (current === null) break; // rules before the first user-agent line belong to no group
        sawRuleInCurrent = true;
        current.rules.push({
          type: directive.name,
          value: byteStringToText(directive.value),
          pattern: encodeRulePattern(directive.value),
          line: raw.number,
          text: byteStringToText(raw.bytes),
        });
        break;
      }
      case 'sitemap':
        if (directive.value.length > 0) sitemaps.push(byteStringToText(directive.value));
        break;
      case 'crawl-delay': {
        const seconds = parseCrawlDelay(directive.value);
        if (current !== null && seconds !== undefined && current.crawlDelay === undefined) current.crawlDelay = seconds;
        break;
      }
      case 'unknown':
        break;
    }
  }

  return createRobotsTxt({
    groups: groups as RobotsGroup[],
    sitemaps,
    totalBytes,
    parsedBytes: bytes.length,
  });
}

/** A non-negative decimal number of seconds, or undefined. */
export function parseCrawlDelay(value: string): number | undefined {
  if (!/^\d+(?:\.\d*)?$|^\.\d+$/.test(value)) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) ? seconds : undefined;
}
