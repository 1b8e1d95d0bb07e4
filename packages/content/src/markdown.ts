// The content as CommonMark (with GFM tables and strikethrough). Text is escaped only where
// Markdown would read it as markup; preformatted text goes into a fence longer than any backtick
// run inside it, byte for byte; <br> is a backslash hard break; links and images are absolute.

import type { Block, Inline } from './blocks.js';

export function markdownOf(blocks: readonly Block[]): string {
  return joinBlocks(blocks.map(blockMarkdown));
}

function joinBlocks(parts: readonly string[]): string {
  return parts.filter((part) => part !== '').join('\n\n');
}

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return escapeLineStarts(inlineMarkdown(block.inlines).trim());
    case 'heading': {
      const text = inlineMarkdown(block.inlines).replace(/\n/g, ' ').trim().replace(/#$/, '\\#');
      return `${'#'.repeat(block.level)} ${text}`;
    }
    case 'pre':
      return fenced(block.text, block.lang);
    case 'quote':
      return prefixLines(markdownOf(block.blocks), '> ', '>');
    case 'list':
      return listMarkdown(block);
    case 'table':
      return tableMarkdown(block.rows);
    case 'rule':
      return '---';
  }
}

/** A fence of backticks longer than any run inside (at least three), the text unchanged. */
function fenced(text: string, lang: string | null): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `${fence}${lang ?? ''}\n${body}${fence}`;
}

function listMarkdown(list: Extract<Block, { kind: 'list' }>): string {
  const loose = list.items.some((item) => item.filter((block) => block.kind !== 'list').length > 1);
  return list.items
    .map((item, index) => {
      const marker = list.ordered ? `${list.start + index}. ` : '- ';
      const body = itemMarkdown(item);
      return prefixLines(body, marker, '', ' '.repeat(marker.length));
    })
    .join(loose ? '\n\n' : '\n');
}

/** An item's blocks: a nested list follows its paragraph on the next line, other blocks after a blank one. */
function itemMarkdown(blocks: readonly Block[]): string {
  let text = '';
  for (const [index, block] of blocks.entries()) {
    const part = blockMarkdown(block);
    if (part === '') continue;
    if (text !== '') text += tightAfterParagraph(block) && blocks[index - 1]?.kind === 'paragraph' ? '\n' : '\n\n';
    text += part;
  }
  return text;
}

/** A list may follow a paragraph on the next line unless it is ordered from a number other than 1. */
function tightAfterParagraph(block: Block): boolean {
  return block.kind === 'list' && (!block.ordered || block.start === 1);
}

function tableMarkdown(rows: readonly Inline[][][]): string {
  const [head, ...body] = rows;
  if (head === undefined) return '';
  const line = (row: readonly Inline[][]): string =>
    `| ${row.map((cell) => inlineMarkdown(cell).replace(/\n/g, ' ').trim().replace(/\|/g, '\\|')).join(' | ')} |`;
  const rule = `| ${head.map(() => '---').join(' | ')} |`;
  return [line(head), rule, ...body.map(line)].join('\n');
}

/** `first` before the first line, `rest` (or `first` trimmed) before the others; blank lines get `blank`. */
function prefixLines(text: string, first: string, blank: string, rest: string = first): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? first + line : line === '' ? blank : rest + line))
    .join('\n');
}

function inlineMarkdown(inlines: readonly Inline[]): string {
  let out = '';
  for (const [index, inline] of inlines.entries()) {
    switch (inline.kind) {
      case 'text':
        out += escapeText(inline.text.replace(/\s+/g, ' '));
        break;
      case 'code':
        out += codeSpan(inline.text);
        break;
      case 'br':
        // Two breaks in a row end the paragraph; one is a hard break.
        out = out.replace(/[ \t]+$/, '');
        if (out.endsWith('\\\n')) out = `${out.slice(0, -2)}\n\n`;
        else if (!out.endsWith('\n\n')) out = `${out}\\\n`;
        break;
      case 'image':
        out += `![${escapeText(inline.alt)}](${destination(inline.src)})`;
        break;
      case 'link': {
        const inner = inlineMarkdown(unlinked(inline.children));
        const text = inner.trim();
        if (text === '') {
          out += inner;
          break;
        }
        // Spaces at the link's edges move outside it; a `!` just before would make it an image.
        if (inner.startsWith(' ')) out += ' ';
        else if (out.endsWith('!') && !out.endsWith('\\!')) out = `${out.slice(0, -1)}\\!`;
        out += `[${text}](${destination(inline.href)})${inner.endsWith(' ') ? ' ' : ''}`;
        break;
      }
      default: {
        const delimiter = inline.kind === 'em' ? '*' : inline.kind === 'strong' ? '**' : '~~';
        out += emphasis(delimiter, inline.children, out.slice(-1), firstCharOf(inlines[index + 1]));
      }
    }
  }
  // A break at the very end is dropped by Markdown: it is a space there.
  return out.replace(/\\\n(?=\s*$)/, ' ').replace(/\n[ \t]+/g, '\n');
}

