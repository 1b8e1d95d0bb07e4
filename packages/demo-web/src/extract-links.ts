// Reading links back out of the pages this package renders itself, to compute the manifest from
// exactly what is served. Not a general HTML parser: it only has to understand `html.ts`.

export interface PageLinks {
  /** Absolute URLs, fragments dropped, of links a crawler that honours nofollow follows. */
  readonly followed: readonly string[];
  /** Absolute URLs of `rel=nofollow` links, and of every link when the page says `nofollow`. */
  readonly nofollow: readonly string[];
}

const ANCHOR = /<a\s([^>]*)>/gi;
const HREF = /\bhref="([^"]*)"/i;
const REL = /\brel="([^"]*)"/i;
const META_ROBOTS = /<meta\s+name="robots"\s+content="([^"]*)"/i;

export function extractLinks(html: string, pageUrl: string): PageLinks {
  const pageNofollow = /\b(?:nofollow|none)\b/i.test(META_ROBOTS.exec(html)?.[1] ?? '');
  const followed: string[] = [];
  const nofollow: string[] = [];
  for (const match of html.matchAll(ANCHOR)) {
    const attrs = match[1] ?? '';
    const href = HREF.exec(attrs)?.[1];
    if (href === undefined) continue;
    const url = resolveHttpUrl(unescapeHtml(href), pageUrl);
    if (url === null) continue;
    const isNofollow = pageNofollow || /\bnofollow\b/i.test(REL.exec(attrs)?.[1] ?? '');
    (isNofollow ? nofollow : followed).push(url);
  }
  return { followed, nofollow };
}

/** `href` resolved against `base`, without its fragment; `null` unless http(s). */
export function resolveHttpUrl(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href;
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
