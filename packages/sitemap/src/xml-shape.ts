// Where a sitemap document's root and entries begin and end, found in its text without parsing
// it: to tell formats apart, to make a document cut at the size cap whole again, and to parse a
// large file a slice of entries at a time. Pure; every loop moves forward through the text.

export interface RootElement {
  /** Local name (`urlset` for `<s:urlset>`). */
  readonly name: string;
  /** As written (`s:urlset`). */
  readonly qualified: string;
  /** Index of its `<`. */
  readonly start: number;
}

/**
 * The document's root element, past the XML declaration, comments, processing instructions and
 * a DOCTYPE (with its internal subset).
 */
export function rootElementOf(text: string): RootElement | undefined {
  let i = 0;
  while (i < text.length) {
    const next = text.slice(i).search(/\S/);
    if (next === -1) return undefined;
    i += next;
    let end: number;
    if (text.startsWith('<?', i)) end = after(text, '?>', i + 2);
    else if (text.startsWith('<!--', i)) end = after(text, '-->', i + 4);
    else if (text.startsWith('<!', i)) {
      const close = text.indexOf('>', i);
      const subset = text.indexOf('[', i);
      end =
        subset !== -1 && (close === -1 || subset < close)
          ? after(text, '>', text.indexOf(']', subset))
          : after(text, '>', i);
    } else {
      const match = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(i, i + 256));
      if (match === null) return undefined;
      const qualified = match[1]!;
      return { qualified, name: qualified.slice(qualified.indexOf(':') + 1), start: i };
    }
    if (end === -1) return undefined;
    i = end;
  }
  return undefined;
}

/** The index just past `token` found from `from`, or -1. */
function after(text: string, token: string, from: number): number {
  if (from < 0) return -1;
  const at = text.indexOf(token, from);
  return at === -1 ? -1 : at + token.length;
}

/**
 * A document cut at the size cap, made whole again: everything up to the end of its last complete
 * entry (`</item>`), then `closing`. null when no entry was complete. The last entry end is found
 * by the same forward pass over the markup as the slicer's cuts, so a `</item>` inside a comment,
 * CDATA section, processing instruction or quoted attribute value is never taken for one.
 */
export function closeAfterLastEntry(text: string, item: string, closing: string): string | null {
  const root = rootElementOf(text);
  if (root === undefined) return null;
  const end = lastEntryEnd(text, item, root.start);
  return end === -1 ? null : text.slice(0, end) + closing;
}

/**
 * The end of the last closing tag `</item>` (or `</prefix:item>`) in one forward pass over the
 * markup from `from` (the root's `<`), or -1. The pass stops at markup the cut left unterminated:
 * nothing past its start is whole.
 */
function lastEntryEnd(text: string, item: string, from: number): number {
  let last = -1;
  for (const { open, end } of markupFrom(text, from)) {
    if (end === -1) break;
    if (closesEntry(text, open, end, item)) last = end;
  }
  return last;
}

/**
 * A well-formed document as a series of small documents: its root start tag, a run of whole
 * entries (about `chunkChars` characters), and its root end tag. A cut never falls inside a
 * comment, CDATA section, processing instruction or tag (quoted attribute values included), so
 * every piece is as well-formed as the whole.
 */
export function* entryChunks(text: string, item: string, chunkChars: number): Generator<string> {
  const root = rootElementOf(text);
  if (root === undefined) return;
  const startTagEnd = endOfStartTag(text, root.start);
  if (startTagEnd === -1 || text[startTagEnd - 2] === '/') return; // `<urlset/>`: no entries
  const close = rootEndTag(text, root.qualified, startTagEnd);
  if (close < startTagEnd) return;
  const head = text.slice(root.start, startTagEnd);
  const tail = `</${root.qualified}>`;
  let pos = startTagEnd;
  while (pos < close) {
    const end = pos + chunkChars >= close ? close : nextCut(text, item, pos, pos + chunkChars, close);
    yield head + text.slice(pos, end) + tail;
    pos = end;
  }
}

/**
 * Where the root's end tag `</qualified>` begins, or -1: the last one seen in one forward pass over
 * the markup from `from` (past the root's start tag), stepping over comments, CDATA sections,
 * processing instructions and tags whole, so a `</urlset` in a comment or PI after the root (or
 * anywhere else outside markup) is never taken for it. Only comments, PIs and white space may
 * follow the root, so the last real one is the root's own.
 */
