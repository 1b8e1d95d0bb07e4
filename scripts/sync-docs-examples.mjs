// Copies each example file into the Markdown blocks that show it. A block that shows an example
// is a fenced block right after a line `<!-- example: examples/NAME.mjs -->`; test/docs checks
// that every such block is the file, byte for byte, and that the examples test runs the file.
//
//   node scripts/sync-docs-examples.mjs          # rewrite the blocks from the files
//   node scripts/sync-docs-examples.mjs --check  # only say which blocks differ (exit 1)

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { docsFiles, exampleBlocks, ROOT } from './docs-files.mjs';

const check = process.argv.includes('--check');
let stale = 0;
for (const file of docsFiles()) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  let out = text;
  // Replace from the end, so earlier offsets stay right.
  for (const block of exampleBlocks(text).reverse()) {
    const source = readFileSync(join(ROOT, block.example), 'utf8');
    if (block.code === source) continue;
    stale++;
    console.log(`${file}:${block.line}: ${block.example} differs`);
    out = out.slice(0, block.codeStart) + source + out.slice(block.codeEnd);
  }
  if (!check && out !== text) writeFileSync(join(ROOT, file), out);
}
if (check && stale > 0) process.exit(1);
