// @politely/demo-web: the loopback webs that `politely demo` crawls, and the server-side checks
// that prove a crawl of them polite.

export { startDemoWeb, resolveDemoWebOptions } from './demo/demo-web.js';
export type { DemoWebOptions, ResolvedDemoWebOptions } from './demo/demo-web.js';
export { DEMO_HOST_NAMES, DEMO_USER_AGENT_TOKEN } from './demo/demo-hosts.js';
export type { DemoHostName } from './demo/demo-hosts.js';
export { demoProducts, DEMO_CATEGORIES } from './demo/catalog.js';
export type { DemoProduct, DemoCategory } from './demo/catalog.js';
export { demoArticles, DEMO_TAGS } from './demo/articles.js';
export type { DemoArticle } from './demo/articles.js';

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

export { violations, minGapMs, minGapMsByOrigin } from './politeness-check.js';
export { LocalWebError } from './errors.js';
export type { LocalWebErrorCode } from './errors.js';
export type { LocalWeb, HostInfo, LoggedRequest } from './types.js';
