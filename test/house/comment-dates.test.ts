// Source comments carry no dates: when something was read, measured or decided goes to the docs
// (with its references) and the history, not beside the code (comment-dates.ts says what a date is).

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commentsOf, datedComments, dateIn } from './comment-dates.js';
import { sourceFiles } from './import-graph.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The files whose comments are checked: every package's src/, bench/*.js and scripts/. */
function checkedFiles(): string[] {
  const packages = readdirSync(join(REPO, 'packages')).flatMap((folder) =>
    sourceFiles(join(REPO, 'packages', folder, 'src')),
  );
  const bench = readdirSync(join(REPO, 'bench'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => join(REPO, 'bench', name));
  return [...packages, ...bench, ...sourceFiles(join(REPO, 'scripts'))];
}

describe('source comments', () => {
  it('carry no date (file:line of each that does)', () => {
    const files = checkedFiles();
    expect(files.length).toBeGreaterThan(100);
    const dated = files.flatMap((file) =>
      datedComments(readFileSync(file, 'utf8'), file).map(
        ({ line, date, text }) => `${relative(REPO, file)}:${line}: ${date} in "${text}"`,
      ),
    );
    expect(dated).toEqual([]);
  });
});

describe('datedComments', () => {
  it('finds an ISO date in a line comment and in a block comment, with its line', () => {
    const source = [
      'const a = 1; // searched 2026-11-26, no draft was read whole',
      '/**',
      ' * What it does.',
      ' * Measured on 2026-11-27: 3.05 ms a page.',
      ' */',
      'export const b = 2;',
    ].join('\n');
    expect(datedComments(source)).toEqual([
      { line: 1, date: '2026-11-26', text: '// searched 2026-11-26, no draft was read whole' },
      { line: 4, date: '2026-11-27', text: '* Measured on 2026-11-27: 3.05 ms a page.' },
    ]);
  });

  it('finds dates written with a month name', () => {
    expect(dateIn('draft-ietf-aipref-vocab-08 (14 September 2026): categories')).toBe('14 September 2026');
    expect(dateIn('read on Nov 26, 2026 in the sources')).toBe('Nov 26, 2026');
    expect(dateIn('the IPv6 registry (RFC 9602, October 2024)')).toBe('October 2024');
    expect(dateIn('Final Report of 10 May 2024')).toBe('10 May 2024');
    expect(datedComments('// the 3rd of May: no year\nlet x; /* 1 Mar 2025 */')).toEqual([
      { line: 2, date: '1 Mar 2025', text: '/* 1 Mar 2025 */' },
    ]);
  });

  it('passes dates outside comments, HTTP-date format examples, years and version numbers', () => {
    const source = [
      "const date = '2026-11-26'; // a string is data",
      `const t = \`lastmod $\{'2026-11-01'}\`;`,
      'const re = /\\d{4}-\\d{2}-\\d{2}/; // matches 2031-05-17-like paths? no: this comment has a date',
      '//   IMF-fixdate example: Sun, 06 Nov 1994 08:49:37 GMT',
      '// a convention started in 2022; RFC 9309; v0.1.0; 2026-11 (a month); 127.0.0.1',
    ].join('\n');
    expect(datedComments(source).map(({ line, date }) => [line, date])).toEqual([[3, '2031-05-17']]);
  });

  it('reads JavaScript files too, and every comment once', () => {
    const source = '// one\nimport x from "y"; // two 2025-01-02\n/* three */\nexport default x; // four\n';
    expect(commentsOf(source, 'bench/x.bench.js').map(({ text }) => text)).toEqual([
      '// one',
      '// two 2025-01-02',
      '/* three */',
      '// four',
    ]);
    expect(datedComments(source, 'bench/x.bench.js')).toHaveLength(1);
  });
});
