// Deterministic inputs for the robots-engine benchmark: a big robots.txt shaped like a large
// retailer's, a small realistic one, and a list of URLs on its origin. Same seed, same bytes.

export const ORIGIN = 'https://www.example-shop.test';
export const ROBOTS_URL = `${ORIGIN}/robots.txt`;
export const USER_AGENT = 'PolitelyBench/1.0 (+https://example.invalid)';

/** mulberry32: a tiny seeded PRNG, so that the inputs are the same on every run. */
export function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const SECTIONS = [
  'gp',
  'dp',
  's',
  'b',
  'hz',
  'ap',
  'wishlist',
  'registry',
  'product-reviews',
  'review',
  'offer-listing',
  'exec/obidos',
  'cart',
  'checkout',
  'account',
  'orders',
  'returns',
  'help',
  'customer-preferences',
  'deals',
  'brand',
  'stores',
  'shop',
  'collections',
  'search',
  'compare',
  'gift-cards',
  'coupons',
  'recommendations',
  'ip',
  'cp',
  'browse',
  'reviews',
  'store',
  'api',
  'ajax',
  'static',
  'content',
  'm',
  'amp',
];
const WORDS = [
  'buy',
  'cart',
  'view',
  'handle',
  'buy-box',
  'sign-in',
  'redirect',
  'related',
  'similar',
  'sponsored',
  'widget',
  'popup',
  'print',
  'share',
  'email',
  'history',
  'cache',
  'preview',
  'feed',
  'rss',
  'mobile',
  'desktop',
  'beta',
  'v1',
  'v2',
  'internal',
  'tracking',
  'click',
  'log',
  'pixel',
  'session',
  'token',
  'filter',
  'facet',
  'compare',
  'quick-view',
  'add-to-list',
  'your-account',
  'order-history',
  'gift-wrap',
  'dynamic',
  'render',
  'slot',
  'ads',
];
const PARAMS = [
  'sort',
  'ref',
  'tag',
  'sessionid',
  'sid',
  'utm_source',
  'utm_medium',
  'qid',
  'sr',
  'pf_rd_p',
  'pf_rd_r',
  'keywords',
  'node',
  'rh',
  'page',
  'filter',
  'color',
  'size',
  'view',
  'lang',
  'currency',
  'affiliate',
];
const EXTENSIONS = ['pdf', 'json', 'xml', 'php', 'cgi', 'asp', 'jsp', 'zip', 'csv', 'txt'];
const ESCAPES = ['%E2%80%A6', '%C3%A9', '%c3%bc', '%20', '%2F', '%7E', '%E4%B8%AD%E6%96%87', '%3D', '%26'];
const BOTS = [
  ['Googlebot'],
  ['Googlebot-Image', 'Googlebot-News'],
  ['AdsBot-Google', 'AdsBot-Google-Mobile'],
  ['Mediapartners-Google'],
  ['Bingbot', 'msnbot'],
  ['Slurp'],
  ['DuckDuckBot'],
  ['Baiduspider'],
  ['YandexBot'],
  ['Applebot'],
  ['facebookexternalhit'],
  ['Twitterbot'],
  ['LinkedInBot'],
  ['Amazonbot'],
  ['PetalBot'],
  ['AhrefsBot', 'SemrushBot', 'MJ12bot', 'DotBot'],
  ['ia_archiver'],
  ['rogerbot'],
  ['Pinterestbot'],
  ['SeznamBot'],
  ['Qwantify'],
  ['Exabot'],
  ['Sogou web spider'],
  ['NaverBot', 'Yeti'],
  ['coccocbot-web'],
];
const AI_BOTS = [
  ['GPTBot', 'ChatGPT-User'],
  ['CCBot'],
  ['anthropic-ai', 'Claude-Web'],
  ['Google-Extended'],
  ['PerplexityBot', 'Bytespider'],
];
const UNKNOWN_LINES = [
  'Host: www.example-shop.test',
  'Clean-param: ref /dp/',
  'Request-rate: 1/5',
  'Visit-time: 0100-0500',
  'Noindex: /tmp/',
  'Crawl-delay: 1',
  'Clean-param: utm_source&utm_medium /',
  'Content-Signal: search=yes, ai-train=no',
];

function segment(random) {
  return random.chance(0.5) ? random.pick(WORDS) : `${random.pick(WORDS)}-${random.pick(WORDS)}`;
}

/** One realistic allow/disallow path: prefixes, `*`, `$`, queries, percent-encoding. */
function randomRulePath(random) {
  const section = random.pick(SECTIONS);
  switch (random.int(10)) {
    case 0:
      return `/${section}/${segment(random)}/`;
    case 1:
      return `/${section}/${segment(random)}/${segment(random)}.html`;
    case 2:
      return `/${section}?${random.pick(PARAMS)}=`;
    case 3:
      return `/${section}/*/${segment(random)}`;
    case 4:
      return `/*?*${random.pick(PARAMS)}=`;
    case 5:
      return `/${section}/*.${random.pick(EXTENSIONS)}$`;
    case 6:
      return `/${section}/${segment(random)}$`;
    case 7:
      return `/${section}/${random.pick(ESCAPES)}${segment(random)}`;
    case 8:
      return `/${section}/*/${segment(random)}/*?${random.pick(PARAMS)}=*&${random.pick(PARAMS)}=`;
    default:
      return `/${section}/${segment(random)}-${random.int(10000)}`;
  }
}

