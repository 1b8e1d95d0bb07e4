// undici's dispatchers are loaded without the rest of undici (fetch, WebSocket, mocks), and they
// are undici's own classes, with the request API its index would have put on them.

import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Undici from 'undici';
import { describe, expect, it } from 'vitest';
import { Agent, ProxyAgent } from '../../src/http/undici-dispatchers.js';

const CORE = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('undici-dispatchers', () => {
  it('imports @politely/core (its build) without undici’s fetch, WebSocket or mocks', () => {
    // A process of its own: this one has loaded more of undici for other tests.
    const script = `import('@politely/core').then(() => {
      const loaded = Object.keys(require.cache).filter((file) => file.includes('/undici/'));
      process.stdout.write(JSON.stringify(loaded));
    })`;
    const loaded = JSON.parse(
      execFileSync(process.execPath, ['-e', script], { cwd: CORE, encoding: 'utf8' }),
    ) as string[];
    expect(loaded.some((file) => file.endsWith('/lib/dispatcher/agent.js'))).toBe(true);
    expect(loaded.some((file) => file.endsWith('/lib/dispatcher/proxy-agent.js'))).toBe(true);
    for (const part of ['/lib/web/fetch/', '/lib/web/websocket/', '/lib/mock/']) {
      expect(loaded.filter((file) => file.includes(part))).toEqual([]);
    }
    expect(loaded.some((file) => /\/undici\/index\.js$/.test(file))).toBe(false);
  });

  it('gives undici’s own classes, with the request API on every dispatcher', async () => {
    const undici = createRequire(import.meta.url)('undici') as typeof Undici;
    expect(Agent).toBe(undici.Agent);
    expect(ProxyAgent).toBe(undici.ProxyAgent);
    const agent = new Agent();
    try {
      for (const method of ['request', 'stream', 'pipeline', 'connect', 'upgrade'] as const) {
        expect(typeof agent[method]).toBe('function');
      }
    } finally {
      await agent.close();
    }
  });
});
