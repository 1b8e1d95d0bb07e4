// Where a statement of preference came from: the unit a verdict cites.

import type { UsagePurposePreference, UsagePurposePreferences, UsageStatement } from './statement.js';

/** The mechanism that carried a statement. */
export type UsageSourceKind =
  /** A `Content-Usage` line of robots.txt (draft-ietf-aipref-attach). */
  | 'robots-content-usage'
  /** A `Content-Signal` line of robots.txt (Content Signals). */
  | 'robots-content-signal'
  /** The `Content-Usage` response header field (draft-ietf-aipref-attach). */
  | 'header-content-usage'
  /** The `tdm-reservation` response header field (TDMRep). */
  | 'tdm-header'
  /** `<meta name="tdm-reservation">` (TDMRep). */
  | 'tdm-meta'
  /** A rule of /.well-known/tdmrep.json (TDMRep). */
  | 'tdmrep-json'
  /** `noai` / `noimageai` in `<meta name="robots">` (or a meta tag named after the crawler). */
  | 'meta-robots'
  /** `noai` / `noimageai` in the `X-Robots-Tag` response header field. */
  | 'x-robots-tag';

/** Where a statement was found, enough for a person to find it again. */
export interface UsageSourceLocation {
  readonly kind: UsageSourceKind;
  /** The statement as written: the robots.txt line, `name: value` of a header, the meta tag, the JSON rule. */
  readonly text: string;
  /** 1-based robots.txt line number (robots sources). */
  readonly line?: number;
  /** The product token whose group holds the line, or that a scoped directive names. */
  readonly token?: string;
  /** The path pattern of a path-scoped robots.txt line or the `location` of a tdmrep.json rule. */
  readonly path?: string;
  /** 0-based index of the rule in tdmrep.json. */
  readonly entry?: number;
  /** The `tdm-policy` URL that goes with a TDM reservation, if given. */
  readonly policy?: string;
  /** The document (and revision) the statement was read by. */
  readonly revision: string;
}

/** One statement and where it came from. */
export interface UsageSource extends UsageSourceLocation {
  /** What it says per purpose (inheritance within the statement resolved). */
  readonly purposes: UsagePurposePreferences;
}

/** A source as cited by the verdict of one purpose: where, and what it says about that purpose. */
export type UsageEvidence = UsageSourceLocation & UsagePurposePreference;

/** A source from a location and a statement. */
export function sourceOf(location: UsageSourceLocation, statement: UsageStatement): UsageSource {
  return { ...location, purposes: statement.purposes };
}