function ruleLine(random) {
  const type = random.chance(0.22) ? 'Allow' : 'Disallow';
  const comment = random.chance(0.04) ? ` # ticket SEO-${1000 + random.int(9000)}` : '';
  return `${type}: ${randomRulePath(random)}${comment}`;
}

/**
 * A big robots.txt (about `targetBytes`, ASCII, LF line ends): a header, a huge `*` group, a group
 * per major bot repeating a share of the rules (as big sites do), AI bots shut out, unknown
 * lines, comments and sitemaps. Never above `maxBytes`, so that every engine parses all of it.
 */
export function generateBigRobotsTxt({ targetBytes = 500 * 1024 - 1024, maxBytes = 500 * 1024, seed = 0x5eed } = {}) {
  const random = createRandom(seed);
  const lines = [
    '# robots.txt for www.example-shop.test',
    "# Generated deterministically for the politely benchmark; shaped like a large retailer's file.",
    '# Questions: seo@example-shop.test',
    '',
  ];
  let bytes = lines.join('\n').length + 1;
  const push = (line) => {
    lines.push(line);
    bytes += line.length + 1;
  };
  const sitemaps = [];
  for (let i = 0; i < 60; i++)
    sitemaps.push(
      `Sitemap: ${ORIGIN}/sitemaps/sitemap-${['products', 'categories', 'brands', 'reviews', 'stores'][i % 5]}-${String(i).padStart(3, '0')}.xml.gz`,
    );
  for (const bots of AI_BOTS) {
    for (const bot of bots) push(`User-agent: ${bot}`);
    push('Disallow: /');
    push('');
  }
  // The shared rule list; the `*` group holds all of it, bot groups a share each.
  const shared = [];
  for (let i = 0; i < 1800; i++) shared.push(ruleLine(random));
  push('User-agent: *');
  shared.forEach((line, i) => {
    if (i % 40 === 0) push(`# --- section ${i / 40 + 1}: ${random.pick(SECTIONS)} ---`);
    if (i % 150 === 75) push(random.pick(UNKNOWN_LINES));
    if (i % 300 === 150) push(sitemaps[random.int(sitemaps.length)]);
    push(line);
  });
  push('');
  let botIndex = 0;
  const footer = sitemaps.reduce((sum, line) => sum + line.length + 1, 1);
  while (true) {
    const bots = BOTS[botIndex % BOTS.length];
    const group = [];
    for (const bot of bots) group.push(`User-agent: ${bot}`);
    if (random.chance(0.3)) group.push(`Crawl-delay: ${1 + random.int(10)}`);
    const start = random.int(shared.length);
    const count = 150 + random.int(250);
    for (let i = 0; i < count; i++) {
      if (i % 50 === 0) group.push(`# ${bots[0]}: block ${i / 50 + 1}`);
      if (i % 120 === 60) group.push(random.pick(UNKNOWN_LINES));
      group.push(random.chance(0.1) ? ruleLine(random) : shared[(start + i) % shared.length]);
    }
    group.push('');
    const size = group.reduce((sum, line) => sum + line.length + 1, 0);
    if (bytes + size + footer > targetBytes) break;
    group.forEach(push);
    botIndex++;
  }
  sitemaps.forEach(push);
  const text = lines.join('\n');
  if (text.length > maxBytes) throw new Error(`big robots.txt is ${text.length} bytes, above ${maxBytes}`);
  return text;
}

/** A realistic small robots.txt: a `*` group and a group for the benchmark's bot, ~40 rules. */
export const SMALL_ROBOTS_TXT = `# robots.txt for www.example-shop.test
Sitemap: ${ORIGIN}/sitemap.xml

User-agent: *
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Allow: /account/login
Disallow: /search
Disallow: /*?sessionid=
Disallow: /*&sessionid=
Disallow: /*?sort=
Disallow: /*.pdf$
Disallow: /api/
Allow: /api/public/
Disallow: /tmp/
Crawl-delay: 2

User-agent: PolitelyBench
User-agent: OtherBot
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Allow: /account/login$
Disallow: /search?
Allow: /search?q=
Disallow: /*?*utm_
Disallow: /*?*sessionid=
Disallow: /*.json$
Disallow: /*.txt$
Disallow: /products/*/reviews
Allow: /products/*/reviews$
Disallow: /*/print
Disallow: /private%2Fdocs/
Disallow: /%7Euser/
Disallow: /wiki/Special:*
Allow: /wiki/Special:Random$
Disallow: /*?*&page=
Disallow: /blog/*/drafts/
Allow: /blog/*/drafts/public-
Disallow: /caf%c3%a9/private
Disallow: /assets/*.map$
Disallow: /docs/
Allow: /docs/index.html
Allow: /docs/guide/
Disallow: /static/private
Allow: /static/
Disallow: /*/compare?*ids=
Unknown-directive: something
`;

