// Reading a robots.txt file from disk, with a one-line reason when that fails.

import { readFile } from 'node:fs/promises';
import { CliError } from './cli-error.js';

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a component of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'file name too long',
};

/** The file's exact bytes; a `CliError` (exit 2) naming the file and the reason if unreadable. */
export async function readRobotsFile(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new CliError(`cannot read robots file '${path}': ${describeFsError(error)}`);
  }
}

function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && REASONS[code] !== undefined) return REASONS[code];
  return error instanceof Error ? error.message : String(error);
}
