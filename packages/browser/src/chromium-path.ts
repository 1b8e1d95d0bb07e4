// Where Chromium is: the option as given, or the first known name found on PATH. Searched with
// the file system only (no `which`, no shell), so the answer is the same under any shell.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { PolitelyError } from '@politely/core';

/** The names looked for on PATH, in this order. */
export const CHROMIUM_NAMES: readonly string[] = [
  'chromium',
  'chromium-browser',
  'google-chrome-stable',
  'google-chrome',
];

/** True for a regular file this process may execute (X_OK alone accepts directories). */
export function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The first of `chromium`, `chromium-browser`, `google-chrome-stable`, `google-chrome` found as
 * an executable file in a directory of `searchPath` (PATH by default), or `undefined`.
 */
export function findChromium(searchPath: string | undefined = process.env['PATH']): string | undefined {
  const dirs = (searchPath ?? '').split(delimiter).filter((dir) => dir !== '');
  for (const name of CHROMIUM_NAMES) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The executable to launch: `given` if it is one, else the one on PATH; ERR_INVALID_OPTION otherwise. */
export function resolveChromium(
  given: string | undefined,
  searchPath: string | undefined = process.env['PATH'],
): string {
  if (given !== undefined) {
    if (isExecutableFile(given)) return given;
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `executablePath: ${given} does not exist or is not an executable file`,
    );
  }
  const found = findChromium(searchPath);
  if (found !== undefined) return found;
  throw new PolitelyError(
    'ERR_INVALID_OPTION',
    `executablePath: no Chromium found: looked for ${CHROMIUM_NAMES.join(', ')} in PATH (${searchPath ?? ''}); install Chromium or set executablePath`,
  );
}
