// The bench's CPU-profile summary and the floor's link scan, on a real V8 profile and real HTML.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { moduleOf, shareByOwner, summariseCpuProfile } from '../cpu-profile.js';
import { scanHrefs } from '../floor-crawl.js';

const dir = mkdtempSync(join(tmpdir(), 'politely-cpu-profile-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real profile of a script that spends its time in `spinHere`, then idles on a timer. */
function profileOf() {
  const script = join(dir, 'busy-script.mjs');
  writeFileSync(
    script,
    `function spinHere(ms) { const end = Date.now() + ms; let n = 0; while (Date.now() < end) n++; return n; }
spinHere(400);
setTimeout(() => {}, 300);
`,
  );
  const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, script], { timeout: 20_000 });
  expect(run.status).toBe(0);
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  expect(file).toBeDefined();
  return JSON.parse(readFileSync(join(dir, file), 'utf8'));
}

describe('summariseCpuProfile', () => {
  it('gives the busy function most of the CPU time and leaves idle time out', () => {
    const summary = summariseCpuProfile(profileOf(), { top: 5 });
    const spin = summary.byFunction.find((f) => f.name.startsWith('spinHere'));
    expect(spin?.module).toBe('busy-script.mjs');
    expect(spin?.share).toBeGreaterThan(0.5);
    expect(spin?.ms).toBeGreaterThan(150);
    expect(summary.byFunction.length).toBeLessThanOrEqual(5);
    expect(summary.byFunction.some((f) => f.name === '(idle)')).toBe(false);
    expect(summary.idleMs).toBeGreaterThan(100);
    const shares = summary.byModule.reduce((sum, m) => sum + m.share, 0);
    expect(shares).toBeLessThanOrEqual(1.000001);
  });
});

describe('moduleOf', () => {
  it('names politely folders, dependencies, Node areas and V8 entries', () => {
    const frame = (url, functionName = 'f') => ({ url, functionName });
    expect(moduleOf(frame('file:///w/packages/crawler/dist/pipeline/settle.js'))).toBe('@politely/crawler/pipeline');
    expect(moduleOf(frame('file:///w/packages/core/dist/index.js'))).toBe('@politely/core');
    expect(moduleOf(frame('file:///w/node_modules/.pnpm/undici@7.1.0/node_modules/undici/lib/core/util.js'))).toBe(
      'undici',
    );
    expect(moduleOf(frame('file:///w/node_modules/.pnpm/x/node_modules/@scope/pkg/index.js'))).toBe('@scope/pkg');
    expect(moduleOf(frame('node:internal/streams/readable'))).toBe('node:streams');
    expect(moduleOf(frame('node:url'))).toBe('node:url');
    expect(moduleOf(frame('', '(garbage collector)'))).toBe('(garbage collector)');
    expect(moduleOf(frame('', 'parse'))).toBe('(native)');
  });
});

describe('shareByOwner', () => {
  it('groups module shares by who owns the code', () => {
    const owners = shareByOwner([
      { name: '@politely/crawler/extract', share: 0.3 },
      { name: 'htmlparser2', share: 0.2 },
      { name: 'node:streams', share: 0.1 },
      { name: '(native)', share: 0.1 },
      { name: '(garbage collector)', share: 0.2 },
      { name: '(program)', share: 0.1 },
    ]);
    expect(owners).toEqual({ politely: 0.3, dependencies: 0.2, node: 0.1, native: 0.1, gc: 0.2, v8: 0.1 });
  });
});

describe('scanHrefs (the floor)', () => {
  it('keeps the href of every <a>, entities decoded, and no other attribute', () => {
    const html = `<html><head><link href="/style.css"></head><body>
      <a href="/one?a=1&amp;b=2">one</a> <A HREF='two'>two</A> <img src="/x.png">
      <a title="no link">none</a><a href=three>3</a></body></html>`;
    expect(scanHrefs(html)).toEqual(['/one?a=1&b=2', 'two', 'three']);
  });
});
