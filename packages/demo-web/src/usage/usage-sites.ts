// The usage web's five sites, one per way of stating usage preferences (AI training, AI input,
// search, text and data mining), each page declared with what it serves and the verdicts that
// follow (usage-truth.ts):
// - hub: the entry page; its robots.txt allows everything by Content-Signal; it links every page.
// - managed: a Cloudflare-style managed robots.txt (the Content Signals comment block,
//   `Content-signal: search=yes, ai-train=no` in the `*` group, AI crawlers disallowed by name).
// - scoped: path-scoped `Content-Usage` rules in robots.txt (draft-ietf-aipref-attach-05 §3).
// - headers: the `Content-Usage` response header (RFC 9651 dictionary) and `X-Robots-Tag: noai`.
// - tdmrep: W3C TDMRep: /.well-known/tdmrep.json, `tdm-reservation` headers and meta tags, and
//   `<meta name="robots" content="noai">`.

import type { HostSpec } from '../host-spec.js';
import { a, escapeHtml, linkList, renderPage } from '../html.js';
import { htmlResource, type Resource, textResource } from '../resource.js';
import {
  pageTruth,
  USAGE_HOST_NAMES,
  type UsageHostName,
  type UsageOrigins,
  type UsagePageDeclaration,
  type UsagePageTruth,
} from './usage-truth.js';

/** A built site: what it serves, and the truth about each of its pages. */
export interface UsageSite {
  readonly spec: HostSpec;
  readonly pages: readonly UsagePageTruth[];
  /** `/.well-known/tdmrep.json` as served, when the site has one. */
  readonly tdmrepJson?: string;
}

/** The path of the TDMRep file on an origin server (TDMRep, "TDM File on the Origin Server"). */
export const TDMREP_PATH = '/.well-known/tdmrep.json';

const SITE_NAMES: Readonly<Record<UsageHostName, string>> = {
  hub: 'Usage preferences hub',
  managed: 'Managed Photo Journal',
  scoped: 'Scoped Research Lab',
  headers: 'Header Gazette',
  tdmrep: 'TDMRep Library',
};

const BLURBS: Readonly<Record<UsageHostName, string>> = {
  hub: 'this directory (robots.txt allows every use by Content-Signal)',
  managed:
    'a Cloudflare-style managed robots.txt: Content-Signal search=yes, ai-train=no; AI crawlers disallowed by name',
  scoped:
    'path-scoped Content-Usage rules in robots.txt: /research/ reserved for AI training and AI use, /public/ allowing training',
  headers: 'the Content-Usage response header on some pages, X-Robots-Tag: noai or noimageai on others',
  tdmrep: 'TDMRep: /.well-known/tdmrep.json, tdm-reservation headers and meta tags, meta robots noai',
};

interface SiteDefinition {
  readonly host: UsageHostName;
  readonly description: string;
  readonly robotsTxt: string;
  readonly pages: readonly UsagePageDeclaration[];
  /** Resources that are not pages of the manifest (policy documents, tdmrep.json). */
  readonly extra?: ReadonlyMap<string, Resource>;
  readonly tdmrepJson?: string;
}

function metaHtml(page: UsagePageDeclaration): string {
  return (page.meta ?? [])
    .map((tag) => `<meta name="${escapeHtml(tag.name)}" content="${escapeHtml(tag.content)}">`)
    .join('\n');
}

function footer(origins: UsageOrigins, self: UsageHostName): string {
  const others = USAGE_HOST_NAMES.filter((name) => name !== self).map((name) =>
    a(`${origins[name]}/`, SITE_NAMES[name]),
  );
  return `<p>Other sites on the usage web: ${others.join(' · ')}.</p>`;
}

function buildSite(definition: SiteDefinition, origins: UsageOrigins): UsageSite {
  const origin = origins[definition.host];
  const siteName = SITE_NAMES[definition.host];
  const resources = new Map<string, Resource>(definition.extra ?? []);
  for (const page of definition.pages) {
    const html = renderPage({
      siteName,
      title: page.title,
      nav: [
        ['/', 'Home'],
        [`${origins.hub}/`, 'All sites'],
      ],
      main: `${page.main}\n<p class="usage-note">${escapeHtml(page.note)}</p>`,
      footer: footer(origins, definition.host),
      head: metaHtml(page),
    });
    const resource = htmlResource(html);
    resources.set(page.path, { ...resource, headers: { ...resource.headers, ...(page.headers ?? {}) } });
  }
  return {
    spec: {
      name: definition.host,
      description: definition.description,
      robotsStatus: 200,
      robotsTxt: definition.robotsTxt,
      resources,
    },
    pages: definition.pages.map((page) => pageTruth(definition.host, origin, page)),
    ...(definition.tdmrepJson === undefined ? {} : { tdmrepJson: definition.tdmrepJson }),
  };
}

