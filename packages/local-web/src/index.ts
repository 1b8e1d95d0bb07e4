// @politely/local-web: the loopback web that politely's demo, examples, tests and benchmarks crawl.

export { startDemoWeb, resolveDemoWebOptions } from './demo/demo-web.js';
export type { DemoWebOptions, ResolvedDemoWebOptions } from './demo/demo-web.js';
export { DEMO_HOST_NAMES, DEMO_USER_AGENT_TOKEN } from './demo/demo-hosts.js';
export type { DemoHostName } from './demo/demo-hosts.js';
export { demoProducts, DEMO_CATEGORIES } from './demo/catalog.js';
export type { DemoProduct, DemoCategory } from './demo/catalog.js';
export { demoArticles, DEMO_TAGS } from './demo/articles.js';
export type { DemoArticle } from './demo/articles.js';

export { startConsentWeb } from './consent/consent-web.js';
export type { ConsentWebOptions } from './consent/consent-web.js';
export { CONSENT_COOKIE, CONSENT_ACCEPT_PATH } from './consent/consent-site.js';
export { consentRecipes } from './consent/recipes.js';
export type { ConsentRecipe } from './consent/recipes.js';

export { startUsageWeb, usageManifest } from './usage/usage-web.js';
export type { UsageWeb, UsageWebOptions, UsageCrawlTruth, UsageReservedPage, UsageTdmrepFile } from './usage/usage-web.js';
export { USAGE_HOST_NAMES, USAGE_WEB_PURPOSES, BEFORE_FETCH_KINDS, isBeforeFetchKind } from './usage/usage-truth.js';
export type { UsageHostName, UsagePageTruth, UsageTruthVerdict } from './usage/usage-truth.js';
export { MANAGED_ROBOTS_TXT, MANAGED_BLOCKED_TOKENS, TDMREP_PATH, TDM_POLICY_PATH } from './usage/usage-sites.js';

export { startRenderWeb, renderManifest } from './render/render-web.js';
export type { RenderWeb, RenderWebOptions } from './render/render-web.js';
export {
  RENDER_HOST_NAMES,
  RENDER_CATEGORIES,
  RENDER_PAGE_SIZE,
  RENDER_PRIVATE_URL,
  RENDER_SHELL_TITLE,
  RENDER_SITE_NAME,
  renderProducts,
} from './render/render-truth.js';
export type {
  RenderCategory,
  RenderCrawlTruth,
  RenderHostName,
  RenderPageTruth,
  RenderProduct,
  RenderRefusal,
  RenderRefusedRequest,
  RenderRequestTruth,
  RenderRequestType,
  RenderSubrequest,
} from './render/render-truth.js';
export { APP_ROBOTS_TXT, CDN_ROBOTS_TXT } from './render/render-sites.js';

export { startFleet, resolveFleetOptions, MAX_FLEET_HOSTS } from './fleet/fleet.js';
export type { FleetOptions, ResolvedFleetOptions } from './fleet/fleet.js';
export type { FleetPageProfile } from './fleet/fleet-page.js';

export { startHostileWeb, resolveHostileWebOptions } from './hostile/hostile-web.js';
export type { HostileWeb, HostileWebOptions, ResolvedHostileWebOptions } from './hostile/hostile-web.js';
export { HOSTILE_HOST_NAMES } from './hostile/hostile-types.js';
export type { HostileCase, HostileExpectation, HostileHostName } from './hostile/hostile-types.js';

export { violations, minGapMs, minGapMsByOrigin } from './politeness-check.js';
export { LocalWebError } from './errors.js';
export type { LocalWebErrorCode } from './errors.js';
export type { LocalWeb, HostInfo, LoggedRequest } from './types.js';
