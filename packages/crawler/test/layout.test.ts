// The crawler's source tree keeps the URL's path readable: nothing below the pipeline reaches up
// into it, the host clock is imported through its one face, and its arithmetic stays pure.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each source file (relative to src/) with the modules it imports or re-exports, resolved against src/. */
const imports = sourceFiles(SRC).map((file) => {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^(?:import|export)\b[^;]*?from '([^']+)';/gms)].map((m) => m[1]!);
  const resolved = specifiers.map((s) => (s.startsWith('.') ? relative(SRC, join(file, '..', s)) : s));
  return { file: relative(SRC, file), imports: resolved };
});

describe('crawler/src layout', () => {
  it('nothing outside pipeline/ imports it but the crawler and the package entry points', () => {
    const upward = imports.flatMap(({ file, imports: from }) =>
      file.startsWith('pipeline/') || file === 'crawler.ts' || file === 'index.ts' || file === 'internal.ts'
        ? []
        : from.filter((m) => m.startsWith('pipeline/')).map((m) => `${file} -> ${m}`),
    );
    expect(upward).toEqual([]);
  });

  it('outside politeness/, the host clock is imported through politeness/index.ts only', () => {
    const around = imports.flatMap(({ file, imports: from }) =>
      file.startsWith('politeness/')
        ? []
        : from.filter((m) => m.startsWith('politeness/') && m !== 'politeness/index.js').map((m) => `${file} -> ${m}`),
    );
    expect(around).toEqual([]);
  });

  it('the clock arithmetic (pace.ts, delay.ts) imports nothing but core', () => {
    const pure = imports.filter(({ file }) => file === 'politeness/pace.ts' || file === 'politeness/delay.ts');
    expect(pure).toHaveLength(2);
    for (const { file, imports: from } of pure)
      expect(
        from.filter((m) => m !== '@politely/core'),
        file,
      ).toEqual([]);
  });
});
