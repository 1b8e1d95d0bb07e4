// @politely/frontier/testing: the FrontierStore contract as a vitest suite, for store authors.
// It imports vitest, an optional peer dependency: only this entry needs it.

export type { StoreFactory, StoreReopener } from './store-contract.js';
export { describeFrontierStoreContract } from './store-contract.js';
