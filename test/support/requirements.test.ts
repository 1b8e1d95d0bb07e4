// skipWithout: a suite whose tool is missing is skipped locally and fails the run under CI=true.
// The fixture suite (fixtures/needs-a-missing-tool.spec.ts) needs a binary no machine has; it runs
// in a vitest of its own, a child process, once without CI and once with CI=true.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MissingToolError, skipWithout, toolMissing } from './requirements.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

interface Run {
  readonly code: number;
  readonly output: string;
}

/** Runs the fixtures' vitest with `ci` as CI (undefined: no CI variable at all). */
function runFixtures(ci: string | undefined): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env['CI'];
  delete env['GITHUB_ACTIONS'];
  if (ci !== undefined) env['CI'] = ci;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [VITEST, 'run', '--root', FIXTURES],
      { cwd: REPO, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describe('skipWithout', () => {
  it('skips, without CI, a suite whose tool is missing', async () => {
    const run = await runFixtures(undefined);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/1 skipped/);
    expect(run.output).not.toMatch(/MissingToolError/);
  });

  it('fails the run, with CI=true, naming the missing tool', async () => {
    const run = await runFixtures('true');
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toMatch(/MissingToolError: a suite needs politely-no-such-tool: politely-no-such-tool is not/);
    expect(run.output).toMatch(/1 failed/);
  });

  it('returns false when nothing is missing, and names the tool and the reason when something is', () => {
    expect(skipWithout('node', null, { CI: 'true' })).toBe(false);
    expect(skipWithout('redis-cli', 'redis-cli is not available', {})).toBe(true);
    expect(() => skipWithout('redis-cli', 'redis-cli is not available', { CI: 'true' })).toThrow(MissingToolError);
    expect(() => skipWithout('redis-cli', 'redis-cli is not available', { CI: 'true' })).toThrow(
      /a suite needs redis-cli: redis-cli is not available; with CI=true it fails/,
    );
  });

  it('toolMissing says why a binary cannot be run, and null for one that can', () => {
    expect(toolMissing(process.execPath)).toBeNull();
    expect(toolMissing('politely-no-such-tool')).toMatch(/^politely-no-such-tool is not available \(.*ENOENT/);
  });
});
