// @politely/crawler/internal: helpers shared by politely's own packages (the CLI) and tests. Not
// part of the public API: no stability promise, may change in any release (docs/releases.md).

export { OUTPUT_KEYS } from './dataset/output-options.js';
export { SCOPE_SEEDS_KEY } from './frontier/scope-seeds.js';
export type { VoidedOption } from './option-combinations.js';
export { VOIDED_OPTIONS } from './option-combinations.js';
export {
  ADAPTIVE_DELAY_KEYS,
  CANONICAL_URL_KEYS,
  CRAWLER_OPTION_KEYS,
  SEED_KEYS,
  SIGNING_KEYS,
  TRAP_CALENDAR_KEYS,
  TRAP_DETECTION_KEYS,
} from './options.js';
export { describeUsageSource } from './pipeline/stages/usage.js';
