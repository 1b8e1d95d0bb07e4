// The options of link extraction, validated once and filled with their defaults.

import { PolitelyError } from '@politely/core';

export interface ExtractOptions {
  /**
   * Our product token (`MyBot`, the leading `[A-Za-z_-]` run of the user agent): it selects
   * `<meta name="MyBot">` and `X-Robots-Tag: MyBot: …`, both matched ignoring case.
   */
  readonly productToken: string;
  /**
   * Whether links whose `rel` holds one of `nofollowRels` are kept out of `links` (they are
   * returned in `nofollowLinks` instead). A page-level `nofollow` (meta robots or
   * `X-Robots-Tag`) is always honoured, whatever this says.
   * @default true
   */
  readonly honorNofollow?: boolean;
  /**
   * The `rel` tokens that mark a link nofollow, matched ignoring case. Add `ugc` and
   * `sponsored` to treat them as Google does for ranking.
   * @default ['nofollow']
   */
  readonly nofollowRels?: readonly string[];
  /**
   * The most URLs returned in `links`, and separately in `nofollowLinks`; distinct URLs past
   * it are counted in `skippedLinks.overLimit`.
   * @default 10000
   */
  readonly maxLinks?: number;
  /**
   * The response's `X-Robots-Tag` header values, as the HTTP client gives them: one string
   * (possibly comma-joined) or one string per header line.
   * @default []
   */
  readonly xRobotsTag?: string | readonly string[] | undefined;
}

/** `ExtractOptions` with every default filled in and every value checked. */
export interface ResolvedExtractOptions {
  readonly productToken: string;
  readonly honorNofollow: boolean;
  /** Lowercased. */
  readonly nofollowRels: readonly string[];
  readonly maxLinks: number;
  readonly xRobotsTag: readonly string[];
}

/** RFC 9309 2.2.1: a product token is made of letters, `_` and `-`. */
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;
const REL_TOKEN = /^[^\t\n\f\r ]+$/;

function invalid(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', `extractPage: ${message}`);
}

export function resolveExtractOptions(options: ExtractOptions): ResolvedExtractOptions {
  const { productToken } = options;
  if (typeof productToken !== 'string' || !PRODUCT_TOKEN.test(productToken)) {
    throw invalid(`productToken must be a non-empty run of letters, '_' and '-', got ${JSON.stringify(productToken)}`);
  }
  const honorNofollow = options.honorNofollow ?? true;
  if (typeof honorNofollow !== 'boolean') {
    throw invalid(`honorNofollow must be a boolean, got ${String(honorNofollow)}`);
  }
  const maxLinks = options.maxLinks ?? 10_000;
  if (!Number.isSafeInteger(maxLinks) || maxLinks < 0) {
    throw invalid(`maxLinks must be a non-negative integer, got ${String(maxLinks)}`);
  }
  const nofollowRels = (options.nofollowRels ?? ['nofollow']).map((rel) => {
    if (typeof rel !== 'string' || !REL_TOKEN.test(rel)) {
      throw invalid(`nofollowRels must hold non-empty tokens without whitespace, got ${JSON.stringify(rel)}`);
    }
    return rel.toLowerCase();
  });
  const header = options.xRobotsTag ?? [];
  const xRobotsTag = typeof header === 'string' ? [header] : [...header];
  if (!xRobotsTag.every((value) => typeof value === 'string')) {
    throw invalid('xRobotsTag must be a string or an array of strings');
  }
  return { productToken, honorNofollow, nofollowRels, maxLinks, xRobotsTag };
}
