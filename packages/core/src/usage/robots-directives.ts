// `noai` / `noimageai` among robots directives: the content of `<meta name="robots">` (or a meta tag
// named after a crawler) and the value of `X-Robots-Tag`, which may name a crawler first
// (`X-Robots-Tag: otherbot: noai, noimageai`; header lines joined with ", " can switch crawler).

import type { RobotsAgents } from '../robots/types.js';
import { productToken } from '../robots/user-agent.js';
import { sourceOf, type UsageSource, type UsageSourceKind } from './source.js';
import { statementForPurposes } from './statement.js';
import { ROBOTS_META_DIRECTIVES } from './vocabulary.js';

/** One robots directive, lower-cased, with the crawler it is addressed to (undefined: every crawler). */
export interface RobotsDirective {
  readonly directive: string;
  /** The product token a scoped `X-Robots-Tag` names (`otherbot: noai`), as written. */
  readonly agent?: string;
}

// Directives whose value follows a colon, so that `max-snippet: 20` is not read as a crawler name.
const VALUED_DIRECTIVES = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);
const SCOPED = /^([A-Za-z_][A-Za-z0-9_.-]*)\s*:\s*(.*)$/s;

/**
 * Splits a robots directive list (`noindex, noai`) into directives. With `scoped` (X-Robots-Tag),
 * an entry `name: directive` whose name is not a directive taking a value starts the directives
 * of the crawler `name`. Never throws; empty entries are skipped.
 */
export function parseRobotsDirectives(value: string, scoped = false): RobotsDirective[] {
  const out: RobotsDirective[] = [];
  let agent: string | undefined;
  for (const raw of value.split(',')) {
    let entry = raw.trim();
    if (scoped) {
      const match = SCOPED.exec(entry);
      if (match !== null && !VALUED_DIRECTIVES.has(match[1]!.toLowerCase())) {
        agent = match[1]!;
        entry = match[2]!.trim();
      }
    }
    if (entry.length === 0) continue;
    out.push({ directive: entry.toLowerCase(), ...(agent !== undefined ? { agent } : {}) });
  }
  return out;
}

/**
 * The usage sources among robots directives: one per usage directive (`noai`, `noimageai`) that is
 * addressed to every crawler or to one of `tokens` (product tokens compare case-insensitively).
 */
export function robotsDirectiveSources(
  kind: Extract<UsageSourceKind, 'meta-robots' | 'x-robots-tag'>,
  text: string,
  directives: readonly RobotsDirective[],
  tokens: RobotsAgents,
): UsageSource[] {
  const ours = tokenSet(tokens);
  const out: UsageSource[] = [];
  for (const { directive, agent } of directives) {
    const purposes = Object.hasOwn(ROBOTS_META_DIRECTIVES, directive) ? ROBOTS_META_DIRECTIVES[directive] : undefined;
    if (purposes === undefined) continue;
    if (agent !== undefined && !ours.has(agent.toLowerCase())) continue;
    out.push(
      sourceOf(
        {
          kind,
          text,
          ...(agent !== undefined ? { token: agent } : {}),
          revision: 'noai/noimageai robots directives (no specification)',
        },
        statementForPurposes(purposes, 'reserved', directive),
      ),
    );
  }
  return out;
}

/** The lower-cased product tokens of the crawler. */
export function tokenSet(tokens: RobotsAgents): Set<string> {
  const list = typeof tokens === 'string' ? [tokens] : tokens;
  return new Set(list.map((token) => productToken(token).toLowerCase()).filter((token) => token.length > 0));
}
