// A realistic page of a fleet host: 20–60 KB, shaped like a real site's article page. A head
// full of meta tags (description, robots, Open Graph, Twitter cards), a canonical link,
// stylesheet and preload links, an inline stylesheet and scripts, JSON-LD; a body with an icon
// sprite, a header with menus, breadcrumbs, an article of long sections with a table of contents,
// share links, comments, an aside and a footer; HTML comments here and there; 20–60 links.
//
// The links a crawl follows are the page's `PageContent` links, exactly those of the small
// profile. Every other link stays within what the crawl already knows: fragments of the page
// (`#section-2`), pages the page links anyway (relative or absolute), `mailto:`, `tel:`,
// `javascript:`, and links to origins outside the fleet (`*.example`), which a crawl scoped to
// the fleet leaves alone. Both profiles therefore crawl the same set of pages.
//
// Everything comes from pools built once (realistic-pools.ts), picked by a PRNG seeded per page:
// the same bytes on every request, and under a tenth of a millisecond to render. Text from the pools
// is escaped (or is HTML) already; whatever else goes into the page is escaped here.

import { createRandom, escapeHtml, pick, type Random, randomInt } from '@politely/demo-web/internal';
import { type Html, html, joinHtml, toBuffer } from './html-pieces.js';
import type { Link, PageContent } from './page-content.js';
import { type Person, type RealisticPools, realisticPools } from './realistic-pools.js';

/** The page size the article is filled up to (at least a short article): pages land at 20–60 KB. */
const MIN_TARGET_BYTES = 16_000;
const MAX_TARGET_BYTES = 48_000;

