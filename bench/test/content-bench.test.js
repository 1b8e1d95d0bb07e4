// content.bench.js end to end on a few pages: a real run in its own process, with stand-in
// extractor modules (the real @politely/content may not be built), read back from its results file.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BENCH = join(dirname(fileURLToPath(import.meta.url)), '..', 'content.bench.js');
const dir = mkdtempSync(join(tmpdir(), 'politely-content-bench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bench over the first 3 pages, 1 round, measuring `module`; returns its results file. */
function runBench(name, moduleSource) {
  const module = join(dir, `${name}.mjs`);
  writeFileSync(module, moduleSource);
  const results = join(dir, `${name}.json`);
  const run = spawnSync(process.execPath, ['--expose-gc', BENCH], {
    cwd: dirname(BENCH),
    timeout: 60_000,
    encoding: 'utf8',
    env: {
      ...process.env,
      BENCH_CONTENT_ROUNDS: '1',
      BENCH_CONTENT_PAGES: '3',
      BENCH_CONTENT_MODULE: module,
      BENCH_CONTENT_RESULTS: results,
      BENCH_CONTENT_PREDICTIONS: join(dir, `${name}-predictions`),
    },
  });
  expect(run.status, run.stderr).toBe(0);
  return { stdout: run.stdout, results: JSON.parse(readFileSync(results, 'utf8')) };
}

describe('content.bench.js', () => {
  it('scores and times a contestant beside Readability.js and reports the CPU ratio', () => {
    const { stdout, results } = runBench(
      'markup-stripped',
      `export function extractContent(html, { url }) {
        if (!url.startsWith('http')) throw new TypeError('url');
        return { text: html.replace(/<(script|style)\\b[\\s\\S]*?<\\/\\1\\s*>/gi, ' ').replace(/<[^>]*>/g, ' ') };
      }`,
    );
    expect(results.corpus.pages).toBe(3);
    const readability = results.results['Readability.js + linkedom'];
    const contestant = results.results['@politely/content'];
    expect(readability.f1).toBeGreaterThan(0.9);
    expect(contestant.failures).toBe(0);
    expect(contestant.recall).toBeGreaterThan(0.9);
    expect(contestant.precision).toBeLessThan(readability.precision);
    expect(Object.keys(contestant.pages)).toHaveLength(3);
    expect(contestant.cpuMsPerPage.rounds).toHaveLength(1);
    expect(results.ratios.cpuPolitelyOverReadability).toBeGreaterThan(0);
    expect(results.missing).toEqual({});
    expect(stdout).toMatch(/@politely\/content ÷ Readability\.js, CPU per page: [\d.]+×/);
    // The scored texts, in the benchmark's output format for its evaluate.py.
    const written = JSON.parse(readFileSync(join(dir, 'markup-stripped-predictions', 'politely-content.json'), 'utf8'));
    expect(Object.keys(written)).toEqual(['version', 'output']);
    expect(Object.keys(written.output)).toEqual(Object.keys(contestant.pages));
    expect(Object.values(written.output).every((entry) => typeof entry.articleBody === 'string')).toBe(true);
  });

  it('reports a contestant that throws on every page as missing, naming no error message', () => {
    const { stdout, results } = runBench(
      'throws',
      `export function extractContent() {
        const error = new Error('a message that must not be printed');
        error.code = 'ERR_STAND_IN';
        throw error;
      }`,
    );
    expect(results.results['@politely/content']).toBeUndefined();
    expect(results.missing['@politely/content']).toMatch(/^threw on every page \(first: Error ERR_STAND_IN on page /);
    expect(results.ratios).toBeNull();
    expect(stdout).not.toContain('must not be printed');
  });

  it('reports a module without extractContent as missing', () => {
    const { results } = runBench('no-export', 'export const somethingElse = 1;');
    expect(results.missing['@politely/content']).toMatch(/has no extractContent export/);
    expect(results.results['Readability.js + linkedom'].failures).toBe(0);
  });
});
