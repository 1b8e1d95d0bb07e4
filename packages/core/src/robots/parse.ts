// bytes → lines → directives → groups. Pure: no I/O, no clock.

import { PolitelyError } from '../errors.js';
import { byteStringToText, isAscii, toByteString } from './byte-string.js';
import { readDirective } from './directives.js';
import { encodeRulePattern } from './pattern.js';
import { createRobotsTxt } from './robots-txt.js';
import { forEachLine } from './tokenize.js';
import type { RobotsExtensionLine, RobotsGroup, RobotsRule, RobotsTxt, RobotsUserAgentLine } from './types.js';
import { isGlobalAgentValue, productToken } from './user-agent.js';

/** RFC 9309 2.5: crawlers must parse at least the first 500 KiB. */
export const MIN_ROBOTS_TXT_BYTES = 500 * 1024;

/** Options of `parseRobotsTxt`: how many bytes of the file are parsed. */
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
  extensions: RobotsExtensionLine[];
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
  const fileExtensions: RobotsExtensionLine[] = [];
  let current: GroupBuilder | null = null;
  // A user-agent line after a rule starts a new group; before any rule it joins the current one.
  let sawRuleInCurrent = false;

  // For an ASCII file (the usual case) the bytes are already the text: no decoding per line.
  const toText = isAscii(bytes) ? (value: string) => value : byteStringToText;

  forEachLine(bytes, (line, number) => {
    const directive = readDirective(line);
    if (directive === null) return;
    switch (directive.name) {
      case 'user-agent': {
        if (current === null || sawRuleInCurrent) {
          current = { userAgents: [], rules: [], extensions: [] };
          groups.push(current);
          sawRuleInCurrent = false;
        }
        const isGlobal = isGlobalAgentValue(directive.value);
        current.userAgents.push({
          value: toText(directive.value),
          isGlobal,
          token: isGlobal ? '*' : productToken(directive.value),
          line: number,
        });
        break;
      }
      case 'allow':
      case 'disallow': {
        if (current === null) break; // rules before the first user-agent line belong to no group
        sawRuleInCurrent = true;
        current.rules.push({
          type: directive.name,
          value: toText(directive.value),
          pattern: encodeRulePattern(directive.value),
          line: number,
          text: toText(line),
        });
        break;
      }
      case 'sitemap':
        if (directive.value.length > 0) sitemaps.push(toText(directive.value));
        break;
      case 'crawl-delay': {
        const seconds = parseCrawlDelay(directive.value);
        if (current !== null && seconds !== undefined && current.crawlDelay === undefined) current.crawlDelay = seconds;
        break;
      }
      case 'unknown': {
        // Kept for programs that read extensions (Content-Usage, Content-Signal, …); matching never looks.
        const extension: RobotsExtensionLine = {
          name: toText(directive.key).toLowerCase(),
          key: toText(directive.key),
          value: toText(directive.value),
          line: number,
          text: toText(line),
        };
        (current === null ? fileExtensions : current.extensions).push(extension);
        break;
      }
    }
  });

  return createRobotsTxt({
    groups: groups as RobotsGroup[],
    sitemaps,
    extensions: fileExtensions,
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
