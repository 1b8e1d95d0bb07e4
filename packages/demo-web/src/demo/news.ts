// news: a blog with dated articles, tag pages, an archive, RSS and Atom feeds (which the sitemaps
// protocol accepts as sitemaps) and a plain-text sitemap; robots.txt with only a `*` group, so
// PolitelyDemo falls back to it; nofollow links, a meta-robots nofollow page, a broken link.

import type { HostSpec } from '../host-spec.js';
import { a, escapeHtml, linkList, renderPage } from '../html.js';
import { htmlResource, type Resource, textResource } from '../resource.js';
import { atomXml, type Feed, rssXml, textSitemap } from '../sitemap-files.js';
import { DEMO_TAGS, type DemoArticle, demoArticles } from './articles.js';
import { demoProducts } from './catalog.js';
import { type DemoOrigins, demoFooter } from './demo-hosts.js';

const SITE = 'The Loopback Gazette';
const PER_PAGE = 8;

export function newsRobotsTxt(origin: string): string {
  return `# ${SITE}
User-agent: *
Disallow: /drafts/
Disallow: /*/print$
Disallow: /search
Crawl-delay: 0.25

# The archive service may take everything, drafts excepted.
User-agent: NewsArchiver
Disallow: /drafts/

Sitemap: ${origin}/sitemap.txt
Sitemap: ${origin}/feed.xml
`;
}

const NAV = [
  ['/', 'Latest'],
  ['/archive?page=2', 'Archive'],
  ['/about', 'About'],
  ['/feed.xml', 'RSS'],
] as const;

export function buildNews(origins: DemoOrigins): HostSpec {
  const origin = origins.news;
  const articles = [...demoArticles()].reverse(); // newest first
  const resources = new Map<string, Resource>();
  const head = `<link rel="alternate" type="application/rss+xml" title="${SITE}" href="/feed.xml">`;
  const page = (title: string, main: string, extraHead = ''): Resource =>
    htmlResource(
      renderPage({ siteName: SITE, title, nav: NAV, main, head: head + extraHead, footer: demoFooter(origins) }),
    );
  const pages = Math.ceil(articles.length / PER_PAGE);
  for (let n = 1; n <= pages; n++) {
    const listed = articles.slice((n - 1) * PER_PAGE, n * PER_PAGE);
    const title = n === 1 ? 'Latest news' : `Archive, page ${n}`;
    resources.set(archivePath(n), page(title, listHtml(listed, n, pages)));
  }
  for (const article of articles) {
    const canonical = `<link rel="canonical" href="${origin}${article.path}">`;
    resources.set(article.path, page(article.title, articleHtml(article, origins), canonical));
    const printable = article.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
    resources.set(`${article.path}/print`, page(`${article.title} (print)`, printable));
    resources.set(`${article.path}/comments`, page(`Comments on ${article.title}`, '<p>No comments yet.</p>'));
  }
  for (const tag of DEMO_TAGS) {
    const tagged = articles.filter((article) => article.tags.includes(tag));
    resources.set(`/tags/${tag}`, page(`Tagged ${tag}`, linkList(tagged.map((t) => [t.path, t.title] as const))));
  }
  addAbout(resources, page);
  addFeeds(resources, origin, articles);
  return {
    name: 'news',
    description:
      'A blog: articles, tags, a paged archive, RSS and Atom feeds and a text sitemap; only a * group ' +
      '(PolitelyDemo falls back to it) with Disallow: /*/print$; nofollow links, a meta-robots nofollow page, a 404 link.',
    robotsStatus: 200,
    robotsTxt: newsRobotsTxt(origin),
    resources,
    resolve: (path) => (path.startsWith('/search') ? page('Search', '<p>No results.</p>') : undefined),
    sitemapFiles: [`${origin}/sitemap.txt`, `${origin}/feed.xml`, `${origin}/atom.xml`],
    sitemapLocs: sitemapPaths(articles).map((path) => origin + path),
  };
}

function archivePath(page: number): string {
  return page === 1 ? '/' : `/archive?page=${page}`;
}

function dateOf(article: DemoArticle): string {
  return `<time datetime="${article.published}">${article.published.slice(0, 10)}</time>`;
}

function listHtml(listed: readonly DemoArticle[], n: number, pages: number): string {
  const items = listed.map((article) => `<li class="teaser">${a(article.path, article.title)} ${dateOf(article)}</li>`);
  const pager = Array.from({ length: pages }, (_, i) =>
    i + 1 === n ? `<span>${n}</span>` : a(archivePath(i + 1), String(i + 1)),
  );
  return `<ul class="articles">\n${items.join('\n')}\n</ul>
<nav class="pager">Pages: ${pager.join(' ')}</nav>
<h2>Topics</h2>
${linkList(DEMO_TAGS.map((tag) => [`/tags/${tag}`, tag] as const))}
<p>${a('/search?q=crawl-delay', 'Search for “crawl-delay”')} · ${a('/atom.xml', 'Atom feed')}</p>`;
}

