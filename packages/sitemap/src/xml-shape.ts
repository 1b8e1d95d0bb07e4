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
  // Look back at most 256 characters: an unbounded lastIndexOf('<') would make a flood of
  // look-alikes ("url>url>url>…") quadratic.
  const window = text.slice(Math.max(0, at - 256), at);
  const open = window.lastIndexOf('<');
  return open !== -1 && /^<\/(?:[A-Za-z_][\w.-]*:)?$/.test(window.slice(open));
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

/** Sections whose text is not markup: a `</item>` inside one is no cut point. */
const SECTIONS = [
  { open: '<!--', close: '-->' },
  { open: '<![CDATA[', close: ']]>' },
  { open: '<?', close: '?>' },
] as const;

/**
 * The end of the first closing `</item>` at or after `from` that lies outside comments, CDATA
 * sections and processing instructions, else `close`. One forward pass: where each kind of
 * section next opens is remembered, so a file full of candidates stays linear.
 */
function nextCut(text: string, item: string, pos: number, from: number, close: number): number {
  const token = `${item}>`;
  const nextOpen = SECTIONS.map((section) => text.indexOf(section.open, pos));
  let scan = pos; // text[pos, scan) ends outside any section
  let at = from;
  while (at < close) {
    const found = text.indexOf(token, at);
    if (found === -1 || found >= close) return close;
    const cut = found + token.length;
    const hiddenUntil = advanceOutsideSections(text, nextOpen, scan, cut);
    if (hiddenUntil === -1) {
      if (isClosingTag(text, found)) return cut;
      scan = cut;
      at = cut;
    } else {
      // The candidate is inside a section: no cut before the section ends.
      if (hiddenUntil === Infinity) return close;
      scan = hiddenUntil;
      at = Math.max(cut, hiddenUntil);
    }
  }
  return close;
}

/**
 * Moves past every section that opens in [scan, cut) and closes before `cut`. Returns -1 when
 * `cut` lies outside all sections, else the index just past the section that covers it
 * (Infinity if that section never closes). `nextOpen` is updated in place.
 */
function advanceOutsideSections(text: string, nextOpen: number[], scan: number, cut: number): number {
  let position = scan;
  for (;;) {
    let kind = -1;
    for (let k = 0; k < SECTIONS.length; k++) {
      if (nextOpen[k]! !== -1 && nextOpen[k]! < position) nextOpen[k] = text.indexOf(SECTIONS[k]!.open, position);
      const start = nextOpen[k]!;
      if (start !== -1 && start < cut && (kind === -1 || start < nextOpen[kind]!)) kind = k;
    }
    if (kind === -1) return -1;
    const section = SECTIONS[kind]!;
    const closeAt = text.indexOf(section.close, nextOpen[kind]! + section.open.length);
    if (closeAt === -1) return Infinity;
    const end = closeAt + section.close.length;
    if (end > cut) return end;
    position = end;
  }
}