/** `<ul>` of the given pages, linked by path. */
function pageList(pages: readonly UsagePageDeclaration[]): string {
  return linkList(
    pages.map((page) => [page.path, page.title] as const),
    'pages',
  );
}

// ----- hub ---------------------------------------------------------------------------------------

const HUB_ROBOTS_TXT = `# The usage web's directory: every use is welcome here (Content Signals).
User-agent: *
Content-Signal: search=yes, ai-input=yes, ai-train=yes
Allow: /
Crawl-delay: 0.2
`;

const HUB_VERDICTS = {
  allowed: {
    search: ['robots-content-signal'],
    'ai-train': ['robots-content-signal'],
    'ai-input': ['robots-content-signal'],
    'ai-train-images': ['robots-content-signal'],
  },
} as const;

function buildHub(origins: UsageOrigins, sites: readonly UsageSite[]): UsageSite {
  const sections = sites.map((site) => {
    const name = site.spec.name as UsageHostName;
    const items = site.pages.map((page) => `<li>${a(page.url, page.path)}: ${escapeHtml(page.note)}</li>`).join('\n');
    return `<section class="site" data-host="${escapeHtml(name)}">\n<h2>${a(`${origins[name]}/`, SITE_NAMES[name])}</h2>\n<p>${escapeHtml(BLURBS[name])}</p>\n<ul class="pages">\n${items}\n</ul>\n</section>`;
  });
  const pages: UsagePageDeclaration[] = [
    {
      path: '/',
      title: 'Usage preferences on the usage web',
      main: `<p>Four sites that state what their content may be used for (search, AI training, AI input, text and data mining), each in its own way. Every page of every site is listed here, so a crawl seeded at this page finds them all.</p>\n${sections.join('\n')}\n<p>${a('/about', 'About this web')}</p>`,
      note: 'The entry page; robots.txt allows search, AI input and AI training by Content-Signal.',
      ...HUB_VERDICTS,
    },
    {
      path: '/about',
      title: 'About',
      main: '<p>Each site runs on its own loopback address with its own robots.txt. Nothing here is reserved.</p>',
      note: "Allowed for search, AI input and AI training by the hub's Content-Signal line.",
      ...HUB_VERDICTS,
    },
  ];
  return buildSite(
    {
      host: 'hub',
      description: `The usage web's entry page: links every page of every site. ${BLURBS.hub}.`,
      robotsTxt: HUB_ROBOTS_TXT,
      pages,
    },
    origins,
  );
}

// ----- managed: a Cloudflare-style managed robots.txt --------------------------------------------

/**
 * The managed robots.txt: Cloudflare's Content Signals comment block and managed content (as
 * served by sites that turn on Cloudflare's managed robots.txt), then the site's own rules.
 */
export const MANAGED_ROBOTS_TXT = `# As a condition of accessing this website, you agree to abide by the
# following content signals:

# (a)  If a content-signal = yes, you may collect content for the
#      corresponding use.
# (b)  If a content-signal = no, you may not collect content for the
#      corresponding use.
# (c)  If the website operator does not include a content signal for a
#      corresponding use, the website operator neither grants nor restricts
#      permission via content signal with respect to the corresponding use.

# The content signals and their meanings are:

# search: building a search index and providing search results (e.g., returning
#         hyperlinks and short excerpts from your website's contents). Search
#         does not include providing AI-generated search summaries.
# ai-input: inputting content into one or more AI models (e.g., retrieval
#           augmented generation, grounding, or other real-time taking of
#           content for generative AI search answers).
# ai-train: training or fine-tuning AI models.

# ANY RESTRICTIONS EXPRESSED VIA CONTENT SIGNALS ARE EXPRESS RESERVATIONS OF
# RIGHTS UNDER ARTICLE 4 OF THE EUROPEAN UNION DIRECTIVE 2019/790 ON COPYRIGHT
# AND RELATED RIGHTS IN THE DIGITAL SINGLE MARKET.

# BEGIN Cloudflare Managed content

User-Agent: *
Content-signal: search=yes, ai-train=no
Allow: /

User-agent: Amazonbot
Disallow: /

User-agent: Applebot-Extended
Disallow: /

User-agent: Bytespider
Disallow: /

User-agent: CCBot
Disallow: /

User-agent: ClaudeBot
Disallow: /

User-agent: Google-Extended
Disallow: /

User-agent: GPTBot
Disallow: /

User-agent: meta-externalagent
Disallow: /

# END Cloudflare Managed Content
User-agent: *
Disallow: /lp
Disallow: /feedback
`;

