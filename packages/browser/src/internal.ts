// @politely/browser/internal: the option table shared with politely's own tests. Not part of
// the public API: no stability promise, may change in any release.

export { RENDERER_OPTION_KEYS } from './chromium-renderer.js';
