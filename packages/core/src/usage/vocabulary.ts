// The vocabularies of usage preferences, as data. Every mechanism politely reads states
// preferences in its own words (IETF AI Preferences categories, Content Signals, TDMRep, robots
// meta directives); this module says which politely purpose each word speaks about. A new draft
// revision is a change here, not in the parsers.
//
// Documents followed (their revisions and dates: docs/usage-preferences.md):
// - draft-ietf-aipref-vocab-08: categories `train-ai` (AI Training, §4.1),
//   `ai-use` (AI Use, §4.2), `search` (Search, §4.3); labels in Table 1 (§6.1), values `y`/`n` as
//   RFC 9651 Tokens (§6.2); flat: no category is nested in another. (Revisions up to -05 resolved an
//   unstated category through the broader one that contains it; `parent` below keeps that possible.)
// - draft-ietf-aipref-attach-05: the `Content-Usage` header field and robots.txt rule.
// - draft-romm-aipref-contentsignals-00 and Cloudflare's Content Signals Policy (the comment block
//   of its managed robots.txt): `search`, `ai-input`, `ai-train`, values `yes`/`no`.
// - W3C TDM Reservation Protocol, Community Group Final Report: `tdm-reservation`
//   1/0 and `tdm-policy`, as header fields, HTML meta names and /.well-known/tdmrep.json rules.
// - `noai` / `noimageai` in robots meta tags and X-Robots-Tag (a convention started by DeviantArt in
//   2022; no specification).

/**
 * What a crawler may want to do with what it fetched. Each purpose has a verdict per URL.
 * - `search`: building a search index and showing links with short excerpts.
 * - `ai-input`: giving the content to a generative AI model at answer time (retrieval, grounding).
 * - `ai-train`: training or fine-tuning an AI model.
 * - `ai-train-images`: training an AI model on the images of the page (narrower than `ai-train`).
 * - `tdm`: text and data mining (EU Directive 2019/790, Art. 4), which includes `ai-train` and
 *   `ai-input`.
 */
export type UsagePurpose = 'search' | 'ai-input' | 'ai-train' | 'ai-train-images' | 'tdm';

/** A purpose and the broader purpose it is part of, if any. */
export interface UsagePurposeDefinition {
  readonly purpose: UsagePurpose;
  /**
   * The broader purpose that contains this one. A source that says nothing about this purpose but
   * states a preference about the broader one states it about this one too (inheritance is resolved
   * within each source before sources are combined).
   */
  readonly parent?: UsagePurpose;
  /** One line for people. */
  readonly description: string;
}

/** politely's purposes, broader ones first. */
export const USAGE_PURPOSES: readonly UsagePurposeDefinition[] = [
  { purpose: 'search', description: 'building a search index and showing links with short excerpts' },
  { purpose: 'tdm', description: 'text and data mining (EU Directive 2019/790, Art. 4)' },
  { purpose: 'ai-train', parent: 'tdm', description: 'training or fine-tuning AI models' },
  {
    purpose: 'ai-input',
    parent: 'tdm',
    description: 'input to a generative AI model at answer time (retrieval, grounding)',
  },
  { purpose: 'ai-train-images', parent: 'ai-train', description: 'training AI models on the images of the page' },
];

/** One category of a vocabulary: the label as written in a statement, and the purposes it speaks for. */
export interface UsageCategory {
  /** The label as written (`train-ai`). Labels are case-sensitive in AI Preferences. */
  readonly label: string;
  /** The politely purposes a preference for this category is a preference for. */
  readonly purposes: readonly UsagePurpose[];
  /**
   * The label of the broader category of the same vocabulary, when the revision nests categories:
   * an unstated category takes the broader one's preference. None in draft-ietf-aipref-vocab-08.
   */
  readonly parent?: string;
}

/** A dictionary-style vocabulary: categories and the value that allows or reserves each. */
export interface UsageVocabulary {
  /** The document and revision the data follows, for messages and reports. */
  readonly revision: string;
  readonly categories: readonly UsageCategory[];
  /** The value that allows a category (`y`, `yes`). */
  readonly allow: string;
  /** The value that reserves a category (`n`, `no`). */
  readonly reserve: string;
}

/** IETF AI Preferences vocabulary: `Content-Usage` header field and robots.txt rule. */
export const AIPREF_VOCABULARY: UsageVocabulary = {
  revision: 'draft-ietf-aipref-vocab-08',
  categories: [
    { label: 'train-ai', purposes: ['ai-train'] },
    { label: 'ai-use', purposes: ['ai-input'] },
    { label: 'search', purposes: ['search'] },
  ],
  allow: 'y',
  reserve: 'n',
};

/** Content Signals (`Content-Signal:` in robots.txt). */
export const CONTENT_SIGNAL_VOCABULARY: UsageVocabulary = {
  revision: 'draft-romm-aipref-contentsignals-00',
  categories: [
    { label: 'search', purposes: ['search'] },
    { label: 'ai-input', purposes: ['ai-input'] },
    { label: 'ai-train', purposes: ['ai-train'] },
  ],
  allow: 'yes',
  reserve: 'no',
};

/** TDMRep: what `tdm-reservation` speaks about, and its two values. */
export const TDMREP_VOCABULARY = {
  revision: 'W3C TDMRep Community Group Final Report, 10 May 2024',
  purposes: ['tdm'] as readonly UsagePurpose[],
  /** `tdm-reservation: 1`: TDM rights are reserved. */
  reserve: '1',
  /** `tdm-reservation: 0`: TDM rights are not reserved. */
  allow: '0',
} as const;

/**
 * Robots meta / X-Robots-Tag directives that reserve purposes. There is no directive that allows.
 * `noai` is read broadly (no AI training, no AI input), `noimageai` as the page's images only.
 */
export const ROBOTS_META_DIRECTIVES: Readonly<Record<string, readonly UsagePurpose[]>> = {
  noai: ['ai-train', 'ai-input'],
  noimageai: ['ai-train-images'],
};

const PURPOSE_BY_NAME = new Map(USAGE_PURPOSES.map((definition) => [definition.purpose, definition]));

/** Every purpose, broader ones first. */
export const ALL_USAGE_PURPOSES: readonly UsagePurpose[] = USAGE_PURPOSES.map((d) => d.purpose);

/** Whether `name` is one of politely's purposes (for checking options). */
export function isUsagePurpose(name: string): name is UsagePurpose {
  return PURPOSE_BY_NAME.has(name as UsagePurpose);
}

/** The broader purposes that contain `purpose`, nearest first. */
export function purposeAncestors(purpose: UsagePurpose): UsagePurpose[] {
  const out: UsagePurpose[] = [];
  let parent = PURPOSE_BY_NAME.get(purpose)?.parent;
  while (parent !== undefined && !out.includes(parent)) {
    out.push(parent);
    parent = PURPOSE_BY_NAME.get(parent)?.parent;
  }
  return out;
}

/**
 * Whether /.well-known/tdmrep.json can decide one of `purposes` (directly or through a broader
 * purpose it inherits from): the crawler fetches that file only then.
 */
export function tdmrepCanDecide(purposes: readonly UsagePurpose[]): boolean {
  return purposes.some((purpose) =>
    [purpose, ...purposeAncestors(purpose)].some((p) => TDMREP_VOCABULARY.purposes.includes(p)),
  );
}
