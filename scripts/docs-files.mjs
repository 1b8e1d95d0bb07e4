// The Markdown that users read, and the example blocks in it: shared by test/docs and
// scripts/sync-docs-examples.mjs.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** README.md, docs/**\/*.md (docs/api/ is generated, left out) and packages/*\/README.md, as paths from the root. */
export function docsFiles() {
  const files = ['README.md'];
  const walk = (dir) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && path !== 'docs/api') walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    if (existsSync(join(ROOT, 'packages', pkg, 'README.md'))) files.push(`packages/${pkg}/README.md`);
  }
  return files;
}

const MARKER = /^<!-- example: (\S+) -->\n(`{3,})[a-z]*\n/gm;

/**
 * The blocks that show an example file: `<!-- example: examples/NAME.mjs -->`, then a fenced
 * block. `code` is the block's text (each line with its newline); `codeStart`/`codeEnd` its offsets.
 */
export function exampleBlocks(text) {
  const blocks = [];
  for (const match of text.matchAll(MARKER)) {
    const codeStart = match.index + match[0].length;
    const close = text.indexOf(`\n${match[2]}\n`, codeStart - 1);
    const codeEnd = close === -1 ? text.length : close + 1;
    const line = text.slice(0, match.index).split('\n').length;
    blocks.push({ example: match[1], line, code: text.slice(codeStart, codeEnd), codeStart, codeEnd });
  }
  return blocks;
}
