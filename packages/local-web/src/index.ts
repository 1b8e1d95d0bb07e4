// @politely/local-web (private): the test webs of politely's tests and benchmarks: fleets of
// loopback hosts, the hostile web, the consent web. The demo webs are in @politely/demo-web.

export type {
  /** @deprecated Import from '@politely/demo-web' instead. */
  DemoArticle,
  /** @deprecated Import from '@politely/demo-web' instead. */
  DemoCategory,
  /** @deprecated Import from '@politely/demo-web' instead. */
  DemoHostName,
  /** @deprecated Import from '@politely/demo-web' instead. */
  DemoProduct,
  /** @deprecated Import from '@politely/demo-web' instead. */
  DemoWebOptions,
  HostInfo,
  LocalWeb,
  LocalWebErrorCode,
  LoggedRequest,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderCategory,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderCrawlTruth,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderHostName,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderPageTruth,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderProduct,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderRefusal,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderRefusedRequest,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderRequestTruth,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderRequestType,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderSubrequest,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderWeb,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RenderWebOptions,
  /** @deprecated Import from '@politely/demo-web' instead. */
  UsageCrawlTruth,
  /** @deprecated Import from '@politely/demo-web' instead. */
  UsageHostName,
  /** @deprecated Import from '@politely/demo-web' instead. */
  UsagePageTruth,
  /** @deprecated Import from '@politely/demo-web' instead. */
  UsageReservedPage,
  /** @deprecated Import from '@politely/demo-web' instead. */
  UsageTdmrepFile,
  /** @deprecated Import from '@politely/demo-web' instead. */
  UsageTruthVerdict,
  /** @deprecated Import from '@politely/demo-web' instead. */
  UsageWeb,
  /** @deprecated Import from '@politely/demo-web' instead. */
  UsageWebOptions,
} from '@politely/demo-web';
// What every web here returns and throws; defined once, in @politely/demo-web.
// Moved to @politely/demo-web; re-exported here for one release so that old imports keep working.
export {
  /** @deprecated Import from '@politely/demo-web' instead. */
  APP_ROBOTS_TXT,
  /** @deprecated Import from '@politely/demo-web' instead. */
  BEFORE_FETCH_KINDS,
  /** @deprecated Import from '@politely/demo-web' instead. */
  CDN_ROBOTS_TXT,
  /** @deprecated Import from '@politely/demo-web' instead. */
  DEMO_CATEGORIES,
  /** @deprecated Import from '@politely/demo-web' instead. */
  DEMO_HOST_NAMES,
  /** @deprecated Import from '@politely/demo-web' instead. */
  DEMO_TAGS,
  /** @deprecated Import from '@politely/demo-web' instead. */
  DEMO_USER_AGENT_TOKEN,
  /** @deprecated Import from '@politely/demo-web' instead. */
  demoArticles,
  /** @deprecated Import from '@politely/demo-web' instead. */
  demoProducts,
  /** @deprecated Import from '@politely/demo-web' instead. */
  isBeforeFetchKind,
  LocalWebError,
  /** @deprecated Import from '@politely/demo-web' instead. */
  MANAGED_BLOCKED_TOKENS,
  /** @deprecated Import from '@politely/demo-web' instead. */
  MANAGED_ROBOTS_TXT,
  /** @deprecated Import from '@politely/demo-web' instead. */
  minGapMs,
  /** @deprecated Import from '@politely/demo-web' instead. */
  minGapMsByOrigin,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RENDER_CATEGORIES,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RENDER_HOST_NAMES,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RENDER_PAGE_SIZE,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RENDER_PRIVATE_URL,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RENDER_SHELL_TITLE,
  /** @deprecated Import from '@politely/demo-web' instead. */
  RENDER_SITE_NAME,
  /** @deprecated Import from '@politely/demo-web' instead. */
  renderManifest,
  /** @deprecated Import from '@politely/demo-web' instead. */
  renderProducts,
  /** @deprecated Import from '@politely/demo-web' instead. */
  startDemoWeb,
  /** @deprecated Import from '@politely/demo-web' instead. */
  startRenderWeb,
  /** @deprecated Import from '@politely/demo-web' instead. */
  startUsageWeb,
  /** @deprecated Import from '@politely/demo-web' instead. */
  TDM_POLICY_PATH,
  /** @deprecated Import from '@politely/demo-web' instead. */
  TDMREP_PATH,
  /** @deprecated Import from '@politely/demo-web' instead. */
  USAGE_HOST_NAMES,
  /** @deprecated Import from '@politely/demo-web' instead. */
  USAGE_WEB_PURPOSES,
  /** @deprecated Import from '@politely/demo-web' instead. */
  usageManifest,
  /** @deprecated Import from '@politely/demo-web' instead. */
  violations,
} from '@politely/demo-web';
export { CONSENT_ACCEPT_PATH, CONSENT_COOKIE } from './consent/consent-site.js';
export type { ConsentWebOptions } from './consent/consent-web.js';
export { startConsentWeb } from './consent/consent-web.js';
export type { ConsentRecipe } from './consent/recipes.js';
export { consentRecipes } from './consent/recipes.js';
export type { FleetOptions, ResolvedFleetOptions } from './fleet/fleet.js';
export { MAX_FLEET_HOSTS, resolveFleetOptions, startFleet } from './fleet/fleet.js';
export type { FleetPageProfile } from './fleet/fleet-page.js';
export type { HostileCase, HostileExpectation, HostileHostName } from './hostile/hostile-types.js';
export { HOSTILE_HOST_NAMES } from './hostile/hostile-types.js';
export type { HostileWeb, HostileWebOptions, ResolvedHostileWebOptions } from './hostile/hostile-web.js';
export { resolveHostileWebOptions, startHostileWeb } from './hostile/hostile-web.js';
