// @politely/demo-web/internal: the building blocks of a loopback web, shared with the private
// @politely/local-web (fleet, hostile and consent webs). Not part of the public API: no stability
// promise, may change in any release.

export type { ResolvedDemoWebOptions } from './demo/demo-web.js';
export { resolveDemoWebOptions } from './demo/demo-web.js';
export { extractLinks } from './extract-links.js';
export type { HostSpec } from './host-spec.js';
export { a, escapeHtml, linkList, renderPage } from './html.js';
export type { BoundHost } from './listen.js';
export {
  checkAddressRange,
  checkPort,
  closeHosts,
  listenError,
  listenHosts,
  loopbackAddress,
  MAX_ADDRESS_OCTET,
} from './listen.js';
export type { HostPaths } from './local-web.js';
export { startLocalWeb } from './local-web.js';
export { pageLocator } from './page-changes.js';
export type { Random } from './random.js';
export { createRandom, hashString, paragraph, pick, randomInt } from './random.js';
export type { Resource } from './resource.js';
export {
  htmlResource,
  notFoundResource,
  redirectResource,
  sendResource,
  statusResource,
  textResource,
} from './resource.js';
export { robotsFacts } from './robots-facts.js';
export { urlsetXml } from './sitemap-files.js';
export type { Mutable } from './types.js';
export { checkCacheControl } from './validators.js';
