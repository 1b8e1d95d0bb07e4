// Finds comments that carry a calendar date (an ISO date, or a date with a month's name). A
// source comment says what the code does and why; when something was read, measured or decided
// belongs in the docs and the history, not beside the code. Comments are found with TypeScript's
// own parser, so a date in a string, a template or a regular expression is not one.

import ts from 'typescript';

const MONTH =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const YEAR = '(?:19|20)\\d{2}';

/**
 * The date forms a comment may not carry: `2026-11-26`; `26 November 2026` and `26 Nov 2026`
 * (but not an HTTP-date example such as `Sun, 06 Nov 1994 08:49:37 GMT`, a format); `November 26,
 * 2026`; `November 2026`.
 */
const DATE_PATTERNS: readonly RegExp[] = [
  new RegExp(`\\b${YEAR}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])\\b`),
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)? ${MONTH},? ${YEAR}\\b(?! \\d{2}:\\d{2})`),
  new RegExp(`\\b${MONTH} \\d{1,2}(?:st|nd|rd|th)?, ${YEAR}\\b`),
  new RegExp(`\\b${MONTH},? ${YEAR}\\b(?! \\d{2}:\\d{2})`),
];

/** A comment line that carries a date: its 1-based line, the date as written, and the line. */
export interface DatedComment {
  readonly line: number;
  readonly date: string;
  readonly text: string;
}

/** The date a piece of text carries, or undefined. */
export function dateIn(text: string): string | undefined {
  for (const pattern of DATE_PATTERNS) {
    const match = pattern.exec(text);
    if (match !== null) return match[0];
  }
  return undefined;
}

/** Every comment of a source file (TypeScript or JavaScript), as its start offset and text. */
export function commentsOf(source: string, fileName = 'file.ts'): { readonly pos: number; readonly text: string }[] {
  const kind = /\.[cm]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, kind);
  const found = new Map<number, string>();
  const collect = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) found.set(range.pos, source.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(source, node.pos));
    collect(ts.getTrailingCommentRanges(source, node.end));
    ts.forEachChild(node, visit);
  };
  visit(file);
  collect(ts.getLeadingCommentRanges(source, file.endOfFileToken.pos));
  return [...found].sort(([a], [b]) => a - b).map(([pos, text]) => ({ pos, text }));
}

/** The comment lines of `source` that carry a date, in order. */
export function datedComments(source: string, fileName = 'file.ts'): DatedComment[] {
  const dated: DatedComment[] = [];
  let line = 1;
  let counted = 0;
  for (const comment of commentsOf(source, fileName)) {
    for (; counted < comment.pos; counted++) if (source.charCodeAt(counted) === 10) line++;
    comment.text.split('\n').forEach((text, index) => {
      const date = dateIn(text);
      if (date !== undefined) dated.push({ line: line + index, date, text: text.trim() });
    });
  }
  return dated;
}
