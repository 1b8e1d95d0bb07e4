// Packing the public packages as they are published, shared by the tests of test/pack: `pnpm pack`
// replaces workspace:* with the real version and puts in only the package's `files`.

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const PACKAGES_DIR = join(REPO, 'packages');

/** The package.json fields the pack tests read. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly exports?: unknown;
}

/** The workspace packages under packages/ whose package.json is not private, by folder name order. */
export function publicPackageDirs(): { dir: string; pkg: PackageManifest }[] {
  const found: { dir: string; pkg: PackageManifest }[] = [];
  for (const entry of readdirSync(PACKAGES_DIR, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = join(PACKAGES_DIR, entry.name);
    if (!entry.isDirectory() || !existsSync(join(dir, 'package.json'))) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
    if (pkg.private !== true) found.push({ dir, pkg });
  }
  return found;
}

/** Packs the package in `dir` into `destination` with `pnpm pack`; returns the tarball's path. */
export function packPackage(dir: string, destination: string): Promise<string> {
  return new Promise((resolvePack, reject) => {
    execFile(
      'pnpm',
      ['pack', '--pack-destination', destination, '--json'],
      { cwd: dir, timeout: 120_000, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error !== null) return reject(new Error(`pnpm pack in ${dir} failed: ${error.message}\n${stderr}`));
        resolvePack((JSON.parse(stdout) as { filename: string }).filename);
      },
    );
  });
}
