// The content as plain text: blocks separated by a blank line, list items and table rows by a
// line break, whitespace inside a paragraph collapsed to one space, <br> as a line break, and
// preformatted text exactly as written.

import type { Block, Inline } from './blocks.js';

export function textOf(blocks: readonly Block[]): string {
  return blocks
    .map(blockText)
    .filter((text) => text !== '')
    .join('\n\n');
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
    case 'heading':
      return inlineText(block.inlines);
    case 'pre':
      return block.text.replace(/\n+$/, '');
    case 'quote':
      return textOf(block.blocks);
    case 'list':
      return block.items
        .map((item) => textOf(item))
        .filter((text) => text !== '')
        .join('\n');
    case 'table':
      return block.rows.map((row) => row.map(inlineText).join('\t')).join('\n');
    case 'rule':
      return '';
  }
}

/** Inline text with whitespace collapsed; a break is a newline. */
export function inlineText(inlines: readonly Inline[]): string {
  return flatten(inlines)
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}

function flatten(inlines: readonly Inline[]): string {
  let text = '';
  for (const inline of inlines) {
    if (inline.kind === 'text') text += inline.text.replace(/\s+/g, ' ');
    else if (inline.kind === 'code') text += inline.text;
    else if (inline.kind === 'br') text += '\n';
    else if (inline.kind !== 'image') text += flatten(inline.children);
  }
  return text;
}
