// Shared by the option tests: `build()` must throw PolitelyError ERR_INVALID_OPTION naming the value.
import { PolitelyError } from '@politely/core';
import { expect } from 'vitest';

/** Asserts that `build()` throws `ERR_INVALID_OPTION` whose message contains each of `mentions`. */
export function expectInvalidOption(build: () => unknown, ...mentions: string[]): void {
  let thrown: unknown;
  try {
    build();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(PolitelyError);
  expect((thrown as PolitelyError).code).toBe('ERR_INVALID_OPTION');
  for (const mention of mentions) expect((thrown as PolitelyError).message).toContain(mention);
}
