// @politely/browser: a page renderer on Chromium for the politely crawler.

export { ChromiumRenderer } from './chromium-renderer.js';
export type { ChromiumRendererOptions } from './chromium-renderer.js';
export { findChromium } from './chromium-path.js';
