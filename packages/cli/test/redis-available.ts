// Whether the tests that need a real Redis can run: the URL they use, and why not when they cannot.

import { createConnection } from 'node:net';

export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** Why Redis cannot be used, or null when it answers PING. */
export async function redisDown(): Promise<string | null> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = createConnection(Number(port || 6379), hostname, () => socket.write('PING\r\n'));
    const done = (reason: string | null) => (socket.destroy(), resolve(reason));
    socket.on('data', (data) =>
      done(String(data).startsWith('+PONG') ? null : `unexpected answer ${String(data).trim()}`),
    );
    socket.on('error', (error) => done(error.message));
    setTimeout(() => done('no answer within 1 s'), 1000);
  });
}