/** The product tokens the managed robots.txt disallows by name (the web's user agent must be none of them). */
export const MANAGED_BLOCKED_TOKENS = [
  'Amazonbot',
  'Applebot-Extended',
  'Bytespider',
  'CCBot',
  'ClaudeBot',
  'Google-Extended',
  'GPTBot',
  'meta-externalagent',
] as const;

const MANAGED_VERDICTS = {
  allowed: { search: ['robots-content-signal'] },
  reserved: { 'ai-train': ['robots-content-signal'], 'ai-train-images': ['robots-content-signal'] },
} as const;

function buildManaged(origins: UsageOrigins): UsageSite {
  const posts: UsagePageDeclaration[] = [
    {
      path: '/blog/first-light',
      title: 'First light',
      main: '<p>Sunrise over the harbour, shot on film.</p>',
      note: 'A post: search allowed, AI training reserved by the managed Content-signal line.',
      ...MANAGED_VERDICTS,
    },
    {
      path: '/blog/long-exposure',
      title: 'Long exposure',
      main: '<p>Traffic trails on the ring road.</p>',
      note: 'A post: search allowed, AI training reserved by the managed Content-signal line.',
      ...MANAGED_VERDICTS,
    },
  ];
  const pages: UsagePageDeclaration[] = [
    {
      path: '/',
      title: 'Photo journal',
      main: `<p>Photographs and notes. Our robots.txt is the one our CDN manages.</p>\n${pageList([
        { path: '/blog/', title: 'Blog', main: '', note: '' },
        { path: '/pricing', title: 'Prints and pricing', main: '', note: '' },
      ])}\n<p>${a('/lp/spring-sale', 'Spring sale')} · ${a('/feedback', 'Feedback')}</p>`,
      note: 'Search allowed, AI training reserved (Content-signal: search=yes, ai-train=no in the * group); /lp and /feedback are disallowed.',
      ...MANAGED_VERDICTS,
    },
    {
      path: '/blog/',
      title: 'Blog',
      main: pageList(posts),
      note: 'The blog index: search allowed, AI training reserved.',
      ...MANAGED_VERDICTS,
    },
    ...posts,
    {
      path: '/pricing',
      title: 'Prints and pricing',
      main: '<p>Prints from 20 euros.</p>',
      note: 'Search allowed, AI training reserved.',
      ...MANAGED_VERDICTS,
    },
  ];
  return buildSite(
    {
      host: 'managed',
      description: `Cloudflare-style managed robots.txt: ${BLURBS.managed}.`,
      robotsTxt: MANAGED_ROBOTS_TXT,
      pages,
    },
    origins,
  );
}

// ----- scoped: path-scoped Content-Usage rules ---------------------------------------------------

const SCOPED_ROBOTS_TXT = `# Usage preferences as Content-Usage rules (draft-ietf-aipref-attach-05 section 3, vocabulary
# draft-ietf-aipref-vocab-08). A rule without a path applies to every path; a rule with a path
# applies under it; the longest matching path decides, as for Allow and Disallow.
User-agent: *
Allow: /
Disallow: /drafts/
Crawl-delay: 0.2
Content-Usage: search=y
Content-Usage: /research/ train-ai=n, ai-use=n
Content-Usage: /public/ train-ai=y, search=y
`;

const SCOPED_DEFAULT = { allowed: { search: ['robots-content-usage'] } } as const;
const SCOPED_RESEARCH = {
  reserved: {
    'ai-train': ['robots-content-usage'],
    'ai-input': ['robots-content-usage'],
    'ai-train-images': ['robots-content-usage'],
  },
} as const;
const SCOPED_PUBLIC = {
  allowed: {
    search: ['robots-content-usage'],
    'ai-train': ['robots-content-usage'],
    'ai-train-images': ['robots-content-usage'],
  },
} as const;

