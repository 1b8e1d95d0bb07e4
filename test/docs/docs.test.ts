// The documentation as users read it: README.md, docs/**/*.md and packages/*/README.md. Every
// relative link reaches a file, and a heading when it names one; every code block that shows an
// example (`<!-- example: examples/NAME.mjs -->` before it) is that file byte for byte, and the
// examples test runs that file. Fix a stale block with `node scripts/sync-docs-examples.mjs`.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsFiles, exampleBlocks, ROOT } from '../../scripts/docs-files.mjs';
import { anchorsOf, isExternal, linksOf, slugOf } from './markdown-links.js';

const files = docsFiles();
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** What is wrong with one relative link of `file`, or undefined. */
function brokenLink(file: string, target: string): string | undefined {
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = path === '' ? file : normalize(join(dirname(file), path));
  if (relative(ROOT, join(ROOT, resolved)).startsWith('..')) return 'points outside the repository';
  const absolute = join(ROOT, resolved);
  if (!existsSync(absolute)) return `no such file: ${resolved}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(absolute).isDirectory() || !resolved.endsWith('.md')) return `#${anchor}: not a Markdown file`;
  return anchorsOf(read(resolved)).has(anchor) ? undefined : `no heading #${anchor} in ${resolved}`;
}

describe('documentation files', () => {
  it('are found: the README, the docs pages and a README per public package', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/README.md');
    const published = readdirSync(join(ROOT, 'packages')).filter(
      (name) => JSON.parse(read(`packages/${name}/package.json`)).private !== true,
    );
    expect(published.length).toBeGreaterThanOrEqual(9);
    for (const name of published) expect(files, name).toContain(`packages/${name}/README.md`);
  });
});

describe.each(files)('%s', (file) => {
  const text = read(file);

  it('has no relative link to a missing file or heading', () => {
    const broken = linksOf(text)
      .filter((link) => !isExternal(link.target))
      .map((link) => ({ link, problem: brokenLink(file, link.target) }))
      .filter(({ problem }) => problem !== undefined)
      .map(({ link, problem }) => `${file}:${link.line}: (${link.target}) ${problem}`);
    expect(broken).toEqual([]);
  });

  it('shows each example exactly as its file, and only examples that the examples test runs', () => {
    const examplesTest = read('examples/test/examples.test.ts');
    for (const block of exampleBlocks(text)) {
      const where = `${file}:${block.line} (${block.example})`;
      expect(block.example, where).toMatch(/^examples\/[\w-]+\.mjs$/);
      expect(existsSync(join(ROOT, block.example)), `${where}: no such file`).toBe(true);
      const stale = `${where}: differs from the file; run node scripts/sync-docs-examples.mjs`;
      expect(block.code, stale).toBe(read(block.example));
      const name = `'${block.example.slice('examples/'.length)}'`;
      expect(examplesTest, `${where}: examples/test/examples.test.ts does not run it`).toContain(name);
    }
  });
});

describe('the link check', () => {
  it('finds inline links outside code, with their lines', () => {
    const text = 'a [x](a.md) `[y](b.md)`\n```\n[z](c.md)\n```\n![i](d.png "t") [w](<e f.md>)';
    expect(linksOf(text).map((link) => `${link.line}:${link.target}`)).toEqual(['1:a.md', '5:d.png']);
  });

  it('makes anchors as GitHub does', () => {
    expect(slugOf('The `politely` command')).toBe('the-politely-command');
    expect(slugOf('Datasets: records to JSON lines and CSV')).toBe('datasets-records-to-json-lines-and-csv');
    expect(slugOf('Redis: URL, durability, outages, workers')).toBe('redis-url-durability-outages-workers');
    expect(slugOf('Why [stores](x.md) — and not_limiters')).toBe('why-stores--and-not_limiters');
    expect([...anchorsOf('# A\n## A\n```\n# B\n```\n### C ##')]).toEqual(['a', 'a-1', 'c']);
  });

  it('reports a missing file, a missing heading and a heading in a file that is not Markdown', () => {
    expect(brokenLink('docs/README.md', 'no-such-page.md')).toBe('no such file: docs/no-such-page.md');
    expect(brokenLink('docs/README.md', 'cli.md#no-such-heading')).toBe('no heading #no-such-heading in docs/cli.md');
    expect(brokenLink('docs/README.md', '#api-reference')).toBeUndefined();
    expect(brokenLink('README.md', 'package.json#x')).toBe('#x: not a Markdown file');
    expect(brokenLink('README.md', '../outside.md')).toBe('points outside the repository');
  });
});
