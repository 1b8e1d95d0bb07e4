// The Markdown round trip the tests check: the Markdown rendered back to HTML by markdown-it (a
// CommonMark parser), reduced to its text, says what `text` says, white space aside.

import { Parser } from 'htmlparser2';
import MarkdownIt from 'markdown-it';

const BLOCKS = new Set([
  'p',
  'li',
  'pre',
  'td',
  'th',
  'tr',
  'blockquote',
  'br',
  'hr',
  'ul',
  'ol',
  'table',
  'h1',
  'h2',
  'h3',
]);
const markdownIt = new MarkdownIt();

/** The text of rendered HTML, blocks separated by spaces. */
function textOfHtml(html: string): string {
  let text = '';
  new Parser({
    ontext: (data) => {
      text += data;
    },
    onopentag: (name) => {
      if (BLOCKS.has(name)) text += ' ';
    },
    onclosetag: (name) => {
      if (BLOCKS.has(name)) text += ' ';
    },
  }).end(html);
  return text;
}

/** White space folded to single spaces, trimmed. */
export const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The text of `markdown` rendered to HTML by markdown-it, white space folded. */
export function renderedText(markdown: string): string {
  return squash(textOfHtml(markdownIt.render(markdown)));
}