function buildScoped(origins: UsageOrigins): UsageSite {
  const research: UsagePageDeclaration[] = [
    {
      path: '/research/corpus-study',
      title: 'A corpus study',
      main: '<p>Word frequencies in 19th-century letters.</p>',
      note: 'Under /research/: AI training and AI use reserved by `Content-Usage: /research/ train-ai=n, ai-use=n`; search unknown (the longer /research/ rule decides, and it says nothing about search).',
      ...SCOPED_RESEARCH,
    },
    {
      path: '/research/field-notes',
      title: 'Field notes',
      main: '<p>Notes from the spring survey.</p>',
      note: 'Under /research/: AI training and AI use reserved; search unknown.',
      ...SCOPED_RESEARCH,
    },
  ];
  const open: UsagePageDeclaration[] = [
    {
      path: '/public/open-data',
      title: 'Open data',
      main: '<p>Tables anyone may reuse.</p>',
      note: 'Under /public/: AI training and search allowed by `Content-Usage: /public/ train-ai=y, search=y`.',
      ...SCOPED_PUBLIC,
    },
    {
      path: '/public/handbook',
      title: 'Handbook',
      main: '<p>How the lab works.</p>',
      note: 'Under /public/: AI training and search allowed.',
      ...SCOPED_PUBLIC,
    },
  ];
  const pages: UsagePageDeclaration[] = [
    {
      path: '/',
      title: 'Research lab',
      main: `${pageList([
        { path: '/research/', title: 'Research', main: '', note: '' },
        { path: '/public/', title: 'Public material', main: '', note: '' },
        { path: '/about', title: 'About', main: '', note: '' },
      ])}\n<p>${a('/drafts/next-paper', 'Next paper (draft)')}</p>`,
      note: 'Search allowed by the path-less `Content-Usage: search=y`; nothing said about AI.',
      ...SCOPED_DEFAULT,
    },
    {
      path: '/about',
      title: 'About',
      main: '<p>A small lab.</p>',
      note: 'Search allowed by the path-less rule.',
      ...SCOPED_DEFAULT,
    },
    {
      path: '/research/',
      title: 'Research',
      main: pageList(research),
      note: 'The /research/ index: AI training and AI use reserved; search unknown.',
      ...SCOPED_RESEARCH,
    },
    ...research,
    {
      path: '/public/',
      title: 'Public material',
      main: pageList(open),
      note: 'The /public/ index: AI training and search allowed.',
      ...SCOPED_PUBLIC,
    },
    ...open,
  ];
  return buildSite(
    {
      host: 'scoped',
      description: `Path-scoped Content-Usage rules in robots.txt: ${BLURBS.scoped}; /drafts/ disallowed.`,
      robotsTxt: SCOPED_ROBOTS_TXT,
      pages,
    },
    origins,
  );
}

// ----- headers: Content-Usage and X-Robots-Tag response headers ----------------------------------

const HEADERS_ROBOTS_TXT = `User-agent: *
Allow: /
Crawl-delay: 0.2
`;

