// createCrawler's options that cannot take effect together, and the services it is handed.
// An option another one makes void is refused (ERR_INVALID_OPTION naming both), as an unknown
// key is: a safety option such as `allowNet` must never be dropped without a word.

import { isUsagePurpose, type UsagePurpose } from '@politely/core';
import type { OptionChecks } from '@politely/core/internal';
import { describeValue, tdmrepCanDecide } from '@politely/core/internal';
import type { CrawlerOptions } from './crawler-options.js';

/** One option that another makes void: `void` is voided by `by`, for the reason `why`. */
export interface VoidedOption {
  readonly option: keyof CrawlerOptions;
  readonly by: keyof CrawlerOptions;
  /** Whether `by`, as given, voids the option (the option itself is given). */
  readonly voids: (options: CrawlerOptions) => boolean;
  readonly why: string;
}

const OWN_CLIENT = "it configures the crawler's own HTTP client, which a given httpClient replaces";
const given = (value: unknown): boolean => value !== undefined;
/** Without `politenessKey: 'ip'` or a `resolver`, the address book (which also applies the guard) is not made. */
const noAddressBook = (options: CrawlerOptions): boolean =>
  options.politenessKey !== 'ip' && options.resolver === undefined;
/** A list of known purposes (a wrong one is refused by the purposes check, not here). */
const isPurposeList = (purposes: unknown): purposes is readonly UsagePurpose[] =>
  Array.isArray(purposes) && purposes.every((purpose) => typeof purpose === 'string' && isUsagePurpose(purpose));
const notRendering = (options: CrawlerOptions): boolean => options.render === undefined || options.render === false;

const GUARD_ELSEWHERE = `${OWN_CLIENT}; with one, the guard applies only to politenessKey 'ip', a resolver's answers and rendered pages' sub-requests`;

/** Every pair refused: the docs (docs/writing-crawlers.md) list the same. */
export const VOIDED_OPTIONS: readonly VoidedOption[] = [
  { option: 'proxy', by: 'httpClient', voids: (o) => given(o.httpClient), why: OWN_CLIENT },
  { option: 'connectTimeoutMs', by: 'httpClient', voids: (o) => given(o.httpClient), why: OWN_CLIENT },
  { option: 'maxHeaderBytes', by: 'httpClient', voids: (o) => given(o.httpClient), why: OWN_CLIENT },
  {
    option: 'blockPrivateNetworks',
    by: 'httpClient',
    voids: (o) => given(o.httpClient) && noAddressBook(o) && notRendering(o),
    why: GUARD_ELSEWHERE,
  },
  {
    option: 'allowNet',
    by: 'httpClient',
    voids: (o) => given(o.httpClient) && noAddressBook(o) && notRendering(o),
    why: GUARD_ELSEWHERE,
  },
  {
    option: 'resolver',
    by: 'httpClient',
    voids: (o) => given(o.httpClient) && o.politenessKey !== 'ip',
    why: `${OWN_CLIENT}, which resolves host names itself`,
  },
  {
    option: 'tdmrepCacheMs',
    by: 'purposes',
    voids: (o) => o.purposes === undefined || (isPurposeList(o.purposes) && !tdmrepCanDecide(o.purposes)),
    why: 'tdmrep.json is fetched only for a purpose TDMRep decides (tdm, or one within it)',
  },
  {
    option: 'robotsCache',
    by: 'gate',
    voids: (o) => given(o.gate),
    why: "it is where the crawler's own gate keeps robots.txt; give the cache to your gate instead",
  },
  {
    option: 'renderer',
    by: 'render',
    voids: notRendering,
    why: 'nothing is rendered without render (true, or a function of the request)',
  },
  {
    option: 'renderWaitUntil',
    by: 'render',
    voids: notRendering,
    why: 'nothing is rendered without render (true, or a function of the request)',
  },
  {
    option: 'renderTimeoutMs',
    by: 'render',
    voids: notRendering,
    why: 'nothing is rendered without render (true, or a function of the request)',
  },
  {
    option: 'renderBlockResourceTypes',
    by: 'render',
    voids: notRendering,
    why: 'nothing is rendered without render (true, or a function of the request)',
  },
];

/** Refuses an option that another option given makes void, naming both. */
export function checkCombinations(check: OptionChecks, options: CrawlerOptions): void {
  for (const { option, by, voids, why } of VOIDED_OPTIONS) {
    if (options[option] === undefined || !voids(options)) continue;
    const other = options[by] === undefined ? `${by} not given` : by;
    check.fail(`${option} cannot take effect with ${other}: ${why}`);
  }
}

/** The services createCrawler is handed, and the methods each must have. */
const SERVICE_METHODS: Readonly<Partial<Record<keyof CrawlerOptions, readonly string[]>>> = {
  store: ['add', 'claim', 'complete'],
  gate: ['check', 'close'],
  robotsCache: ['get', 'set', 'delete'],
  httpClient: ['get', 'close'],
  meterProvider: ['getMeter'],
  renderer: ['start'],
  resolver: [],
  signal: ['addEventListener'],
};

/** Each service given is an object with its methods (a resolver: a function), checked now, not when first used. */
export function checkServices(check: OptionChecks, options: CrawlerOptions): void {
  for (const [name, methods] of Object.entries(SERVICE_METHODS)) {
    const value = (options as unknown as Record<string, unknown>)[name];
    if (value === undefined || methods === undefined) continue;
    if (methods.length === 0) {
      if (typeof value !== 'function') check.fail(`${name} must be a function, got ${describeValue(value)}`);
      continue;
    }
    const missing =
      typeof value === 'object' && value !== null
        ? methods.filter((method) => typeof (value as Record<string, unknown>)[method] !== 'function')
        : methods;
    if (missing.length > 0)
      check.fail(`${name} must be an object with the methods ${methods.join(', ')}; missing: ${missing.join(', ')}`);
  }
}
