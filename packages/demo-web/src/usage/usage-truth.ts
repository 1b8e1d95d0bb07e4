// The truth behind the usage web: for each page, what it serves (usage headers, meta tags) and the
// verdict per purpose that politely's rules give it, stated by hand. The tests parse what the
// servers send with @politely/core's usage functions and check it against this, so it cannot
// drift from what is served; crawl tests judge a crawl with `purposes` by it (`usageManifest`).

import type { UsageMetaTag, UsagePurpose, UsageSourceKind, UsageStatus } from '@politely/core';

/** The usage web's hosts, in address order (127.0.0.90–94 by default). */
export const USAGE_HOST_NAMES = ['hub', 'managed', 'scoped', 'headers', 'tdmrep'] as const;

/** The name of a site of the usage web. */
export type UsageHostName = (typeof USAGE_HOST_NAMES)[number];

/** Origins of the usage hosts by name (`http://127.0.0.x:port`). */
export type UsageOrigins = Readonly<Record<UsageHostName, string>>;

/** Every purpose the manifest states a verdict for (all of politely's purposes). */
export const USAGE_WEB_PURPOSES: readonly UsagePurpose[] = ['search', 'tdm', 'ai-train', 'ai-input', 'ai-train-images'];

/**
 * Source kinds known before the URL is fetched (robots.txt lines, /.well-known/tdmrep.json): a
 * reservation by one of them means the URL must never be requested for that purpose.
 */
export const BEFORE_FETCH_KINDS: readonly UsageSourceKind[] = [
  'robots-content-usage',
  'robots-content-signal',
  'tdmrep-json',
];

/** Whether a source of this kind is known before the URL is fetched. */
export function isBeforeFetchKind(kind: UsageSourceKind): boolean {
  return BEFORE_FETCH_KINDS.includes(kind);
}

/** One purpose's verdict for a page: its status and the kinds of the sources that decide it. */
export interface UsageTruthVerdict {
  readonly status: UsageStatus;
  /**
   * The kinds of the deciding sources (those reserving when `reserved`, those allowing when
   * `allowed`, none when `unknown`), each once, in the order robots.txt, tdmrep.json, headers, meta.
   */
  readonly by: readonly UsageSourceKind[];
}

/** One page of the usage web and the truth about it. */
export interface UsagePageTruth {
  readonly host: UsageHostName;
  /** Path (and query) on the host. */
  readonly path: string;
  /** Absolute URL. */
  readonly url: string;
  /** What the page is there to show, for people. */
  readonly note: string;
  /**
   * The usage-related response header fields the page is served with (lower-case names:
   * `content-usage`, `x-robots-tag`, `tdm-reservation`, `tdm-policy`); every other page sends none of them.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The usage-related `<meta name content>` tags in its `<head>` (`robots`, `tdm-reservation`, `tdm-policy`). */
  readonly meta: readonly UsageMetaTag[];
  /**
   * The verdict for every purpose, for the web's user agent (no robots.txt group of this web names
   * it), from every source: robots.txt, tdmrep.json, headers and meta together.
   */
  readonly verdicts: Readonly<Record<UsagePurpose, UsageTruthVerdict>>;
}

/** A page as a site declares it: the statements it makes, and the verdicts that differ from `unknown`. */
export interface UsagePageDeclaration {
  readonly path: string;
  readonly title: string;
  /** The page's own content, as HTML (links to other pages included). */
  readonly main: string;
  readonly note: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly meta?: readonly UsageMetaTag[];
  /**
   * Purposes reserved, with the deciding source kinds. `ai-train-images` follows `ai-train` unless
   * stated (it inherits within each source), and `ai-train`/`ai-input` follow `tdm` in a source
   * that states `tdm` only: write them out all the same, the tests check every purpose.
   */
  readonly reserved?: Partial<Record<UsagePurpose, readonly UsageSourceKind[]>>;
  /** Purposes allowed (and reserved by no source), with the deciding source kinds. */
  readonly allowed?: Partial<Record<UsagePurpose, readonly UsageSourceKind[]>>;
}

/** The full truth of a declared page: every purpose not declared is `unknown`. */
export function pageTruth(host: UsageHostName, origin: string, page: UsagePageDeclaration): UsagePageTruth {
  const verdicts = {} as Record<UsagePurpose, UsageTruthVerdict>;
  for (const purpose of USAGE_WEB_PURPOSES) {
    const reserved = page.reserved?.[purpose];
    const allowed = page.allowed?.[purpose];
    if (reserved !== undefined && allowed !== undefined) {
      throw new Error(`usage web: ${host}${page.path} declares ${purpose} both reserved and allowed`);
    }
    verdicts[purpose] =
      reserved !== undefined
        ? { status: 'reserved', by: [...reserved] }
        : allowed !== undefined
          ? { status: 'allowed', by: [...allowed] }
          : { status: 'unknown', by: [] };
  }
  return {
    host,
    path: page.path,
    url: `${origin}${page.path}`,
    note: page.note,
    headers: { ...(page.headers ?? {}) },
    meta: [...(page.meta ?? [])],
    verdicts,
  };
}
