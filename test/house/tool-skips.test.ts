// A suite that needs a tool of the machine (redis-server, redis-cli, a Redis, Chromium) decides
// whether to run through skipWithout (test/support/requirements.ts): skipped locally, a failure
// under CI=true. A test file that probes for such a tool and skips on its own would let CI pass
// without the suite.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './import-graph.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Calls that ask whether a tool of the machine is there. */
const PROBE =
  /\b(redisServerMissing|redisClusterToolsMissing|redisToolsMissing|redisDown|redisDownReason|chromiumMissing|toolMissing)\(|existsSync\(CHROMIUM\)/;

function testFiles(): string[] {
  const packages = readdirSync(join(REPO, 'packages')).flatMap((folder) =>
    sourceFiles(join(REPO, 'packages', folder, 'test')),
  );
  return [...packages, ...sourceFiles(join(REPO, 'test'))].filter((file) => /\.test\.[jt]s$/.test(file));
}

describe('suites that need a tool', () => {
  it('skip through skipWithout, which fails them under CI=true', () => {
    const own = testFiles().filter((file) => {
      const text = readFileSync(file, 'utf8');
      return PROBE.test(text) && /\.(skipIf|runIf)\(|\bskip:/.test(text) && !text.includes('skipWithout(');
    });
    expect(own.map((file) => relative(REPO, file))).toEqual([]);
  });
});
