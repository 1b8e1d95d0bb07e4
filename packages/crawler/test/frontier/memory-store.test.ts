import { createMemoryFrontierStore } from '../../src/frontier/memory-store.js';
import { describeFrontierStoreContract } from './store-contract.js';

describeFrontierStoreContract('memory', async (options) => createMemoryFrontierStore(options));