function rootEndTag(text: string, qualified: string, from: number): number {
  let last = -1;
  for (const { open, end } of markupFrom(text, from)) {
    // Unterminated markup (a document the whole-file check rejects): the rest cannot be scanned.
    // The last end tag seen, else the text's last `</qualified` (one search over the text),
    // so the rest goes as one last piece, never cut.
    if (end === -1) return last !== -1 ? last : text.lastIndexOf(`</${qualified}`);
    if (isEndTag(text, open, end, qualified)) last = open;
  }
  return last;
}

/**
 * Each piece of markup from `from` on, in order: where its `<` is and where it ends (just past
 * it; -1 for markup left unterminated, which is the last piece). The one forward pass the scans
 * above share: comments, CDATA sections, PIs and tags (quoted values included) are stepped over whole.
 */
function* markupFrom(text: string, from: number): Generator<{ readonly open: number; readonly end: number }> {
  let i = from;
  for (;;) {
    const open = text.indexOf('<', i);
    if (open === -1) return;
    const end = endOfMarkup(text, open);
    yield { open, end };
    if (end === -1) return;
    i = end;
  }
}

/** Just past the `>` of the start tag at `start` (quoted attribute values may hold `>`), or -1. */
function endOfStartTag(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    TAG_STOP.lastIndex = i;
    const stop = TAG_STOP.exec(text);
    if (stop === null) return -1;
    if (stop[0] === '>') return stop.index + 1;
    // A quoted attribute value: skip to its closing quote, whatever it holds (`>`, `<`, `</url>`).
    const quoteEnd = text.indexOf(stop[0], stop.index + 1);
    if (quoteEnd === -1) return -1;
    i = quoteEnd + 1;
  }
}

/** What ends a start tag or opens a quoted attribute value in it. */
const TAG_STOP = /["'>]/g;

/** Sections whose text is not markup, and where each ends: a `</item>` inside one is no cut point. */
const SECTIONS = [
  { open: '<!--', close: '-->' },
  { open: '<![CDATA[', close: ']]>' },
  { open: '<?', close: '?>' },
] as const;

/**
 * The end of the first closing tag `</item>` (or `</prefix:item>`) that ends past `from`, else
 * `close`. One forward pass over the markup from `pos` (which lies between two pieces of markup):
 * each comment, CDATA section, processing instruction and tag is stepped over whole, so a
 * `</item>` inside a section or inside a quoted attribute value of a start tag is never a cut, and
 * every character of [pos, cut) is looked at a bounded number of times (the next call starts at
 * the cut), so a file full of candidates stays linear.
 */
function nextCut(text: string, item: string, pos: number, from: number, close: number): number {
  for (const { open, end } of markupFrom(text, pos)) {
    if (open >= close) return close;
    // Markup that does not end before the root's end tag (an unterminated comment or quote): no
    // cut is safe past its start.
    if (end === -1 || end > close) return close;
    if (end > from && closesEntry(text, open, end, item)) return end;
  }
  return close;
}

/** Just past the piece of markup whose `<` is at `open` (a section, an end tag, a start tag), or -1. */
function endOfMarkup(text: string, open: number): number {
  for (const section of SECTIONS) {
    if (text.startsWith(section.open, open)) return after(text, section.close, open + section.open.length);
  }
  // An end tag holds no quoted values; a start tag (or a stray declaration) may.
  if (text[open + 1] === '/') return after(text, '>', open + 2);
  return endOfStartTag(text, open);
}

/** Whether the markup [open, end) is an end tag `</item>` or `</prefix:item>` (space before `>` allowed). */
function closesEntry(text: string, open: number, end: number, item: string): boolean {
  if (text[open + 1] !== '/') return false;
  const name = text.slice(open + 2, end - 1).trimEnd();
  if (name === item) return true;
  return name.endsWith(`:${item}`) && PREFIX.test(name.slice(0, -item.length - 1));
}

/** Whether the markup [open, end) is the end tag `</qualified>` (space before `>` allowed). */
function isEndTag(text: string, open: number, end: number, qualified: string): boolean {
  return text[open + 1] === '/' && text.slice(open + 2, end - 1).trimEnd() === qualified;
}

/** A namespace prefix, as the closing-tag check above accepts it. */
const PREFIX = /^[A-Za-z_][\w.-]*$/;
