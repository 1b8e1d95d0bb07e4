// Short lines at the edges of the content that are page furniture, not prose: datelines
// ("Updated 9:38 pm" and a day), bylines ("By Ada Lindqvist"), and labels without a sentence
// ("Share", "Caption", "Close"). Only the first and last few blocks are looked at: inside the
// content, a short line is as likely to be a line of verse or dialogue.

import type { Block } from './blocks.js';
import { inlineText } from './text.js';

/** How many blocks at each end are looked at. */
const EDGE_BLOCKS = 3;
const MONTH =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}\.?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b/i;
const YEAR = /\b(?:19|20)\d\d\b/;
const TIME = /\b\d{1,2}:\d{2}\b/;
const BYLINE = /^(?:by|por|von|par|di|door)\s/i;

function words(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/** Whether a line of text is a dateline, a byline or a label. */
export function isFurnitureLine(text: string): boolean {
  if (text === '' || text.length > 120) return false;
  const count = words(text);
  const dated = YEAR.test(text) || TIME.test(text) || MONTH.test(text);
  if (dated && count <= 18) return true;
  if (BYLINE.test(text) && count <= 8) return true;
  return count <= 3 && text.length <= 25 && !/[.?]$/.test(text);
}

/** The blocks without furniture lines among the first and last few paragraphs. */
export function withoutEdgeLines(blocks: readonly Block[]): Block[] {
  const last = blocks.length - EDGE_BLOCKS;
  return blocks.filter(
    (block, index) =>
      block.kind !== 'paragraph' ||
      (index >= EDGE_BLOCKS && index < last) ||
      !isFurnitureLine(inlineText(block.inlines)),
  );
}
