// Waiting on a promise while honouring an AbortSignal, with politely's typed errors.

import { watchAbort } from '../abort-watch.js';
import { PolitelyError } from '../errors.js';

/** The error for a fired signal: `ERR_TIMEOUT` for `AbortSignal.timeout`, else `ERR_ABORTED`. */
export function abortErrorOf(signal: AbortSignal, what: string): PolitelyError {
  const reason: unknown = signal.reason;
  if (reason instanceof PolitelyError) return reason;
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
  return timedOut
    ? new PolitelyError('ERR_TIMEOUT', `${what} timed out`, { cause: reason })
    : new PolitelyError('ERR_ABORTED', `${what} aborted`, { cause: reason });
}

/**
 * Settles as `promise` does, or rejects as soon as `signal` fires. The promise itself keeps
 * running (others may share it); its outcome is then ignored here.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(abortErrorOf(signal, what));
  }
  return new Promise<T>((resolve, reject) => {
    const unwatch = watchAbort(signal, () => reject(abortErrorOf(signal, what)));
    promise.then(
      (value) => {
        unwatch();
        resolve(value);
      },
      (error: unknown) => {
        unwatch();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
