// The relative links of a Markdown file, and the anchors its headings get, as GitHub renders them.

/** A link as written: `[text](target)`, with the line it is on. */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/**
 * The text outside fenced code blocks (blank lines in their place), and with `blankSpans` code
 * spans blanked too (same length).
 */
function proseOf(text: string, blankSpans: boolean): string {
  let fence: string | undefined;
  const lines = text.split('\n').map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined && open !== null) {
      fence = open[1];
      return '';
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined;
      return '';
    }
    return blankSpans ? line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length)) : line;
  });
  return lines.join('\n');
}

/** Inline links and images, `[text](target)` and `![alt](target "title")`, outside code. */
export function linksOf(text: string): MarkdownLink[] {
  const prose = proseOf(text, true);
  const links: MarkdownLink[] = [];
  for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const line = prose.slice(0, match.index).split('\n').length;
    links.push({ target: match[1] ?? '', line });
  }
  return links;
}

/** Whether a link leaves the repository (a scheme, or a protocol-relative URL): not checked. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link: its text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[`*~]/g, ''); // code and emphasis marks (GitHub keeps underscores)
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor the file's headings make (`name`, then `name-1`, `name-2` for repeats). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOf(text, false).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const slug = slugOf(heading[1] ?? '');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? '');
  return anchors;
}
