// startUsageWeb: five hosts that state usage preferences (AI training, AI input, search, text and
// data mining) in every way politely reads, with the truth behind each page (`usagePages`) and,
// for a crawl with `purposes`, what it must never request and what it must not hand on
// (`usageManifest`).

import { productToken, type UsagePurpose, type UsageSourceKind } from '@politely/core';
import { crawlManifest } from '../crawl-manifest.js';
import { LocalWebError } from '../errors.js';
import { checkAddressRange, checkPort } from '../listen.js';
import { startLocalWeb } from '../local-web.js';
import type { LocalWeb } from '../types.js';
import { buildUsageSites, MANAGED_BLOCKED_TOKENS, TDMREP_PATH, type UsageSite } from './usage-sites.js';
import {
  isBeforeFetchKind,
  USAGE_HOST_NAMES,
  type UsageHostName,
  type UsageOrigins,
  type UsagePageTruth,
} from './usage-truth.js';

/** Options of `startUsageWeb`: the port, the first loopback address and the user agent its robots.txt names. */
export interface UsageWebOptions {
  /**
   * The TCP port every host listens on. 0 lets the OS pick one free port, shared by all hosts.
   * @default 0
   */
  readonly port?: number;
  /**
   * Last octet of the first host's address: the hosts take 127.0.0.(firstAddress) to
   * 127.0.0.(firstAddress + 4), in the order of `USAGE_HOST_NAMES`.
   * @default 90
   */
  readonly firstAddress?: number;
  /**
   * The user agent the manifest is computed for. It must not be one of the AI crawlers the
   * managed robots.txt names (GPTBot, CCBot, …): the verdicts in `usagePages` are those of the
   * `*` groups.
   * @default 'PolitelyDemo'
   */
  readonly userAgent?: string;
}

/** A served `/.well-known/tdmrep.json`. Hosts not listed answer 404 there. */
export interface UsageTdmrepFile {
  readonly host: UsageHostName;
  readonly url: string;
  /** The body, exactly as served. */
  readonly body: string;
}

/** A running usage web: the `LocalWeb` manifest plus the truth about every page's usage preferences. */
export interface UsageWeb extends LocalWeb {
  /**
   * Every page of the web (what a crawl from `entryUrl` without purposes fetches and hands to its
   * handler, robots.txt-disallowed paths excepted), with the usage headers and meta tags it
   * serves and its verdict per purpose. The hub's front page links every one of them.
   */
  readonly usagePages: readonly UsagePageTruth[];
  /** The tdmrep.json files served (one: the tdmrep host's). */
  readonly tdmrepFiles: readonly UsageTdmrepFile[];
}

/** A page reserved for some of a crawl's purposes. */
export interface UsageReservedPage {
  readonly page: UsagePageTruth;
  /** The crawl's purposes the page reserves. */
  readonly purposes: readonly UsagePurpose[];
  /**
   * The source kinds that reserve them and put the page in its class: before-fetch kinds (robots.txt
   * lines, tdmrep.json) for `neverRequested`, header and meta kinds for `notHandled`.
   */
  readonly by: readonly UsageSourceKind[];
}

/** What a complete crawl from `entryUrl` with `purposes` must do, page by page. */
export interface UsageCrawlTruth {
  readonly purposes: readonly UsagePurpose[];
  /**
   * Reserved for one of the purposes by robots.txt lines or tdmrep.json, known before fetching:
   * the servers' logs must show no request for these URLs (skip reason `usage-reserved`).
   */
  readonly neverRequested: readonly UsageReservedPage[];
  /**
   * Reserved only by the page's own response headers or meta tags: they may be requested, but must
   * not reach the handler nor any output.
   */
  readonly notHandled: readonly UsageReservedPage[];
  /** Reserved for none of the purposes: a complete crawl fetches them and hands them on. */
  readonly handled: readonly UsagePageTruth[];
  /** Linked but disallowed by robots.txt (never requested, whatever the purposes). Absolute URLs. */
  readonly disallowed: readonly string[];
}

/**
 * Judges the usage web for a crawl with `purposes`: which pages must never be requested, which may
 * be fetched but not handed on, which are handled. With no purposes every page is handled.
 */
export function usageManifest(web: UsageWeb, purposes: readonly UsagePurpose[]): UsageCrawlTruth {
  const neverRequested: UsageReservedPage[] = [];
  const notHandled: UsageReservedPage[] = [];
  const handled: UsagePageTruth[] = [];
  for (const page of web.usagePages) {
    const reserved = purposes.filter((purpose) => page.verdicts[purpose].status === 'reserved');
    if (reserved.length === 0) {
      handled.push(page);
      continue;
    }
    const kinds = [...new Set(reserved.flatMap((purpose) => page.verdicts[purpose].by))];
    const before = kinds.filter(isBeforeFetchKind);
    if (before.length > 0) {
      const decided = reserved.filter((purpose) => page.verdicts[purpose].by.some(isBeforeFetchKind));
      neverRequested.push({ page, purposes: decided, by: before });
    } else {
      notHandled.push({ page, purposes: reserved, by: kinds });
    }
  }
  const disallowed = web.hosts.flatMap((host) => host.disallowedKnownPaths.map((path) => `${host.origin}${path}`));
  return { purposes: [...purposes], neverRequested, notHandled, handled, disallowed };
}

/**
 * Starts the usage web: five hosts on 127.0.0.90–94 (by default), entered at the hub's front page
 * (`web.entryUrl`), which links every page. `usagePages` is the truth per page, `usageManifest`
 * judges a crawl with purposes. Call `close()` when done.
 */
export async function startUsageWeb(options: UsageWebOptions = {}): Promise<UsageWeb> {
  const port = options.port ?? 0;
  const firstAddress = options.firstAddress ?? 90;
  const userAgent = options.userAgent ?? 'PolitelyDemo';
  checkPort(port, 'startUsageWeb');
  checkAddressRange(firstAddress, USAGE_HOST_NAMES.length, 'startUsageWeb');
  if (userAgent.trim() === '')
    throw new LocalWebError('ERR_INVALID_OPTION', 'startUsageWeb: userAgent must not be empty');
  const token = productToken(userAgent).toLowerCase();
  if (MANAGED_BLOCKED_TOKENS.some((name) => name.toLowerCase() === token)) {
    throw new LocalWebError(
      'ERR_INVALID_OPTION',
      `startUsageWeb: userAgent ${JSON.stringify(userAgent)} is one of the crawlers the managed robots.txt names; the manifest is for the * groups`,
    );
  }
  let sites: UsageSite[] = [];
  let origins: UsageOrigins | undefined;
  const web = await startLocalWeb({
    hostCount: USAGE_HOST_NAMES.length,
    firstAddress,
    port,
    gzip: true,
    userAgent,
    build: (list) => {
      origins = Object.fromEntries(USAGE_HOST_NAMES.map((name, i) => [name, list[i] ?? ''])) as UsageOrigins;
      sites = buildUsageSites(origins);
      return { specs: sites.map((site) => site.spec), entryUrl: `${origins.hub}/` };
    },
    paths: crawlManifest,
  });
  const built = origins;
  if (built === undefined) throw new Error('usage web: built without origins');
  return {
    ...web,
    usagePages: sites.flatMap((site) => site.pages),
    tdmrepFiles: sites.flatMap((site) =>
      site.tdmrepJson === undefined
        ? []
        : [
            {
              host: site.spec.name as UsageHostName,
              url: `${built[site.spec.name as UsageHostName]}${TDMREP_PATH}`,
              body: site.tdmrepJson,
            },
          ],
    ),
  };
}
