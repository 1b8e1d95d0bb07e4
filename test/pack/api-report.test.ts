// The public API is what the committed reports say it is: each public entry point's API report
// (packages/<pkg>/etc/*.api.md, written by API Extractor from the built declarations) must match
// the code, so adding, removing or changing a public name is a visible diff in review. After an
// intended change: `pnpm api:update`, and commit the reports. Every exported name has a doc
// comment, so the API reference (`pnpm run docs`) explains it, and is declared in its own
// package: a name has one import path.
//
// The packages must be built (`pnpm test` builds before vitest; or `pnpm run build`).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiEntries, extractApi, foreignNames, ROOT, undocumentedNames } from '../../scripts/api-report.mjs';

const entries = apiEntries();
for (const entry of entries) {
  if (!existsSync(entry.dts)) throw new Error(`${relative(ROOT, entry.dts)} is missing: run \`pnpm run build\` first`);
}

describe('apiEntries', () => {
  it('finds every public entry point, and no /internal one', () => {
    expect(entries.map((entry) => entry.name)).toEqual([
      '@politely/browser',
      '@politely/cli',
      '@politely/content',
      '@politely/core',
      '@politely/crawler',
      '@politely/demo-web',
      '@politely/frontier',
      '@politely/frontier/testing',
      '@politely/sitemap',
      '@politely/store-redis',
      '@politely/store-sqlite',
    ]);
  });
});

const scratch = mkdtempSync(join(tmpdir(), 'politely-api-report-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('extractApi', () => {
  it('finds a report that lacks a public name, and leaves the report as it was', () => {
    const entry = entries.find((candidate) => candidate.name === '@politely/store-sqlite')!;
    const stale = readFileSync(entry.report, 'utf8')
      .split('\n')
      .filter((line) => !line.includes('createSqliteRobotsCache'))
      .join('\n');
    const report = join(scratch, 'stale', 'store-sqlite.api.md');
    mkdirSync(join(scratch, 'stale'));
    writeFileSync(report, stale);
    const result = extractApi({ ...entry, report });
    expect(result.changed).toBe(true);
    expect(readFileSync(report, 'utf8')).toBe(stale);
  }, 60_000);
});

describe('undocumentedNames and foreignNames', () => {
  it('name an export without a doc comment, and a re-exported Node.js type', () => {
    const dir = join(scratch, 'fixture');
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(
      join(dir, 'dist', 'index.d.ts'),
      [
        '/** Documented. */',
        'export declare const documented: number;',
        'export declare const bare: number;',
        "export type { JsonWebKey } from 'node:crypto';",
        '',
      ].join('\n'),
    );
    const entry = { name: 'fixture', dir, dts: join(dir, 'dist', 'index.d.ts'), mainDts: undefined, report: '' };
    expect(undocumentedNames(entry)).toContain('bare');
    expect(undocumentedNames(entry)).not.toContain('documented');
    expect(foreignNames(entry)).toEqual(['JsonWebKey']);
  }, 60_000);
});

describe('API reports', () => {
  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s: the committed report matches the built declarations, with no API Extractor error',
    (_name, entry) => {
      expect(existsSync(entry.report), `${relative(ROOT, entry.report)} is missing: run \`pnpm api:update\``).toBe(
        true,
      );
      const result = extractApi(entry);
      expect(result.messages).toEqual([]);
      expect(
        result.changed,
        `${relative(ROOT, entry.report)} differs from the code: review the change, run \`pnpm api:update\` and commit the report`,
      ).toBe(false);
      expect(result.succeeded).toBe(true);
    },
    60_000,
  );
});

describe('undocumentedNames', () => {
  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s: every exported name has a doc comment',
    (_name, entry) => {
      expect(undocumentedNames(entry)).toEqual([]);
    },
    60_000,
  );
});

describe('foreignNames', () => {
  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s: re-exports no name of another package or of Node.js (one import path per name)',
    (_name, entry) => {
      expect(foreignNames(entry)).toEqual([]);
    },
    60_000,
  );
});
