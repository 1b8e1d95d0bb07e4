// ERR_OUTPUT for a file the command writes itself (the HTML report); `--out` files are the
// crawler's outputs (@politely/crawler's dataset), whose errors read the same.

import { PolitelyError } from '@politely/core';

/** ERR_OUTPUT naming the file and the system's reason (`ENOSPC: no space left on device`). */
export function outputError(path: string, cause: unknown): PolitelyError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    cause instanceof Error
      ? cause.message.replace(/, (open|write|close|fsync|ftruncate|rename)( '.*')?$/, '')
      : String(cause);
  const text = code !== undefined && !reason.startsWith(code) ? `${code}: ${reason}` : reason;
  return new PolitelyError('ERR_OUTPUT', `could not write ${path}: ${text}`, { cause });
}
