// @politely/demo-web: the loopback webs that `politely demo` crawls, and the server-side checks
// that prove a crawl of them polite.

export type { DemoArticle } from './demo/articles.js';
export { DEMO_TAGS, demoArticles } from './demo/articles.js';
export type { DemoCategory, DemoProduct } from './demo/catalog.js';
export { DEMO_CATEGORIES, demoProducts } from './demo/catalog.js';
export type { DemoHostName } from './demo/demo-hosts.js';
export { DEMO_HOST_NAMES, DEMO_USER_AGENT_TOKEN } from './demo/demo-hosts.js';
export type { DemoWebOptions } from './demo/demo-web.js';
export { startDemoWeb } from './demo/demo-web.js';
export type { LocalWebErrorCode } from './errors.js';
export { LocalWebError } from './errors.js';
export { minGapMs, minGapMsByOrigin, violations } from './politeness-check.js';
export { APP_ROBOTS_TXT, CDN_ROBOTS_TXT } from './render/render-sites.js';
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
export {
  RENDER_CATEGORIES,
  RENDER_HOST_NAMES,
  RENDER_PAGE_SIZE,
  RENDER_PRIVATE_URL,
  RENDER_SHELL_TITLE,
  RENDER_SITE_NAME,
  renderProducts,
} from './render/render-truth.js';
export type { RenderWeb, RenderWebOptions } from './render/render-web.js';
export { renderManifest, startRenderWeb } from './render/render-web.js';
export type { HostInfo, LocalWeb, LoggedRequest } from './types.js';
export { MANAGED_BLOCKED_TOKENS, MANAGED_ROBOTS_TXT, TDM_POLICY_PATH, TDMREP_PATH } from './usage/usage-sites.js';
export type { UsageHostName, UsagePageTruth, UsageTruthVerdict } from './usage/usage-truth.js';
export { BEFORE_FETCH_KINDS, isBeforeFetchKind, USAGE_HOST_NAMES, USAGE_WEB_PURPOSES } from './usage/usage-truth.js';
export type {
  UsageCrawlTruth,
  UsageReservedPage,
  UsageTdmrepFile,
  UsageWeb,
  UsageWebOptions,
} from './usage/usage-web.js';
export { startUsageWeb, usageManifest } from './usage/usage-web.js';