const CATEGORIES = ['shoes', 'jackets', 'kitchen', 'garden', 'toys', 'books', 'audio', 'laptops', 'sports', 'beauty'];
const SLUGS = [
  'summer-sale',
  'new-arrivals',
  'best-sellers',
  'how-to-choose',
  'gift-guide',
  'clearance',
  'top-10',
  'review',
];
const QUERIES = ['shoes', 'red+dress', 'usb-c%20cable', 'caf%C3%A9', 'kids', 'lamp', '%E2%82%AC50', 'sofa'];

/** `count` distinct absolute URLs on ORIGIN: allowed and disallowed, queries, some percent-encoding. */
export function generateUrls({ count = 1000, seed = 0xbe7c } = {}) {
  const random = createRandom(seed);
  const id = () => String(100000 + random.int(900000));
  const cat = () => random.pick(CATEGORIES);
  const utm = () =>
    `utm_source=${random.pick(['newsletter', 'google', 'partner'])}&utm_medium=${random.pick(['email', 'cpc'])}`;
  const templates = [
    () => `/products/${id()}`,
    () => `/products/${id()}-${cat()}-${random.pick(SLUGS)}`,
    () => `/products/${id()}/reviews`,
    () => `/products/${id()}/reviews?page=${2 + random.int(9)}`,
    () => `/products/${id()}/reviews?sort=newest`,
    () => `/category/${cat()}`,
    () => `/category/${cat()}?page=${2 + random.int(20)}`,
    () => `/category/${cat()}?color=red&page=${2 + random.int(20)}`,
    () => `/category/${cat()}?${utm()}`,
    () => `/category/${cat()}/${cat()}?sort=price_asc`,
    () => `/search?q=${random.pick(QUERIES)}`,
    () => `/search?q=${random.pick(QUERIES)}&page=${2 + random.int(5)}`,
    () => `/search?category=${cat()}`,
    () => `/cart`,
    () => `/cart/add?item=${id()}`,
    () => `/checkout/shipping`,
    () => `/account/login`,
    () => `/account/login?return=%2Faccount%2Forders`,
    () => `/account/orders/${id()}`,
    () => `/blog/${2019 + random.int(6)}/${String(1 + random.int(12)).padStart(2, '0')}/${random.pick(SLUGS)}`,
    () => `/blog/${2019 + random.int(6)}/drafts/${random.pick(SLUGS)}`,
    () => `/blog/${2019 + random.int(6)}/drafts/public-${random.pick(SLUGS)}`,
    () => `/blog/${random.pick(SLUGS)}/print`,
    () => `/wiki/Special:Search?search=${random.pick(QUERIES)}`,
    () => `/wiki/Special:Random`,
    () => `/wiki/${cat()}_${random.pick(SLUGS)}`,
    () => `/assets/app.${id()}.js`,
    () => `/assets/app.${id()}.js.map`,
    () => `/static/img/${cat()}/${id()}.jpg`,
    () => `/static/private/report-${id()}.pdf`,
    () => `/api/v2/items/${id()}.json`,
    () => `/api/public/stores.json`,
    () => `/docs/guide/getting-started`,
    () => `/docs/reference/${random.pick(SLUGS)}`,
    () => `/docs/index.html`,
    () => `/downloads/manual-${id()}.pdf`,
    () => `/stores/${cat()}?sessionid=${id()}abc`,
    () => `/compare?ids=${id()},${id()}`,
    () => `/${cat()}/compare?ids=${id()},${id()}`,
    () => `/caf%C3%A9/menu`,
    () => `/caf%c3%a9/private/${random.pick(SLUGS)}`,
    () => `/brand/${random.pick(['acme', 'globex', 'initech', 'umbrella'])}?${utm()}#reviews`,
    () => `/gift-cards#balance`,
    () => `/private%2Fdocs/${random.pick(SLUGS)}`,
    () => `/help/returns-${random.pick(SLUGS)}`,
  ];
  // Edge cases where engines legitimately differ: each appears a few times.
  const edges = [
    () => `/~user/${random.pick(SLUGS)}`, // %7E in the rule ≡ ~ (RFC 3986 unreserved)
    () => `/search?`, // an empty query
    () => `/docs/`, // Google's `allow: /dir/index.htm…` also allows `/dir/`
    () => `/robots.txt`, // always allowed
    () => `/caf\u00e9/private/menu`, // non-ASCII, encoded by the URL parser
  ];
  // Distinct URLs, as a crawler's frontier would hand them out.
  const urls = new Set();
  while (urls.size < count) {
    const template = random.chance(0.015) ? random.pick(edges) : random.pick(templates);
    urls.add(ORIGIN + template());
  }
  return [...urls];
}

/** The ReDoS-shaped case: many `*`, a path of 2,000 characters that almost matches. */
export const PATHOLOGICAL_ROBOTS_TXT = 'User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*b\n';
export function pathologicalUrl(length = 2000) {
  const prefix = `${ORIGIN}/`;
  return prefix + 'a'.repeat(length - prefix.length);
}