/**
 * Emphasis with its delimiters hugging the text (surrounding spaces move outside them). Where
 * CommonMark would not read the delimiters as emphasis (`a**>b**`: punctuation inside, a letter
 * outside), the text is written without them: the words matter more than their weight.
 */
function emphasis(delimiter: string, children: readonly Inline[], before: string, after: string): string {
  // Emphasis inside emphasis is written as plain text: only the outer delimiters stay.
  const inner = inlineMarkdown(withoutEmphasis(children));
  const trimmed = inner.trim();
  if (trimmed === '') return inner;
  const lead = inner.startsWith(' ') ? ' ' : '';
  const trail = inner.endsWith(' ') ? ' ' : '';
  const outsideBefore = lead === '' ? before : ' ';
  const outsideAfter = trail === '' ? after : ' ';
  const opens = !isPunctuation(trimmed[0]!) || isBoundary(outsideBefore);
  const closes = !isPunctuation(trimmed[trimmed.length - 1]!) || isBoundary(outsideAfter);
  // Delimiters next to delimiters (`***`, nested emphasis) are read in ways hard to foresee.
  const nested = /^[*~]|(?<!\\)[*~]$/.test(trimmed) || /[*~]/.test(outsideBefore + outsideAfter);
  if (!opens || !closes || nested || trimmed.includes('\n')) return inner;
  return `${lead}${delimiter}${trimmed}${delimiter}${trail}`;
}

const PUNCTUATION = /[\p{P}\p{S}]/u;

function isPunctuation(char: string): boolean {
  return PUNCTUATION.test(char);
}

/** The start or end of the text, whitespace or punctuation: where a delimiter may stand by punctuation. */
function isBoundary(char: string): boolean {
  return char === '' || /\s/.test(char) || isPunctuation(char);
}

/** The first character the next inline writes ('' at the end). */
function firstCharOf(inline: Inline | undefined): string {
  if (inline === undefined) return '';
  switch (inline.kind) {
    case 'text': {
      const text = escapeText(inline.text.replace(/\s+/g, ' '));
      return text.slice(0, 1);
    }
    case 'code':
      return '`';
    case 'br':
      return '\n';
    case 'image':
      return '!';
    case 'link':
      return '[';
    default:
      return '*';
  }
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ')) ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

function destination(url: string): string {
  return url.replace(/[ ()<>]/g, (char) => encodeURIComponent(char));
}

function withoutEmphasis(inlines: readonly Inline[]): Inline[] {
  return inlines.flatMap((inline): Inline[] => {
    if (inline.kind === 'em' || inline.kind === 'strong' || inline.kind === 'del')
      return withoutEmphasis(inline.children);
    if (inline.kind === 'link') return [{ ...inline, children: withoutEmphasis(inline.children) }];
    return [inline];
  });
}

/** Links inside a link (markup that HTML parsers tolerate) as their text: Markdown links do not nest. */
function unlinked(inlines: readonly Inline[]): Inline[] {
  return inlines.flatMap((inline): Inline[] => {
    if (inline.kind === 'link') return unlinked(inline.children);
    if ('children' in inline) return [{ ...inline, children: unlinked(inline.children) }];
    return [inline];
  });
}

/** A letter or digit: an underscore between two of them cannot be emphasis. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Escapes what Markdown would read as inline markup in running text. */
export function escapeText(text: string): string {
  return text
    .replace(/[\\`*[\]]/g, '\\$&')
    .replace(/~~+/g, (run) => run.replace(/~/g, '\\~'))
    .replace(/_/g, (_, at: number, text: string) =>
      WORD_CHAR.test(text[at - 1] ?? '') && WORD_CHAR.test(text[at + 1] ?? '') ? '_' : '\\_',
    )
    .replace(/</g, '\\<')
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
}

/** Escapes what would start a block at the start of a line: headings, quotes, list markers, rules. */
function escapeLineStarts(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/^([#>])/, '\\$1')
        .replace(/^([-+])(?=\s|$)/, '\\$1')
        .replace(/^(=+|-+)\s*$/, (run) => `\\${run}`)
        .replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2'),
    )
    .join('\n');
}
