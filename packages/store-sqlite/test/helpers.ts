// Temporary crawl files for tests: one directory per test file, removed after.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FrontierEntry } from '@politely/frontier';

export interface TempDir {
  /** A new file path in the directory (not created). */
  file(name?: string): string;
  remove(): void;
}

export function createTempDir(prefix: string): TempDir {
  const dir = mkdtempSync(join(tmpdir(), `politely-${prefix}-`));
  let count = 0;
  return {
    file: (name) => join(dir, name ?? `crawl-${++count}.db`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const entry = (url: string, extra: Partial<FrontierEntry> = {}): FrontierEntry => ({
  url,
  hostKey: new URL(url).hostname,
  depth: 0,
  priority: 0,
  ...extra,
});

/** The built package: fixtures run in plain Node, which needs `dist/` (`pnpm build`). */
export const BUILT_STORE = fileURLToPath(new URL('../dist/index.js', import.meta.url));
/** The crawler as the fixtures import it: by name, from this package's devDependencies. */
export const BUILT_CRAWLER = createRequire(import.meta.url).resolve('@politely/crawler');

export function assertBuilt(): void {
  for (const file of [BUILT_STORE, BUILT_CRAWLER]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`pnpm build\` first (the fixtures run the built packages)`);
  }
}
