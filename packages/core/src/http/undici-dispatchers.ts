// undici's Agent and ProxyAgent, loaded without the rest of undici. Its index loads all it has
// (fetch, WebSocket, EventSource, mocks, caches): 19 MB of RSS and 6.5 MB of heap in a process
// that imports it, where these parts take 11 and 2.8. They are undici's own classes (one module
// each, whichever path loads it). Besides exporting its classes, the index does one thing these
// need: it puts its request API (`request`, `stream`, `pipeline`, `connect`, `upgrade`) on
// `Dispatcher.prototype`, which ProxyAgent and our client call. That is done here the same way.
// Should a later undici move these files, the whole package is loaded instead.

import { createRequire } from 'node:module';
import type * as Undici from 'undici';

interface Dispatchers {
  readonly Agent: typeof Undici.Agent;
  readonly ProxyAgent: typeof Undici.ProxyAgent;
}

function loadDispatchers(): Dispatchers {
  const require = createRequire(import.meta.url);
  try {
    const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
    const api = require('undici/lib/api/index.js') as Record<string, unknown>;
    const prototype = Dispatcher.prototype as unknown as Record<string, unknown>;
    for (const [name, method] of Object.entries(api)) prototype[name] ??= method;
    if (typeof prototype.request !== 'function' || typeof prototype.connect !== 'function')
      throw new Error('undici: no request API');
    return {
      Agent: require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent,
      ProxyAgent: require('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent,
    };
  } catch {
    const undici = require('undici') as typeof Undici;
    return { Agent: undici.Agent, ProxyAgent: undici.ProxyAgent };
  }
}

export const { Agent, ProxyAgent } = loadDispatchers();
export type Agent = Undici.Agent;
export type ProxyAgent = Undici.ProxyAgent;
