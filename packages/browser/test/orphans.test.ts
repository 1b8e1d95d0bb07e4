// No Chromium outlives the process that started it: on Ctrl-C the crawler aborts its signal and
// the session closes the browser; a process killed outright (SIGINT with no handler, SIGKILL)
// closes Chromium's pipe, and Chromium exits on its own. Runs the built package in a child process.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, liveInGroup, waitUntil } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/hold-browser.mjs', import.meta.url));

/** Starts the fixture, waits for the browser pid it prints. */
async function holdBrowser(args: readonly string[]): Promise<{
  child: ChildProcessWithoutNullStreams;
  browser: number;
  exited: Promise<NodeJS.Signals | number | null>;
}> {
  const child = spawn(process.execPath, [FIXTURE, CHROMIUM, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no browser within 20 s: ${out} ${err.slice(-2000)}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const end = out.indexOf('\n');
      if (end !== -1) {
        clearTimeout(timer);
        resolve(out.slice(0, end));
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the fixture exited (${String(how)}): ${err.slice(-2000)}`));
    });
  });
  const { browsers } = JSON.parse(line) as { browsers: number[] };
  expect(browsers).toHaveLength(1);
  return { child, browser: browsers[0] ?? 0, exited };
}

describe('no orphaned Chromium', () => {
  it('Ctrl-C handled as the crawler does (abort the crawl signal): the session closes the browser, the process exits', async () => {
    const { child, browser, exited } = await holdBrowser(['--abort-on-sigint']);
    expect(liveInGroup(browser).length).toBeGreaterThan(0);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(await waitUntil(() => liveInGroup(browser).length === 0, 10_000)).toBe(true);
  });

  for (const signal of ['SIGINT', 'SIGKILL'] as const) {
    it(`a process killed by ${signal} with no handler leaves no Chromium behind`, async () => {
      const { child, browser, exited } = await holdBrowser([]);
      // Nobody is left to remove Playwright's temporary profile: the test does.
      const profile = /--user-data-dir=(\S+)/.exec(
        readFileSync(`/proc/${browser}/cmdline`, 'utf8').replace(/\0/g, ' '),
      )?.[1];
      try {
        expect(liveInGroup(browser).length).toBeGreaterThan(0);
        child.kill(signal);
        expect(await exited).toBe(signal);
        expect(await waitUntil(() => liveInGroup(browser).length === 0, 10_000)).toBe(true);
      } finally {
        if (profile?.includes('playwright')) rmSync(profile, { recursive: true, force: true });
      }
    });
  }
});
