// Flattening pathologically deep HTML before it is parsed (PURE, linear). parse5 (and
// htmlparser2, and css-select's traversal) take time quadratic in the nesting depth: a 50 KB
// page of 10,000 nested <div>s costs half a second, 50,000 cost fifteen, with the event loop
// blocked for every other host. Browsers bound the tree the same way (Blink attaches elements
// deeper than 512 to the 512th ancestor); here the start and end tags of elements past the cap
// are dropped from the text, so their content (text, links) stays, one level up.

/** Nesting depth kept; deeper elements are flattened into their 512th ancestor. */
export const MAX_HTML_NESTING = 512;

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'keygen',
  'frame',
]);
// Elements whose end tag may be left out (a list of 10,000 <li> without </li> is flat, not deep):
// they never count as nesting and are never dropped.
const OPTIONAL_END = new Set([
  'html',
  'head',
  'body',
  'p',
  'li',
  'dt',
  'dd',
  'option',
  'optgroup',
  'tr',
  'td',
  'th',
  'tbody',
  'thead',
  'tfoot',
  'colgroup',
  'caption',
  'rb',
  'rt',
  'rtc',
  'rp',
]);
// Their content is text up to their end tag: `<div>` inside a script string is not a tag.
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
// Links are what the crawler reads: never dropped, whatever the depth; nor the roots of foreign
// content, which decide how the links inside them are read (`<svg><a xlink:href>`).
const ALWAYS_KEPT = new Set(['a', 'area', 'svg', 'math']);
// How far an end tag looks down the open elements for its match: misnested markup is common,
// and a bounded look keeps the scan linear.
const END_TAG_REACH = 8;

/**
 * `html` with every element nested deeper than `maxDepth` flattened (its tags removed, its
 * content kept); `html` itself, not a copy, when nothing is that deep.
 */
export function capHtmlNesting(html: string, maxDepth = MAX_HTML_NESTING): string {
  if (!mayNestDeeperThan(html, maxDepth)) return html;
  const open: string[] = [];
  const dropped = new Map<string, number>();
  const kept: string[] = [];
  let keptFrom = 0;
  const drop = (from: number, to: number): void => {
    kept.push(html.slice(keptFrom, from));
    keptFrom = to;
  };
  let at = html.indexOf('<');
  while (at !== -1 && at < html.length - 1) {
    const next = html.charCodeAt(at + 1);
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      at = html.indexOf('<', skipDeclaration(html, at));
      continue;
    }
    const closing = next === 0x2f; /* / */
    const nameStart = closing ? at + 2 : at + 1;
    if (!isAsciiLetter(html.charCodeAt(nameStart))) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    const nameEnd = endOfTagName(html, nameStart);
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    const tagEnd = endOfTag(html, nameEnd);
    if (tagEnd === -1) break; // an unterminated tag runs to the end: nothing after it is markup
    if (closing) {
      const pending = dropped.get(name) ?? 0;
      if (pending > 0) {
        dropped.set(name, pending - 1);
        drop(at, tagEnd);
      } else {
        closeElement(open, name);
      }
    } else if (RAW_TEXT.has(name)) {
      const close = indexOfEndTag(html, name, tagEnd);
      at = close === -1 ? -1 : html.indexOf('<', close + 2);
      continue;
    } else if (!VOID_ELEMENTS.has(name) && !OPTIONAL_END.has(name) && !ALWAYS_KEPT.has(name)) {
      if (open.length >= maxDepth) {
        dropped.set(name, (dropped.get(name) ?? 0) + 1);
        drop(at, tagEnd);
      } else {
        open.push(name);
      }
    }
    at = html.indexOf('<', tagEnd);
  }
  if (keptFrom === 0) return html;
  kept.push(html.slice(keptFrom));
  return kept.join('');
}

/** Cheap first look: a document with fewer tags than the cap cannot nest deeper. */
function mayNestDeeperThan(html: string, maxDepth: number): boolean {
  let tags = 0;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1)) {
    if (++tags > maxDepth) return true;
  }
  return false;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function endOfTagName(html: string, from: number): number {
  let at = from;
  while (at < html.length) {
    const code = html.charCodeAt(at);
    if (
      code === 0x3e ||
      code === 0x2f ||
      code === 0x20 ||
      code === 0x09 ||
      code === 0x0a ||
      code === 0x0c ||
      code === 0x0d
    )
      break;
    at++;
  }
  return at;
}

/** The index just past the tag's `>`, stepping over quoted attribute values; -1 if none. */
function endOfTag(html: string, from: number): number {
  let at = from;
  while (at < html.length) {
    const code = html.charCodeAt(at);
    if (code === 0x3e) return at + 1;
    if (code === 0x3d /* = */) {
      let value = at + 1;
      while (value < html.length && isSpace(html.charCodeAt(value))) value++;
      const quote = html.charCodeAt(value);
      if (quote === 0x22 || quote === 0x27) {
        const close = html.indexOf(quote === 0x22 ? '"' : "'", value + 1);
        if (close === -1) return -1;
        at = close + 1;
        continue;
      }
      at = value;
      continue;
    }
    at++;
  }
  return -1;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

/** Past a comment (`<!-- … -->`), doctype or other `<!…>` / `<?…>` declaration. */
function skipDeclaration(html: string, at: number): number {
  if (html.startsWith('<!--', at)) {
    const close = html.indexOf('-->', at + 4);
    return close === -1 ? html.length : close + 3;
  }
  const close = html.indexOf('>', at + 2);
  return close === -1 ? html.length : close + 1;
}

/** The `</name` that ends a raw-text element, matched ignoring case; -1 if it never ends. */
function indexOfEndTag(html: string, name: string, from: number): number {
  let at = html.indexOf('</', from);
  while (at !== -1) {
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name) return at;
    at = html.indexOf('</', at + 2);
  }
  return -1;
}

/** Pops the open element `name` and those above it, if it is near the top; else ignores the tag. */
function closeElement(open: string[], name: string): void {
  const lowest = Math.max(0, open.length - END_TAG_REACH);
  for (let i = open.length - 1; i >= lowest; i--) {
    if (open[i] === name) {
      open.length = i;
      return;
    }
  }
}
