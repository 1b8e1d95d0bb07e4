// HTML for the pages of the local web: one plain layout (header nav, main, footer) like a real
// site's, so crawlers meet navigation links, repeated footers and real-looking markup.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `<a href="…">text</a>`, escaped; `rel` adds e.g. `nofollow`. */
export function a(href: string, text: string, rel?: string): string {
  const relAttr = rel === undefined ? '' : ` rel="${escapeHtml(rel)}"`;
  return `<a href="${escapeHtml(href)}"${relAttr}>${escapeHtml(text)}</a>`;
}

/** A `<ul>` of links. */
export function linkList(links: readonly (readonly [href: string, text: string])[], className = 'links'): string {
  const items = links.map(([href, text]) => `<li>${a(href, text)}</li>`).join('\n');
  return `<ul class="${className}">\n${items}\n</ul>`;
}

export interface PageParts {
  readonly siteName: string;
  readonly title: string;
  /** Header navigation: [href, text] pairs. */
  readonly nav: readonly (readonly [href: string, text: string])[];
  /** The page's own content, as HTML. */
  readonly main: string;
  /** Footer HTML; a copyright line is added. */
  readonly footer?: string;
  /** Extra HTML inside `<head>` (meta robots, canonical, feed links). */
  readonly head?: string;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:0;line-height:1.5;color:#222}' +
  '.site-header,.site-footer{background:#f4f4f6;padding:.75rem 1.5rem}' +
  '.site-header nav ul{display:inline;list-style:none;margin:0;padding:0}' +
  '.site-header nav li{display:inline;margin-left:1rem}main{padding:1rem 1.5rem;max-width:48rem}' +
  '.brand{font-weight:700;text-decoration:none;color:#333}';

export function renderPage(parts: PageParts): string {
  const nav = parts.nav.map(([href, text]) => `<li>${a(href, text)}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)} · ${escapeHtml(parts.siteName)}</title>
${parts.head ?? ''}
<style>${STYLE}</style>
</head>
<body>
<header class="site-header">${a('/', parts.siteName).replace('<a ', '<a class="brand" ')}
<nav aria-label="Main"><ul>${nav}</ul></nav>
</header>
<main>
<h1>${escapeHtml(parts.title)}</h1>
${parts.main}
</main>
<footer class="site-footer">
${parts.footer ?? ''}
<p class="copyright">© 2026 ${escapeHtml(parts.siteName)}. Part of the politely demo web, served on loopback.</p>
</footer>
</body>
</html>
`;
}
