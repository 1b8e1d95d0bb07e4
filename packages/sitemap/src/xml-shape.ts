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
      end = subset !== -1 && (close === -1 || subset < close) ? after(text, '>', text.indexOf(']', subset)) : after(text, '>', i);
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
 * entry (`</item>`), then `closing`. null when no entry was complete.
 */
export function closeAfterLastEntry(text: string, item: string, closing: string): string | null {
  const token = `${item}>`;
  let from = text.length;
  while (from > 0) {
    const at = text.lastIndexOf(token, from - 1);
    if (at === -1) return null;
    if (isClosingTag(text, at)) return text.slice(0, at + token.length) + closing;
    from = at;
  }
  return null;
}

/** Whether the `name>` at `at` ends a closing tag `</name>` or `</prefix:name>`. */
function isClosingTag(text: string, at: number): boolean {
  const open = text.lastIndexOf('<', at);
  return open !== -1 && at - open <= 256 && /^<\/(?:[A-Za-z_][\w.-]*:)?$/.test(text.slice(open, at));
}

/**
 * A well-formed document as a series of small documents: its root start tag, a run of whole
 * entries (about `chunkChars` characters), and its root end tag. A cut never falls inside a
 * comment or CDATA section, so every piece is as well-formed as the whole.
 */
export function* entryChunks(text: string, item: string, chunkChars: number): Generator<string> {
  const root = rootElementOf(text);
  if (root === undefined) return;
  const startTagEnd = endOfStartTag(text, root.start);
  if (startTagEnd === -1 || text[startTagEnd - 2] === '/') return; // `<urlset/>`: no entries
  const close = text.lastIndexOf(`</${root.qualified}`);
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

/** Just past the `>` of the start tag at `start` (quoted attribute values may hold `>`), or -1. */
function endOfStartTag(text: string, start: number): number {
  let quote = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i + 1;
  }
  return -1;
}

/** The end of the first closing `</item>` at or after `from` that lies outside comments and CDATA, else `close`. */
function nextCut(text: string, item: string, pos: number, from: number, close: number): number {
  const token = `${item}>`;
  let at = from;
  while (at < close) {
    const found = text.indexOf(token, at);
    if (found === -1 || found >= close) return close;
    const cut = found + token.length;
    if (isClosingTag(text, found) && !insideCommentOrCdata(text.slice(pos, cut))) return cut;
    at = cut;
  }
  return close;
}

/** Whether a piece that starts outside any comment or CDATA section ends inside one. */
function insideCommentOrCdata(piece: string): boolean {
  return piece.lastIndexOf('<!--') > piece.lastIndexOf('-->') || piece.lastIndexOf('<![CDATA[') > piece.lastIndexOf(']]>');
}
