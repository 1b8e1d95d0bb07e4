// @politely/browser: a page renderer on Chromium for the politely crawler.

export { findChromium } from './chromium-path.js';
export type { ChromiumRendererOptions } from './chromium-renderer.js';
export { ChromiumRenderer } from './chromium-renderer.js';
