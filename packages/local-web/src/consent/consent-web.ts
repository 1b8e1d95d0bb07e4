// startConsentWeb: one host, the consent site (consent-site.ts), for crawls that need cookies.

import { type LocalWeb, LocalWebError } from '@politely/demo-web';
import { checkAddressRange, checkPort, startLocalWeb } from '@politely/demo-web/internal';
import { buildConsentSite, consentSitePaths } from './consent-site.js';

export interface ConsentWebOptions {
  /**
   * The TCP port. 0 lets the OS pick a free one.
   * @default 0
   */
  readonly port?: number;
  /**
   * Last octet of the host's address, 127.0.0.(firstAddress).
   * @default 70
   */
  readonly firstAddress?: number;
  /**
   * The user agent the manifest is computed for.
   * @default 'PolitelyDemo'
   */
  readonly userAgent?: string;
}

/**
 * Starts the consent web: one host (`consent`, 127.0.0.70 by default) whose every page is a
 * cookie consent wall until `/consent/accept` has set the `consent=yes` cookie. The manifest's
 * `expectedAllowedPaths` are those of a crawl from `/` with cookies on. Call `close()` when done.
 */
export async function startConsentWeb(options: ConsentWebOptions = {}): Promise<LocalWeb> {
  const port = options.port ?? 0;
  const firstAddress = options.firstAddress ?? 70;
  const userAgent = options.userAgent ?? 'PolitelyDemo';
  checkPort(port, 'startConsentWeb');
  checkAddressRange(firstAddress, 1, 'startConsentWeb');
  if (userAgent.trim() === '')
    throw new LocalWebError('ERR_INVALID_OPTION', 'startConsentWeb: userAgent must not be empty');
  return startLocalWeb({
    hostCount: 1,
    firstAddress,
    port,
    gzip: true,
    userAgent,
    build: (origins) => ({ specs: [buildConsentSite()], entryUrl: `${origins[0] ?? ''}/` }),
    paths: (built) =>
      built.specs.map((spec) => ({
        expectedAllowedPaths: consentSitePaths(spec),
        disallowedKnownPaths: [],
        nofollowPaths: [],
        sitemapOnlyPaths: [],
      })),
  });
}