/** Links from an article to the other hosts: what each article is there to lead a crawler to. */
function extraLinks(article: DemoArticle, origins: DemoOrigins): string[] {
  const product = demoProducts().find((p) => p.slug === article.reviews);
  const oldProduct = demoProducts()[2];
  const links: Partial<Record<number, string>> = {
    2: a(`${origins.docs}/guide/crawl-delay`, 'The crawl-delay guide'),
    5: a(`${origins.status}/incidents/2026-10-09`, 'The incident report on the status page'),
    8: a(`${origins.events}/calendar/2026/11`, 'The events calendar (mind the trap)'),
    9: a('/articles/the-story-we-pulled', 'An article we have since removed'),
    12: a(`${origins.legacy}/chain/start`, 'Follow the redirect chain'),
    16: `${a('/feed.xml', 'Our RSS feed')} and ${a('/atom.xml', 'our Atom feed')}`,
    19:
      oldProduct === undefined
        ? undefined
        : a(`${origins.legacy}/old-products/${oldProduct.slug}`, 'An old product link'),
    23: a(`${origins.docs}/`, 'The documentation'),
  };
  const extra = links[article.number];
  return [
    ...(product === undefined ? [] : [`Buy it at the shop: ${a(origins.shop + product.path, product.name)}`]),
    ...(extra === undefined ? [] : [extra]),
  ];
}

function articleHtml(article: DemoArticle, origins: DemoOrigins): string {
  const all = demoArticles();
  const previous = all[article.number - 2];
  const next = all[article.number];
  const related = [previous, next].flatMap((r) => (r === undefined ? [] : [[r.path, r.title] as const]));
  return `<article>
<p class="byline">By <span class="author">${escapeHtml(article.author)}</span>, ${dateOf(article)}</p>
${article.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}
${extraLinks(article, origins)
  .map((html) => `<p>${html}</p>`)
  .join('\n')}
<p class="tags">Tags: ${article.tags.map((tag) => a(`/tags/${tag}`, tag)).join(', ')}</p>
<p>${a(`${article.path}/print`, 'Print version')} · ${a(`${article.path}/comments`, 'Comments', 'nofollow')}</p>
</article>
<h2>More stories</h2>
${linkList(related)}`;
}

function addAbout(
  resources: Map<string, Resource>,
  page: (title: string, main: string, head?: string) => Resource,
): void {
  resources.set(
    '/about',
    page(
      'About the Gazette',
      `<p>News about polite crawling, published every other day.</p>
${linkList([
  ['/about/legal', 'Legal notice'],
  ['/drafts/spring-preview', 'Spring preview (staff only)'],
])}`,
    ),
  );
  resources.set(
    '/about/legal',
    page(
      'Legal notice',
      `<p>Imprint and terms. ${a('/about/legal/terms-2019', 'The 2019 terms')}</p>`,
      '<meta name="robots" content="noindex, nofollow">',
    ),
  );
  resources.set('/about/legal/terms-2019', page('Terms of 2019', '<p>Superseded.</p>'));
  resources.set('/drafts/spring-preview', page('Spring preview', '<p>Not for the public yet.</p>'));
}

function sitemapPaths(articles: readonly DemoArticle[]): string[] {
  return ['/', '/about', ...articles.map((article) => article.path), ...DEMO_TAGS.map((tag) => `/tags/${tag}`)];
}

function addFeeds(resources: Map<string, Resource>, origin: string, articles: readonly DemoArticle[]): void {
  const feed = (self: string, count: number): Feed => ({
    title: SITE,
    link: `${origin}/`,
    self: origin + self,
    description: 'News about polite crawling',
    items: articles.slice(0, count).map((article) => ({
      title: article.title,
      link: origin + article.path,
      published: article.published,
      summary: article.paragraphs[0] ?? '',
    })),
  });
  resources.set(
    '/feed.xml',
    textResource(rssXml(feed('/feed.xml', articles.length)), 'application/rss+xml; charset=utf-8'),
  );
  resources.set('/atom.xml', textResource(atomXml(feed('/atom.xml', 10)), 'application/atom+xml; charset=utf-8'));
  const lines = textSitemap(sitemapPaths(articles).map((path) => origin + path));
  resources.set('/sitemap.txt', textResource(lines, 'text/plain; charset=utf-8'));
}