function buildHeaders(origins: UsageOrigins): UsageSite {
  const articles: UsagePageDeclaration[] = [
    {
      path: '/articles/open',
      title: 'An open article',
      main: '<p>Reuse welcome.</p>',
      note: 'Content-Usage: train-ai=y, search=y: AI training and search allowed.',
      headers: { 'content-usage': 'train-ai=y, search=y' },
      allowed: {
        search: ['header-content-usage'],
        'ai-train': ['header-content-usage'],
        'ai-train-images': ['header-content-usage'],
      },
    },
    {
      path: '/articles/no-training',
      title: 'Not for training',
      main: '<p>Read it, quote it, do not train on it.</p>',
      note: 'Content-Usage: train-ai=n: AI training reserved by the header.',
      headers: { 'content-usage': 'train-ai=n' },
      reserved: { 'ai-train': ['header-content-usage'], 'ai-train-images': ['header-content-usage'] },
    },
    {
      path: '/articles/search-only',
      title: 'For search only',
      main: '<p>Index it; keep it out of AI.</p>',
      note: 'Content-Usage: search=y, train-ai=n, ai-use=n: search allowed, AI training and AI use reserved.',
      headers: { 'content-usage': 'search=y, train-ai=n, ai-use=n' },
      allowed: { search: ['header-content-usage'] },
      reserved: {
        'ai-train': ['header-content-usage'],
        'ai-input': ['header-content-usage'],
        'ai-train-images': ['header-content-usage'],
      },
    },
  ];
  const members: UsagePageDeclaration[] = [
    {
      path: '/members/essay',
      title: "A members' essay",
      main: '<p>Long read.</p>',
      note: 'X-Robots-Tag: noai: AI training and AI input reserved.',
      headers: { 'x-robots-tag': 'noai' },
      reserved: { 'ai-train': ['x-robots-tag'], 'ai-input': ['x-robots-tag'], 'ai-train-images': ['x-robots-tag'] },
    },
    {
      path: '/members/for-other-bots',
      title: 'Scoped to another crawler',
      main: '<p>The directive names another crawler.</p>',
      note: 'X-Robots-Tag: examplebot: noai: addressed to another crawler, so nothing is reserved for ours.',
      headers: { 'x-robots-tag': 'examplebot: noai' },
    },
  ];
  const gallery: UsagePageDeclaration[] = [
    {
      path: '/gallery/',
      title: 'Gallery',
      main: `<p>Drawings.</p>${linkList([['/gallery/mixed', 'Mixed signals']])}`,
      note: "X-Robots-Tag: noimageai: AI training on the page's images reserved; nothing else.",
      headers: { 'x-robots-tag': 'noimageai' },
      reserved: { 'ai-train-images': ['x-robots-tag'] },
    },
    {
      path: '/gallery/mixed',
      title: 'Mixed signals',
      main: '<p>One header allows training, another reserves it.</p>',
      note: 'Content-Usage: train-ai=y but X-Robots-Tag: noai: the reservation wins (AI training and AI input reserved).',
      headers: { 'content-usage': 'train-ai=y', 'x-robots-tag': 'noai' },
      reserved: { 'ai-train': ['x-robots-tag'], 'ai-input': ['x-robots-tag'], 'ai-train-images': ['x-robots-tag'] },
    },
  ];
  const pages: UsagePageDeclaration[] = [
    {
      path: '/',
      title: 'The Header Gazette',
      main: `<h2>Articles</h2>${pageList(articles)}<h2>Members</h2>${pageList(members)}<p>${a('/gallery/', 'Gallery')}</p>`,
      note: 'No usage header: every purpose unknown.',
    },
    ...articles,
    ...members,
    ...gallery,
  ];
  return buildSite(
    {
      host: 'headers',
      description: `Usage preferences in response headers: ${BLURBS.headers}.`,
      robotsTxt: HEADERS_ROBOTS_TXT,
      pages,
    },
    origins,
  );
}

// ----- tdmrep: W3C TDMRep -------------------------------------------------------------------------

const TDMREP_ROBOTS_TXT = `User-agent: *
Allow: /
Crawl-delay: 0.2
`;

/** The policy document TDMRep reservations point to, at this path of the tdmrep host. */
export const TDM_POLICY_PATH = '/policies/tdm-policy.json';

function tdmPolicyJson(origin: string): string {
  // An ODRL offer, the form TDMRep's tdm-policy points to.
  return `${JSON.stringify(
    {
      '@context': ['http://www.w3.org/ns/odrl.jsonld', { tdm: 'http://www.w3.org/ns/tdmrep#' }],
      '@type': 'Offer',
      uid: `${origin}${TDM_POLICY_PATH}`,
      profile: 'http://www.w3.org/ns/tdmrep',
      assigner: { uid: `${origin}/`, 'vcard:fn': 'TDMRep Library', 'vcard:hasEmail': 'licensing@example.invalid' },
      permission: [{ target: `${origin}/catalogue/`, action: 'tdm:mine', duty: [{ action: 'compensate' }] }],
    },
    null,
    2,
  )}\n`;
}

