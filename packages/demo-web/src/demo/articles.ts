// The news host's articles: deterministic, dated, tagged, some reviewing shop products.

import { createRandom, paragraph, pick } from '../random.js';
import { type DemoProduct, demoProducts, slugOf } from './catalog.js';
import type { DemoOrigins } from './demo-hosts.js';

/** An article of the demo web's news site, as `demoArticles()` lists them. */
export interface DemoArticle {
  readonly slug: string;
  /** `/articles/<slug>` on the news host. */
  readonly path: string;
  /** 1-based, oldest first. */
  readonly number: number;
  readonly title: string;
  readonly author: string;
  /** ISO 8601. */
  readonly published: string;
  readonly tags: readonly string[];
  readonly paragraphs: readonly string[];
  /** The slug of the shop product this article reviews, if any. */
  readonly reviews?: string;
}

/** The tags of the demo web's news articles. */
export const DEMO_TAGS = ['politeness', 'robots-txt', 'sitemaps', 'performance', 'community', 'shopping'] as const;

const TITLES = [
  'Why robots.txt still matters',
  'A gentle introduction to crawl-delay',
  'Sitemaps, indexes and the gzip question',
  'Our favourite kitchen tools of the season',
  'Status page outage: what happened',
  'Ten garden jobs for November',
  'How we measure politeness on the server',
  'The endless calendar and other crawler traps',
  'Release notes for the first preview',
  'Community call recap',
  'Reading list: books for patient builders',
  'Redirects without tears',
  'Wildcards and the dollar sign',
  'When the server says 503',
  'Tool review: the bench clamp',
  'Feeds are sitemaps too',
  'Allow beats Disallow, sometimes',
  'Scaling to two hundred hosts',
  'A visit to the old shop',
  'Keeping memory flat with a frontier store',
  'Meet the maintainers',
  'Why we fail closed',
  'Notes from the documentation sprint',
  "What's next for the demo web",
];

const AUTHORS = ['Ada Brook', 'Ravi Lantern', 'Mina Orchard', 'Tomás Harbour'];

/** Articles reviewing a product: article number → a test on the product. */
const REVIEWS: Readonly<Record<number, (product: DemoProduct) => boolean>> = {
  4: (p) => p.category === 'kitchen',
  6: (p) => p.category === 'garden',
  11: (p) => p.slug === 'the-patient-crawler',
  15: (p) => p.name.endsWith('Bench Clamp'),
};

let cached: readonly DemoArticle[] | undefined;

/** The 24 articles, oldest first, one every two days from a fixed first day. */
export function demoArticles(): readonly DemoArticle[] {
  cached ??= buildArticles();
  return cached;
}

function buildArticles(): DemoArticle[] {
  const random = createRandom(20261001);
  const products = demoProducts();
  return TITLES.map((title, i) => {
    const number = i + 1;
    const slug = slugOf(title);
    const reviewed = REVIEWS[number] === undefined ? undefined : products.find(REVIEWS[number]);
    const published = new Date(Date.UTC(2026, 9, 1 + 2 * i, 8, 0, 0)).toISOString();
    return {
      slug,
      path: `/articles/${slug}`,
      number,
      title,
      author: pick(random, AUTHORS),
      published,
      tags: [DEMO_TAGS[i % 6] as string, DEMO_TAGS[(i + 2) % 6] as string],
      paragraphs: [paragraph(random), paragraph(random), paragraph(random)],
      ...(reviewed === undefined ? {} : { reviews: reviewed.slug }),
    };
  });
}

/** The article that reviews `product`, as a link from the shop to the news host. */
export function articleAbout(product: DemoProduct, origins: DemoOrigins): { url: string; title: string } | undefined {
  const article = demoArticles().find((candidate) => candidate.reviews === product.slug);
  return article === undefined ? undefined : { url: origins.news + article.path, title: article.title };
}
