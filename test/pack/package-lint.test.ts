// Every public package, packed as it is published, passes publint (package.json fields, exports
// map, files) and Are the Types Wrong (its types resolve as a user's TypeScript resolves them).
//
// attw runs with the `esm-only` profile: the packages are ESM only ("type": "module", no
// `require` condition), so a CommonJS consumer reaches them by `import()` only, which attw under
// node16-from-CJS reports as "ESM (dynamic import only)" and node10 (no exports map) cannot
// resolve subpaths at all. Both are what an ESM-only package means; the profile leaves out those
// two resolution modes and checks node16 from ESM and bundler resolution.
//
// The packages must be built (`pnpm test` builds before vitest; or `pnpm run build`).

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackage, publicPackageDirs, REPO } from './packing.js';

const ATTW = join(REPO, 'node_modules', '.bin', 'attw');
const packages = publicPackageDirs();
const tarballs = new Map<string, string>();
let work: string | undefined;

beforeAll(async () => {
  for (const { dir } of packages) {
    if (!existsSync(join(dir, 'dist', 'index.d.ts')))
      throw new Error(`${relative(REPO, dir)}/dist is missing: run \`pnpm run build\` first`);
  }
  work = mkdtempSync(join(tmpdir(), 'politely-lint-pack-'));
  const destination = work;
  // Two at a time: the machine is shared.
  for (let start = 0; start < packages.length; start += 2) {
    await Promise.all(
      packages.slice(start, start + 2).map(async ({ dir, pkg }) => {
        tarballs.set(pkg.name, await packPackage(dir, destination));
      }),
    );
  }
}, 240_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** Runs attw on a tarball; its exit code and what it printed. */
function attw(tarball: string): Promise<{ code: number; output: string }> {
  return new Promise((resolveRun, reject) => {
    execFile(
      ATTW,
      [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color', '--no-emoji'],
      { timeout: 60_000, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error !== null && typeof (error as NodeJS.ErrnoException).code === 'string') return reject(error);
        resolveRun({ code: error === null ? 0 : ((error as { code?: number }).code ?? 1), output: stdout + stderr });
      },
    );
  });
}

describe('publint', () => {
  it.each(packages.map(({ pkg }) => [pkg.name] as const))(
    '%s: no error, warning or suggestion on the packed tarball',
    async (name) => {
      const bytes = readFileSync(tarballs.get(name)!);
      const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const { messages, pkg } = await publint({ pack: { tarball }, level: 'suggestion', strict: true });
      expect(messages.map((message) => `${message.type} ${message.code}: ${formatMessage(message, pkg)}`)).toEqual([]);
    },
    60_000,
  );
});

describe('attw --profile esm-only', () => {
  it.each(packages.map(({ pkg }) => [pkg.name] as const))(
    '%s: every entry point resolves to its types under node16 (ESM) and bundler resolution',
    async (name) => {
      const { code, output } = await attw(tarballs.get(name)!);
      expect(code, output).toBe(0);
    },
    60_000,
  );
});