function buildTdmrep(origins: UsageOrigins): UsageSite {
  const origin = origins.tdmrep;
  const policy = `${origin}${TDM_POLICY_PATH}`;
  const tdmrepJson = `${JSON.stringify(
    [
      { location: '/catalogue/', 'tdm-reservation': 1, 'tdm-policy': policy },
      { location: '/open/', 'tdm-reservation': 0 },
    ],
    null,
    2,
  )}\n`;
  const allTdm = (kind: 'tdmrep-json' | 'tdm-header' | 'tdm-meta') =>
    ({ tdm: [kind], 'ai-train': [kind], 'ai-input': [kind], 'ai-train-images': [kind] }) as const;
  const catalogue: UsagePageDeclaration[] = [
    {
      path: '/catalogue/atlas-1890',
      title: 'Atlas, 1890',
      main: '<p>A scanned atlas.</p>',
      note: 'Reserved for TDM (and so AI training and AI input) by tdmrep.json rule 0, location /catalogue/, with a tdm-policy.',
      reserved: allTdm('tdmrep-json'),
    },
    {
      path: '/catalogue/herbarium',
      title: 'Herbarium sheets',
      main: '<p>Pressed plants, photographed.</p>',
      note: 'Reserved for TDM by tdmrep.json rule 0.',
      reserved: allTdm('tdmrep-json'),
    },
  ];
  const open: UsagePageDeclaration[] = [
    {
      path: '/open/dataset',
      title: 'Open dataset',
      main: '<p>Catalogue records, free to mine.</p>',
      note: 'TDM not reserved (tdmrep.json rule 1, tdm-reservation 0): TDM, AI training and AI input allowed.',
      allowed: allTdm('tdmrep-json'),
    },
    {
      path: '/open/embargoed',
      title: 'Embargoed record',
      main: '<p>Under /open/, but reserved by its own header.</p>',
      note: "tdmrep.json allows TDM here, the page's tdm-reservation: 1 header reserves it: the reservation wins.",
      headers: { 'tdm-reservation': '1', 'tdm-policy': policy },
      reserved: allTdm('tdm-header'),
    },
  ];
  const articles: UsagePageDeclaration[] = [
    {
      path: '/articles/header-reserved',
      title: 'Reserved by header',
      main: '<p>An essay.</p>',
      note: 'tdm-reservation: 1 and tdm-policy response headers: TDM reserved.',
      headers: { 'tdm-reservation': '1', 'tdm-policy': policy },
      reserved: allTdm('tdm-header'),
    },
    {
      path: '/articles/meta-reserved',
      title: 'Reserved by meta tag',
      main: '<p>A review.</p>',
      note: '<meta name="tdm-reservation" content="1"> with tdm-policy: TDM reserved.',
      meta: [
        { name: 'tdm-reservation', content: '1' },
        { name: 'tdm-policy', content: policy },
      ],
      reserved: allTdm('tdm-meta'),
    },
    {
      path: '/articles/meta-noai',
      title: 'No AI, says meta robots',
      main: '<p>A short story.</p>',
      note: '<meta name="robots" content="noai">: AI training and AI input reserved; TDM unknown.',
      meta: [{ name: 'robots', content: 'noai' }],
      reserved: { 'ai-train': ['meta-robots'], 'ai-input': ['meta-robots'], 'ai-train-images': ['meta-robots'] },
    },
    {
      path: '/articles/meta-free',
      title: 'Free to mine',
      main: '<p>A public notice.</p>',
      note: '<meta name="tdm-reservation" content="0">: TDM allowed.',
      meta: [{ name: 'tdm-reservation', content: '0' }],
      allowed: allTdm('tdm-meta'),
    },
  ];
  const pages: UsagePageDeclaration[] = [
    {
      path: '/',
      title: 'The TDMRep Library',
      main: `<h2>Catalogue</h2>${a('/catalogue/', 'The catalogue')}<h2>Open</h2>${a('/open/', 'Open records')}<h2>Articles</h2>${pageList(articles)}`,
      note: 'No tdmrep.json rule matches /, no header, no meta: every purpose unknown.',
    },
    {
      path: '/catalogue/',
      title: 'Catalogue',
      main: pageList(catalogue),
      note: 'Reserved for TDM by tdmrep.json rule 0.',
      reserved: allTdm('tdmrep-json'),
    },
    ...catalogue,
    {
      path: '/open/',
      title: 'Open records',
      main: pageList(open),
      note: 'TDM allowed by tdmrep.json rule 1.',
      allowed: allTdm('tdmrep-json'),
    },
    ...open,
    ...articles,
  ];
  const extra = new Map<string, Resource>([
    [TDMREP_PATH, textResource(tdmrepJson, 'application/json; charset=utf-8')],
    [TDM_POLICY_PATH, textResource(tdmPolicyJson(origin), 'application/ld+json; charset=utf-8')],
  ]);
  return buildSite(
    {
      host: 'tdmrep',
      description: `W3C TDMRep: ${BLURBS.tdmrep}.`,
      robotsTxt: TDMREP_ROBOTS_TXT,
      pages,
      extra,
      tdmrepJson,
    },
    origins,
  );
}

/** Every site of the usage web, in `USAGE_HOST_NAMES` order. */
export function buildUsageSites(origins: UsageOrigins): UsageSite[] {
  const sites = [buildManaged(origins), buildScoped(origins), buildHeaders(origins), buildTdmrep(origins)];
  return [buildHub(origins, sites), ...sites];
}
