// A usage statement's source as people read it, shared by page records, page content, skip
// details and the report. Pure.

import type { UsageEvidence } from '@politely/core';

/** The path of the TDMRep file on every origin. */
export const TDMREP_PATH = '/.well-known/tdmrep.json';

/**
 * Where a usage statement is, for people: `robots.txt line 4: Content-Usage: train-ai=n`,
 * `header tdm-reservation: 1`, `meta <meta name="robots" content="noai">`, `/.well-known/tdmrep.json
 * entry 0: {…}`. `withToken`: a robots.txt line names the product token whose group holds it.
 */
export function describeUsageSource(
  source: Pick<UsageEvidence, 'kind' | 'text' | 'line' | 'entry' | 'token'>,
  withToken = false,
): string {
  switch (source.kind) {
    case 'robots-content-usage':
    case 'robots-content-signal':
      return `robots.txt line ${source.line ?? '?'}${withToken && source.token !== undefined ? ` (${source.token})` : ''}: ${source.text}`;
    case 'tdmrep-json':
      return `${TDMREP_PATH} entry ${source.entry ?? '?'}: ${source.text}`;
    case 'header-content-usage':
    case 'tdm-header':
    case 'x-robots-tag':
      return `header ${source.text}`;
    case 'tdm-meta':
    case 'meta-robots':
      return `meta ${source.text}`;
    default:
      return source.text;
  }
}
