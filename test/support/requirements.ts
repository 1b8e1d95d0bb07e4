// What a suite needs from the machine (redis-server, redis-cli, Chromium, a Redis on loopback)
// and what happens when it is missing: locally the suite is skipped, its title saying why; under
// CI=true (.ci/run sets it) the test file fails instead, naming what is missing, so that CI never
// passes without the suites it is meant to run. Every suite that depends on such a tool asks
// `skipWithout` whether to run.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The Chromium the rendering and report suites launch (Debian's package). */
export const CHROMIUM = '/usr/bin/chromium';

/** Thrown, under CI=true, by `skipWithout` when a suite's tool is missing. */
export class MissingToolError extends Error {
  override readonly name = 'MissingToolError';
}

/** Why `tool` cannot be run (`tool --version` fails or is not on the PATH), or null when it can. */
export function toolMissing(tool: string): string | null {
  const probe = spawnSync(tool, ['--version'], { encoding: 'utf8', timeout: 5000 });
  if (probe.status === 0) return null;
  return `${tool} is not available (${probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status}`)})`;
}

/** Why Chromium cannot be launched from `path`, or null when it is there. */
export function chromiumMissing(path: string = CHROMIUM): string | null {
  return existsSync(path) ? null : `${path} is missing (Debian: apt-get install -y chromium)`;
}

/** Whether CI is running the tests (`CI=true`, as .ci/run and the usual CI services set it). */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['CI'] === 'true';
}

/**
 * Whether a suite that needs `tool` is to be skipped: false when `missing` is null (the tool is
 * there). When it is not: under CI=true throws a MissingToolError naming the tool and why, which
 * fails the test file; otherwise returns true (the suite's title says why it is skipped).
 */
export function skipWithout(tool: string, missing: string | null, env: NodeJS.ProcessEnv = process.env): boolean {
  if (missing === null) return false;
  if (inCi(env)) {
    throw new MissingToolError(
      `a suite needs ${tool}: ${missing}; with CI=true it fails instead of being skipped (.ci/run installs it)`,
    );
  }
  return true;
}
