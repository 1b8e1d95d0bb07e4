// What the SSRF guard's tests share: a request to send through the client, and the refusal it
// must end in.

import type { HttpRequest } from '@politely/core';

/** A small GET through the shared client. */
export const guardRequest = (url: string): HttpRequest => ({
  url,
  headers: { 'user-agent': 'GuardTest/1.0' },
  timeoutMs: 2000,
  bodyLimit: { maxBytes: 1000, atLimit: 'fail' },
});

/** The PolitelyError `promise` rejects with (failing the test if it resolves or rejects otherwise). */
export { rejection as refusal } from '../../../../test/support/rejection.js';
