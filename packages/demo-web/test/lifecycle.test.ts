import { describe, expect, it } from 'vitest';
import { rawGet } from '../../../test/support/raw-http.js';
import { startDemoWeb } from '../src/index.js';
import { listenError } from '../src/listen.js';

describe('close', () => {
  it('releases every port: the same web starts again on the same port', async () => {
    const first = await startDemoWeb({ firstAddress: 100 });
    const port = first.hosts[0]?.port ?? 0;
    await rawGet(`${first.entryUrl}`); // leaves a keep-alive connection behind
    await first.close();
    await expect(rawGet(first.entryUrl)).rejects.toThrow();
    const second = await startDemoWeb({ firstAddress: 100, port });
    try {
      expect(second.hosts.every((host) => host.port === port)).toBe(true);
      expect((await rawGet(second.entryUrl)).status).toBe(200);
    } finally {
      await second.close();
    }
    const third = await startDemoWeb({ firstAddress: 100, port });
    await third.close();
    await third.close(); // idempotent
  });
});

describe('bind errors', () => {
  it('explains an address that is not configured (as on macOS)', () => {
    const cause = Object.assign(new Error('listen EADDRNOTAVAIL'), { code: 'EADDRNOTAVAIL' });
    const error = listenError(cause, '127.0.0.7', 8080);
    expect(error.code).toBe('ERR_ADDRESS_NOT_AVAILABLE');
    expect(error.message).toContain('127.0.0.7:8080');
    expect(error.message).toContain('ifconfig lo0 alias 127.0.0.7');
    expect(error.cause).toBe(cause);
  });

  it('refuses addresses outside 127.0.0.2–254', async () => {
    await expect(startDemoWeb({ firstAddress: 250 })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
    await expect(startDemoWeb({ firstAddress: 1 })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
  });
});