const EXTERNAL_SITES = [
  'https://www.example.com',
  'https://news.example.org',
  'https://wiki.example.net',
  'https://blog.example',
  'https://docs.example.net',
  'https://video.example',
];
const SHARE_TARGETS = [
  ['https://social.example/intent/post?url=', 'Post'],
  ['https://friends.example/sharer.php?u=', 'Share'],
  ['https://work.example/share-offsite/?url=', 'Share at work'],
  ['https://boards.example/pin/create?url=', 'Pin'],
] as const;
const SOCIAL_PROFILES = [
  'https://social.example/@',
  'https://video.example/c/',
  'https://photos.example/',
  'https://code.example/',
];
const LEAD_INS = ['See also', 'More on this in', 'As reported by', 'Compare', 'Background:', 'Read more at'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** What one render needs besides the content: its pools, its PRNG, and the choices shared by several parts. */
interface Render {
  readonly content: PageContent;
  readonly origin: string;
  readonly canonical: string;
  readonly pools: RealisticPools;
  readonly random: Random;
  /** Public pages this page links anyway (navigation and content links): what extra internal links may repeat. */
  readonly known: readonly Link[];
  readonly author: Person;
  readonly published: Date;
  readonly description: string;
  readonly image: string;
  readonly domain: string;
  readonly sections: readonly string[];
  readonly comments: number;
}

/** The page's bytes. Everything but the article's sections first; they fill the page to its size. */
export function renderRealisticPage(content: PageContent, origin: string): Buffer {
  const r = planRender(content, origin);
  const head = renderHead(r);
  const top = renderTop(r);
  const articleTop = renderArticleTop(r);
  const articleEnd = html`\n</div><!-- .entry-content -->\n<footer class="entry-footer">${shareLinks(r)}</footer>\n</article><!-- #post -->`;
  const afterArticle = renderAfterArticle(r);
  const aside = renderAside(r);
  const footer = renderFooter(r);
  const tail = renderTail(r);
  const fixed = [head, top, articleTop, articleEnd, afterArticle, aside, footer, tail].reduce(
    (sum, part) => sum + part.size,
    0,
  );
  const sections = renderSections(r, randomInt(r.random, MIN_TARGET_BYTES, MAX_TARGET_BYTES) - fixed);
  return toBuffer(html`${head}
${top}
<main id="main" class="site-main">
${articleTop}${sections}${articleEnd}
${afterArticle}
</main><!-- #main -->
${aside}
${footer}
${tail}`);
}

function planRender(content: PageContent, origin: string): Render {
  const pools = realisticPools();
  const random = createRandom(content.seed);
  const known = uniqueLinks([...content.nav, ...content.links.filter(([href]) => !href.startsWith('/private/'))]);
  return {
    content,
    origin,
    canonical: origin + content.path,
    pools,
    random,
    known,
    author: pick(random, pools.people),
    published: new Date(
      Date.UTC(
        2024 + randomInt(random, 0, 2),
        randomInt(random, 0, 11),
        randomInt(random, 1, 28),
        randomInt(random, 6, 20),
        randomInt(random, 0, 59),
      ),
    ),
    description: pick(random, pools.snippets),
    image: `${origin}/assets/img/cover-${randomInt(random, 1, 400)}.jpg`,
    domain: `${content.siteName.toLowerCase().replace(/\s+/g, '-')}.example`,
    sections: Array.from({ length: randomInt(random, 3, 6) }, () => pick(random, pools.headings)),
    comments: randomInt(random, 0, 4),
  };
}

/** The links with their first href only. */
function uniqueLinks(links: readonly Link[]): Link[] {
  const byHref = new Map<string, Link>();
  for (const link of links) if (!byHref.has(link[0])) byHref.set(link[0], link);
  return [...byHref.values()];
}

// ---------------------------------------------------------------------------------------------
// <head>

function renderHead(r: Render): Html {
  const { content, random } = r;
  const title = escapeHtml(content.title);
  const description = r.description;
  const hash = () => randomInt(random, 0, 0xffffff).toString(16).padStart(6, '0');
  return html`<!DOCTYPE html>
<html lang="en-GB" class="no-js">
<head>
<meta charset="utf-8">
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>${title} &middot; ${escapeHtml(content.siteName)}</title>
<meta name="description" content="${description}">
<meta name="robots" content="${content.isPrivate ? 'noindex, follow' : 'index, follow, max-image-preview:large, max-snippet:-1, max-video-preview:-1'}">
<link rel="canonical" href="${r.canonical}">
${openGraph(r, title, description)}
<meta name="theme-color" content="#1f5f8b">
<meta name="generator" content="Fleetpress 6.${randomInt(random, 0, 9)}.${randomInt(random, 0, 9)}">
<link rel="preconnect" href="https://fonts.example-cdn.net" crossorigin>
<link rel="dns-prefetch" href="//stats.example-analytics.net">
<link rel="preload" href="/assets/fonts/inter-var.${hash()}.woff2" as="font" type="font/woff2" crossorigin>
<link rel="stylesheet" id="theme-css" href="/assets/css/theme.${hash()}.css" media="all">
<link rel="stylesheet" id="blocks-css" href="/assets/css/blocks.${hash()}.css" media="all">
<link rel="stylesheet" href="/assets/css/print.css" media="print">
<link rel="icon" href="/favicon.ico" sizes="any">
<link rel="icon" href="/assets/img/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/assets/img/apple-touch-icon.png">
<link rel="manifest" href="/site.webmanifest">
<link rel="alternate" type="application/rss+xml" title="${escapeHtml(content.siteName)} &raquo; Feed" href="/feed/">
<style id="critical-css">${pick(random, r.pools.stylesheets)}</style>
<script>document.documentElement.className=document.documentElement.className.replace("no-js","js");window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date);gtag("config","G-${hash().toUpperCase()}",{page_path:"${content.path}",anonymize_ip:!0,cookie_flags:"SameSite=None;Secure"});</script>
<script type="application/ld+json">${jsonLd(r)}</script>
<script src="/assets/js/app.${hash()}.js" defer></script>
<!-- This site is optimised with the Fleet SEO plugin v${randomInt(random, 10, 24)}.${randomInt(random, 0, 9)} -->
</head>`;
}

function openGraph(r: Render, title: string, description: string): string {
  const handle = `@${r.domain.split('.')[0] ?? 'fleet'}`;
  const minutes = Math.max(2, Math.round(r.sections.length * 1.5));
  return [
    '<meta property="og:locale" content="en_GB">',
    `<meta property="og:type" content="${r.content.path === '/' ? 'website' : 'article'}">`,
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="${description}">`,
    `<meta property="og:url" content="${r.canonical}">`,
    `<meta property="og:site_name" content="${escapeHtml(r.content.siteName)}">`,
    `<meta property="og:image" content="${r.image}">`,
    '<meta property="og:image:width" content="1200">',
    '<meta property="og:image:height" content="630">',
    '<meta property="og:image:type" content="image/jpeg">',
    `<meta property="article:published_time" content="${r.published.toISOString()}">`,
    `<meta property="article:modified_time" content="${new Date(r.published.getTime() + 86_400_000 * 3).toISOString()}">`,
    `<meta property="article:author" content="${r.author.name}">`,
    '<meta name="twitter:card" content="summary_large_image">',
    `<meta name="twitter:site" content="${handle}">`,
    `<meta name="twitter:creator" content="@${r.author.mailbox.replace('.', '_')}">`,
    `<meta name="twitter:title" content="${title}">`,
    `<meta name="twitter:description" content="${description}">`,
    `<meta name="twitter:image" content="${r.image}">`,
    '<meta name="twitter:label1" content="Written by">',
    `<meta name="twitter:data1" content="${r.author.name}">`,
    '<meta name="twitter:label2" content="Est. reading time">',
    `<meta name="twitter:data2" content="${minutes} minutes">`,
  ].join('\n');
}

/**
 * Schema.org JSON-LD (an @graph of Article, WebPage, ImageObject, BreadcrumbList, Organization),
 * as SEO plugins write it. Written as a template (JSON.stringify of the object tree cost more
 * than the rest of the head); every string goes through `json`.
 */
function jsonLd(r: Render): string {
  const { content, canonical, origin, image } = r;
  const page = json(canonical);
  const modified = new Date(r.published.getTime() + 86_400_000 * 3).toISOString();
  const sameAs = SOCIAL_PROFILES.map((profile) => json(`${profile}${r.domain.split('.')[0] ?? ''}`)).join(',');
  return (
    `{"@context":"https://schema.org","@graph":[` +
    `{"@type":"Article","@id":${json(`${canonical}#article`)},"isPartOf":{"@id":${page}},` +
    `"author":{"name":${json(r.author.name)},"@id":${json(`${origin}/#/schema/person/${r.author.mailbox}`)}},` +
    `"headline":${json(content.title)},"datePublished":"${r.published.toISOString()}","dateModified":"${modified}",` +
    `"mainEntityOfPage":{"@id":${page}},"wordCount":${900 + (content.seed % 2400)},"commentCount":${r.comments},` +
    `"publisher":{"@id":${json(`${origin}/#organization`)}},"image":{"@id":${json(`${canonical}#primaryimage`)}},` +
    `"thumbnailUrl":${json(image)},"articleSection":[${r.sections.map(json).join(',')}],"inLanguage":"en-GB"},` +
    `{"@type":"WebPage","@id":${page},"url":${page},"name":${json(`${content.title} · ${content.siteName}`)},` +
    `"isPartOf":{"@id":${json(`${origin}/#website`)}},"primaryImageOfPage":{"@id":${json(`${canonical}#primaryimage`)}},` +
    `"description":${json(r.description)},"breadcrumb":{"@id":${json(`${canonical}#breadcrumb`)}},"inLanguage":"en-GB",` +
    `"potentialAction":[{"@type":"ReadAction","target":[${page}]}]},` +
    `{"@type":"ImageObject","inLanguage":"en-GB","@id":${json(`${canonical}#primaryimage`)},"url":${json(image)},"contentUrl":${json(image)},"width":1200,"height":630},` +
    `{"@type":"BreadcrumbList","@id":${json(`${canonical}#breadcrumb`)},"itemListElement":[` +
    `{"@type":"ListItem","position":1,"name":"Home","item":${json(`${origin}/`)}},{"@type":"ListItem","position":2,"name":${json(content.title)}}]},` +
    `{"@type":"Organization","@id":${json(`${origin}/#organization`)},"name":${json(content.siteName)},"url":${json(`${origin}/`)},` +
    `"logo":{"@type":"ImageObject","url":${json(`${origin}/assets/img/logo.png`)},"width":512,"height":512},"sameAs":[${sameAs}]}]}`
  );
}

/** A JSON string literal that cannot end the <script> element it sits in (`<` escaped). */
function json(text: string): string {
  return JSON.stringify(text).replace(/</g, '\\u003c');
}

// ---------------------------------------------------------------------------------------------
// The top of <body>: sprite, skip link, header with menus, breadcrumbs.

function icon(id: string): string {
  return `<svg class="icon icon-${id}" aria-hidden="true" focusable="false"><use href="#icon-${id}"></use></svg>`;
}

function renderTop(r: Render): Html {
  const { content, random } = r;
  const tag = randomInt(random, 0x100000, 0xffffff).toString(36).toUpperCase();
  return html`<body id="top" class="${content.path === '/' ? 'home blog' : 'post-template-default single single-post'} wp-embed-responsive has-sidebar">
<!-- Tag Manager (noscript) -->
<noscript><iframe src="https://tags.example-analytics.net/ns.html?id=GTM-${tag}" height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>
<!-- End Tag Manager (noscript) -->
${r.pools.sprite}
<div id="page" class="site">
<a class="skip-link screen-reader-text" href="#main">Skip to content</a>
<header id="masthead" class="site-header" role="banner">
<div class="site-branding"><a class="brand" href="/" rel="home">${escapeHtml(content.siteName)}</a><p class="site-description">${pick(random, r.pools.snippets)}</p></div>
${mainMenu(r)}
<form role="search" method="get" class="search-form" action="/"><label><span class="screen-reader-text">Search for:</span><input type="search" class="search-field" placeholder="Search &hellip;" value="" name="s"></label><button type="submit" class="search-submit">${icon('search')}<span class="screen-reader-text">Search</span></button></form>
</header><!-- #masthead -->
<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li aria-current="page"><a href="${content.path}">${escapeHtml(content.title)}</a></li></ol></nav>`;
}

/** The header navigation: the page's nav links, the first with a sub-menu of fragments of pages it links anyway. */
function mainMenu(r: Render): string {
  const { content, random } = r;
  const subMenu = Array.from({ length: randomInt(random, 2, 4) }, () => {
    const [href, text] = pick(random, r.known);
    const section = pick(random, ['latest', 'about', 'archive', 'popular', 'contact']);
    return `<li class="menu-item"><a href="${escapeHtml(href)}#${section}">${escapeHtml(text)}: ${section}</a></li>`;
  }).join('');
  const items = content.nav.map(([href, text], i) => {
    const sub =
      i === 0
        ? `<button class="sub-menu-toggle" aria-expanded="false">${icon('chevron-down')}</button><ul class="sub-menu">${subMenu}</ul>`
        : '';
    return `<li class="menu-item${i === 0 ? ' menu-item-has-children' : ''}"><a href="${escapeHtml(href)}">${escapeHtml(text)}</a>${sub}</li>`;
  });
  return `<nav id="site-navigation" class="main-navigation" aria-label="Main">
<button class="menu-toggle" aria-controls="primary-menu" aria-expanded="false">${icon('menu')}<span class="screen-reader-text">Menu</span></button>
<ul id="primary-menu" class="menu">${items.join('')}</ul>
</nav>`;
}

// ---------------------------------------------------------------------------------------------
// <main>: the article, the page's own links, comments.

/** The article up to its sections: header, cover image, table of contents. */
function renderArticleTop(r: Render): Html {
  const { content, random } = r;
  const date = r.published;
  const toc = r.sections.map((heading, k) => `<li><a href="#section-${k + 1}">${heading}</a></li>`).join('\n');
  const caption = pick(random, r.pools.snippets);
  const cover = r.image.replace(/\.jpg$/, '');
  return html`<article id="post-${content.seed % 100_000}" class="post type-post status-publish format-standard has-post-thumbnail hentry">
<header class="entry-header">
<h1 class="entry-title">${escapeHtml(content.title)}</h1>
<div class="entry-meta"><span class="byline">By <a class="author" href="mailto:${r.author.mailbox}@${r.domain}">${r.author.name}</a></span> &middot; <time class="entry-date published" datetime="${date.toISOString()}">${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}</time> &middot; <a href="#comments">${r.comments} comments</a></div>
</header><!-- .entry-header -->
<figure class="post-thumbnail"><img src="${cover}.jpg" srcset="${cover}-640.jpg 640w, ${cover}-1280.jpg 1280w" sizes="(max-width: 768px) 100vw, 768px" width="1280" height="720" alt="${caption}" decoding="async" fetchpriority="high"><figcaption>${caption}</figcaption></figure>
<nav class="toc" aria-label="Contents"><h2 class="toc__title">Contents</h2><ol>
${toc}
</ol></nav>
<div class="entry-content">
`;
}

/** After the article: the page's own links (the link graph's, as on a small page), the next site, comments. */
function renderAfterArticle(r: Render): Html {
  const { content } = r;
  const items = content.links.map(([href, text]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`);
  const readOn = items.length === 0 ? '' : `<h2>Read on</h2>\n<ul class="links">\n${items.join('\n')}\n</ul>\n`;
  const next =
    content.nextSite === undefined
      ? ''
      : `<p>Next site: <a href="${escapeHtml(content.nextSite)}">visit our neighbour</a></p>\n`;
  return html`${readOn}${next}${renderComments(r)}`;
}

/**
 * The article's sections, filled with blocks until `budget` bytes: the page's size is set here.
 * Some paragraphs, spread over the article, end with a link (outside the fleet, or to a page
 * linked anyway).
 */
function renderSections(r: Render, budget: number): Html {
  const { random } = r;
  const inText = inTextLinks(r);
  const blocks: Html[] = [];
  let used = 0;
  while (used < budget || blocks.length < Math.max(r.sections.length * 2, inText.length)) {
    const block = contentBlock(r);
    blocks.push(block);
    used += block.size + 1;
  }
  inText.forEach((link, i) => {
    const at = Math.floor(((i + 0.5) * blocks.length) / inText.length);
    blocks[at] = html`<p>${pick(random, r.pools.paragraphs)} ${pick(random, LEAD_INS)} ${link}.</p>`;
  });
  // Section s takes its share of the blocks: at least two each, as there are twice as many.
  const share = (s: number): number => Math.floor((s * blocks.length) / r.sections.length);
  const sections = r.sections.map((heading, s) => {
    const body = joinHtml(blocks.slice(share(s), share(s + 1)), '\n');
    return html`<!-- wp:heading -->\n<section id="section-${s + 1}"><h2 class="wp-block-heading">${heading}</h2>\n${body}\n</section>`;
  });
  return joinHtml(sections, '\n');
}

/** A paragraph mostly; now and then a quote, a list or a code block, as articles have. */
function contentBlock(r: Render): Html {
  const { random, pools } = r;
  switch (randomInt(random, 0, 11)) {
    case 0:
      return html`<blockquote class="wp-block-quote"><p>${pick(random, pools.paragraphs)}</p><cite>${pick(random, pools.people).name}</cite></blockquote>`;
    case 1: {
      const items = Array.from({ length: randomInt(random, 3, 6) }, () => `<li>${pick(random, pools.snippets)}</li>`);
      return html`<ul class="wp-block-list">${items.join('')}</ul>`;
    }
    case 2:
      return html`<pre class="wp-block-code"><code>${pick(random, pools.codeSamples)}</code></pre>`;
    default:
      return html`<p>${pick(random, pools.paragraphs)}</p>`;
  }
}

/** 2–5 links outside the fleet and 1–3 to pages this page links anyway (absolute, as editors paste them). */
function inTextLinks(r: Render): string[] {
  const { random, pools } = r;
  const external = Array.from({ length: randomInt(random, 2, 5) }, () => {
    const site = pick(random, EXTERNAL_SITES);
    const path = `/${encodeURI(pick(random, pools.headings).toLowerCase().split(' ').slice(0, 3).join('-'))}`;
    const rel = randomInt(random, 0, 2) === 0 ? ' rel="nofollow noopener" target="_blank"' : '';
    return `<a href="${escapeHtml(site + path)}"${rel}>${pick(random, pools.headings)}</a>`;
  });
  const internal = Array.from({ length: randomInt(random, 1, 3) }, () => {
    const [href, text] = pick(random, r.known);
    return `<a href="${escapeHtml(r.origin + href)}">${escapeHtml(text)}</a>`;
  });
  return [...external, ...internal];
}

function shareLinks(r: Render): string {
  const url = encodeURIComponent(r.canonical);
  const title = encodeURIComponent(r.content.title);
  const targets = SHARE_TARGETS.slice(0, randomInt(r.random, 3, 4));
  const links = targets.map(
    ([prefix, label]) =>
      `<a class="share__link" href="${prefix}${url}&amp;text=${title}" target="_blank" rel="noopener noreferrer">${icon('share')}${label}</a>`,
  );
  links.push(`<a class="share__link" href="mailto:?subject=${title}&amp;body=${url}">${icon('mail')}Email</a>`);
  return `<div class="share"><span class="share__label">Share this:</span> ${links.join(' ')}</div>`;
}

function renderComments(r: Render): Html {
  const { random, pools } = r;
  const comments = Array.from({ length: r.comments }, () => {
    const id = randomInt(random, 1000, 99_999);
    const who = pick(random, pools.people).name;
    return html`<li id="comment-${id}" class="comment"><article class="comment-body"><footer class="comment-meta"><b class="fn">${who}</b> <time datetime="${r.published.toISOString()}">${randomInt(random, 1, 30)} days later</time></footer>
<div class="comment-content"><p>${pick(random, pools.paragraphs)}</p></div>
<div class="reply"><a rel="nofollow" class="comment-reply-link" href="#comment-${id}" aria-label="Reply to ${who}">Reply</a></div></article></li>`;
  });
  const list =
    comments.length === 0
      ? '<p class="no-comments">No comments yet.</p>'
      : html`<ol class="comment-list">\n${joinHtml(comments, '\n')}\n</ol>`;
  return html`<section id="comments" class="comments-area"><h2 class="comments-title">${r.comments} comments</h2>\n${list}\n</section><!-- #comments -->`;
}

// ---------------------------------------------------------------------------------------------
// Aside, footer and the scripts at the end of <body>.

function renderAside(r: Render): Html {
  const { random, pools } = r;
  const popular = Array.from({ length: randomInt(random, 3, 5) }, () => {
    const [href, text] = pick(random, r.known);
    return `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`;
  });
  const elsewhere = Array.from({ length: randomInt(random, 2, 3) }, () => {
    const site = pick(random, EXTERNAL_SITES);
    return `<li><a href="${site}/" rel="noopener">${site.replace('https://', '')}</a></li>`;
  });
  const token = randomInt(random, 0, 0x7fffffff).toString(36);
  return html`<aside id="secondary" class="sidebar widget-area" aria-label="Sidebar">
<section class="widget widget_popular"><h2 class="widget-title">Popular</h2><ul>${popular.join('')}</ul></section>
<section class="widget widget_text"><h2 class="widget-title">About this site</h2><p>${pick(random, pools.paragraphs)}</p></section>
<section class="widget widget_links"><h2 class="widget-title">Elsewhere</h2><ul>${elsewhere.join('')}</ul></section>
<section class="widget widget_newsletter"><h2 class="widget-title">Newsletter</h2><form action="/subscribe" method="post" class="newsletter"><input type="email" name="email" required placeholder="you@example.com" aria-label="E-mail address"><input type="hidden" name="_token" value="${token}"><button type="submit" class="btn btn--dark">Subscribe</button></form></section>
</aside><!-- #secondary -->`;
}

function renderFooter(r: Render): Html {
  const { content, random } = r;
  const handle = r.domain.split('.')[0] ?? '';
  const social = SOCIAL_PROFILES.slice(0, 3).map(
    (profile) =>
      `<li><a href="${profile}${handle}" rel="me noopener" target="_blank">${profile.replace('https://', '').split('/')[0] ?? ''}</a></li>`,
  );
  const phone = `+44 20 7946 ${String(randomInt(random, 0, 9999)).padStart(4, '0')}`;
  const home = content.footerHome ? `<p>${content.position ?? ''} <a href="/">Back to the start</a></p>\n` : '';
  return html`<footer id="colophon" class="site-footer">
<div class="footer-widgets"><div class="footer-col"><h2>Contact</h2><address>${escapeHtml(content.siteName)}<br>${randomInt(random, 1, 200)} ${pick(random, r.pools.headings)} Street<br><a href="mailto:hello@${r.domain}">hello@${r.domain}</a><br><a href="tel:${phone.replace(/ /g, '')}">${phone}</a></address></div>
<div class="footer-col"><h2>Follow us</h2><ul class="social">${social.join('')}</ul></div></div>
${home}<p class="site-info">&copy; 2026 ${escapeHtml(content.siteName)}. Part of the politely benchmark fleet, served on loopback. <a href="#top">Back to top</a> &middot; <a href="javascript:void(0)" class="js-cookie-settings">Cookie settings</a></p>
</footer><!-- #colophon -->
</div><!-- #page -->`;
}

function renderTail(r: Render): Html {
  const { random } = r;
  return html`<script id="app-js">${pick(random, r.pools.scripts)}</script>
<script>window.addEventListener("load",function(){var e=document.querySelectorAll("img[loading=lazy]");e.length&&"IntersectionObserver"in window||e.forEach(function(e){e.src=e.dataset.src||e.src})});</script>
<!-- Page generated in 0.0${randomInt(random, 10, 99)} seconds. Served from cache. -->
</body>
</html>
`;
}
