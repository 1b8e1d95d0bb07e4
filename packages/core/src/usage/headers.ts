// Usage preferences in HTTP response header fields: `Content-Usage` (draft-ietf-aipref-attach-05 §2),
// `tdm-reservation` / `tdm-policy` (TDMRep, "TDM Header Field in HTTP Responses") and `X-Robots-Tag`
// (`noai`, `noimageai`). Pure: the headers are given.

import type { RobotsAgents } from '../robots/types.js';
import { parseAiprefStatement } from './aipref.js';
import { parseRobotsDirectives, robotsDirectiveSources } from './robots-directives.js';
import { sourceOf, type UsageSource } from './source.js';
import { statementForPurposes, type UsageStatement } from './statement.js';
import { tdmReservationOf } from './tdm.js';
import { AIPREF_VOCABULARY, TDMREP_VOCABULARY } from './vocabulary.js';

/**
 * Response headers as a crawler has them: a WHATWG `Headers`, or a plain object (any case of name;
 * a repeated field as an array or already joined with ", ").
 */
export type UsageHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Every value of the header `name` (case-insensitive), in order. */
export function headerValues(headers: UsageHeaders, name: string): string[] {
  const lower = name.toLowerCase();
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).forEach === 'function') {
    const value = (headers as Headers).get(lower);
    return value === null ? [] : [value];
  }
  const out: string[] = [];
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    if (typeof value === 'string') out.push(value);
    else out.push(...value);
  }
  return out;
}

/**
 * Reads the `Content-Usage` header field: an RFC 9651 Dictionary in the AI Preferences vocabulary.
 * Several field lines are one Dictionary, joined with commas (RFC 9651 §4.2). Never throws.
 */
export function parseContentUsageHeader(value: string | readonly string[]): UsageStatement {
  return parseAiprefStatement(typeof value === 'string' ? value : value.join(', '));
}

/** The header-borne sources of a response: `Content-Usage`, `tdm-reservation`, `X-Robots-Tag`. */
export function headerUsageSources(headers: UsageHeaders, tokens: RobotsAgents = []): UsageSource[] {
  const out: UsageSource[] = [];
  const contentUsage = headerValues(headers, 'content-usage');
  if (contentUsage.length > 0) {
    const text = contentUsage.join(', ');
    out.push(
      sourceOf(
        {
          kind: 'header-content-usage',
          text: `Content-Usage: ${text}`,
          revision: `draft-ietf-aipref-attach-05, ${AIPREF_VOCABULARY.revision}`,
        },
        parseContentUsageHeader(contentUsage),
      ),
    );
  }
  const reservation = headerValues(headers, 'tdm-reservation');
  if (reservation.length > 0) {
    const preference = tdmReservationOf(reservation.join(', '));
    if (preference !== undefined) {
      const policy = preference === 'reserved' ? headerValues(headers, 'tdm-policy')[0]?.trim() : undefined;
      out.push(
        sourceOf(
          {
            kind: 'tdm-header',
            text: `tdm-reservation: ${reservation.join(', ')}`,
            ...(policy ? { policy } : {}),
            revision: TDMREP_VOCABULARY.revision,
          },
          statementForPurposes(TDMREP_VOCABULARY.purposes, preference, 'tdm-reservation'),
        ),
      );
    }
  }
  for (const value of headerValues(headers, 'x-robots-tag')) {
    out.push(
      ...robotsDirectiveSources('x-robots-tag', `X-Robots-Tag: ${value}`, parseRobotsDirectives(value, true), tokens),
    );
  }
  return out;
}
