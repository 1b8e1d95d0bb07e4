// The PolitelyError a promise rejects with, for tests of every package: fails the test when the
// promise resolves, or rejects with anything else.

import { PolitelyError } from '@politely/core';
import { expect } from 'vitest';

export async function rejection(promise: Promise<unknown>): Promise<PolitelyError> {
  const error = await promise.then(
    () => new Error('expected a rejection, got a value'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PolitelyError);
  return error as PolitelyError;
}
