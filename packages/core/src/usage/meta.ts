// Usage preferences in a page's meta tags: `<meta name="tdm-reservation" content="1">` with
// `<meta name="tdm-policy">` (TDMRep, "TDM Metadata in HTML Content"), and `noai` / `noimageai` in
// `<meta name="robots">` or a meta tag named after one of the crawler's product tokens.
// The crawler's HTML scan collects the tags; this module only reads name/content pairs.

import type { RobotsAgents } from '../robots/types.js';
import { parseRobotsDirectives, robotsDirectiveSources, tokenSet } from './robots-directives.js';
import { sourceOf, type UsageSource } from './source.js';
import { statementForPurposes } from './statement.js';
import { tdmReservationOf } from './tdm.js';
import { TDMREP_VOCABULARY } from './vocabulary.js';

/** A `<meta name content>` pair as found in a page (names compare case-insensitively). */
export interface UsageMetaTag {
  readonly name: string;
  readonly content: string;
}

/** The usage sources among a page's meta tags. Never throws; tags it does not know are ignored. */
export function metaUsageSources(meta: readonly UsageMetaTag[], tokens: RobotsAgents = []): UsageSource[] {
  const ours = tokenSet(tokens);
  const out: UsageSource[] = [];
  const policy = meta.find((tag) => tag.name.trim().toLowerCase() === 'tdm-policy')?.content.trim();
  for (const tag of meta) {
    const name = tag.name.trim().toLowerCase();
    const text = `<meta name="${tag.name}" content="${tag.content}">`;
    if (name === 'tdm-reservation') {
      const preference = tdmReservationOf(tag.content);
      if (preference === undefined) continue;
      out.push(
        sourceOf(
          {
            kind: 'tdm-meta',
            text,
            ...(preference === 'reserved' && policy ? { policy } : {}),
            revision: TDMREP_VOCABULARY.revision,
          },
          statementForPurposes(TDMREP_VOCABULARY.purposes, preference, 'tdm-reservation'),
        ),
      );
    } else if (name === 'robots' || ours.has(name)) {
      const directives = parseRobotsDirectives(tag.content).map((d) =>
        name === 'robots' ? d : { ...d, agent: tag.name.trim() },
      );
      out.push(...robotsDirectiveSources('meta-robots', text, directives, tokens));
    }
  }
  return out;
}
