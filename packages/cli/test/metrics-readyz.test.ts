// `/readyz` of the metrics server, on loopback: a store that does not answer gets a fixed short
// body (the server has no authentication), and its error goes to the log, masked.

import type { FrontierStore } from '@politely/frontier';
import { describe, expect, it } from 'vitest';
import { serveMetrics } from '../src/crawl/metrics-option.js';
import type { OpenedStore } from '../src/crawl/store-option.js';

/** An opened store whose every read fails with `message`, as a Redis gone away would. */
function failingStore(message: string): OpenedStore {
  const fail = () => Promise.reject(new Error(message));
  const store = { loadMetadata: fail, counts: fail } as unknown as FrontierStore;
  return {
    store,
    robotsCache: undefined,
    label: 'test',
    durable: true,
    resumeHint: '',
    close: async () => {},
  };
}

describe('serveMetrics /readyz', () => {
  it('answers 503 "store unavailable" without the error, and logs the error masked, once per reason', async () => {
    const lines: string[] = [];
    const error = 'cannot reach redis://:s3cret-PW@127.0.0.1:6399/0 within 1 s: connect ECONNREFUSED';
    const server = await serveMetrics({ host: '127.0.0.1', port: 0 }, failingStore(error), (line) => lines.push(line));
    try {
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${server.url}/readyz`);
        expect(response.status).toBe(503);
        expect(await response.text()).toBe('store unavailable\n');
      }
      expect(lines).toEqual([
        '/readyz: store unavailable: cannot reach redis://:***@127.0.0.1:6399/0 within 1 s: connect ECONNREFUSED',
      ]);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
