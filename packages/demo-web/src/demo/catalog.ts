// The shop's catalogue: deterministic products with data worth collecting (name, SKU, price,
// rating, stock). Exported so tests can compare what a crawl extracted with the truth.

import { createRandom, paragraph, pick, randomInt } from '../random.js';

/** A category of the demo web's shop. */
export interface DemoCategory {
  readonly slug: string;
  readonly name: string;
}

/** A product of the demo web's shop, as `demoProducts()` lists them; `sitemapOnly` products are linked from no page. */
export interface DemoProduct {
  readonly slug: string;
  /** Path on the shop host: `/products/<slug>`. */
  readonly path: string;
  readonly name: string;
  readonly sku: string;
  readonly category: string;
  /** Price in `currency`, two decimals. */
  readonly price: number;
  readonly currency: 'EUR';
  /** Average rating out of 5, one decimal. */
  readonly rating: number;
  readonly reviewCount: number;
  readonly inStock: boolean;
  readonly description: string;
  /** Listed only in the shop's sitemap, linked from no page. */
  readonly sitemapOnly: boolean;
}

/** The categories of the demo web's shop. */
export const DEMO_CATEGORIES: readonly DemoCategory[] = [
  { slug: 'kitchen', name: 'Kitchen' },
  { slug: 'garden', name: 'Garden' },
  { slug: 'books', name: 'Books' },
  { slug: 'tools', name: 'Tools' },
];

const ITEMS: Readonly<Record<string, readonly string[]>> = {
  kitchen:
    'Cutting Board|Chef Knife|Salad Bowl|Pepper Mill|Tea Kettle|Spice Rack|Bread Tin|Mixing Spoon|Cast Iron Pan|Butter Dish'.split(
      '|',
    ),
  garden:
    'Watering Can|Hand Trowel|Seed Tray|Pruning Shears|Bird Feeder|Plant Pot|Garden Hose|Compost Bin|Leaf Rake|Garden Kneeler'.split(
      '|',
    ),
  books: (
    'The Patient Crawler|Robots and Rules|Notes from the Orchard|A Quiet Harbour|The Copper Lantern|' +
    'Letters to a Librarian|Maps of the Meadow|The Steady Engine|Winter Ledger|The Shared Window'
  ).split('|'),
  tools:
    'Claw Hammer|Screwdriver Set|Hand Saw|Spirit Level|Tape Measure|Bench Clamp|Chisel Set|Utility Knife|Socket Wrench|Block Plane'.split(
      '|',
    ),
};

const ADJECTIVES = ['Sturdy', 'Classic', 'Compact', 'Heritage', 'Everyday', 'Deluxe', 'Nordic', 'Rustic'];
const LIMITED = [
  { category: 'kitchen', name: 'Limited Edition Copper Kettle' },
  { category: 'garden', name: 'Limited Edition Brass Trowel' },
];

export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

let cached: readonly DemoProduct[] | undefined;

/** The 42 products: 10 per category, linked from the category pages, and 2 sitemap-only ones. */
export function demoProducts(): readonly DemoProduct[] {
  cached ??= buildProducts();
  return cached;
}

function buildProducts(): DemoProduct[] {
  const random = createRandom(20261101);
  const products: DemoProduct[] = [];
  for (const category of DEMO_CATEGORIES) {
    for (const item of ITEMS[category.slug] ?? []) {
      const name = category.slug === 'books' ? item : `${pick(random, ADJECTIVES)} ${item}`;
      products.push(makeProduct(random, name, category.slug, products.length, false));
    }
  }
  for (const limited of LIMITED)
    products.push(makeProduct(random, limited.name, limited.category, products.length, true));
  return products;
}

function makeProduct(
  random: () => number,
  name: string,
  category: string,
  index: number,
  sitemapOnly: boolean,
): DemoProduct {
  const slug = slugOf(name);
  const cents = pick(random, [0, 50, 90, 95]);
  return {
    slug,
    path: `/products/${slug}`,
    name,
    sku: `PD-${category.slice(0, 3).toUpperCase()}-${1001 + index}`,
    category,
    price: randomInt(random, 4, 129) + cents / 100,
    currency: 'EUR',
    rating: randomInt(random, 25, 50) / 10,
    reviewCount: randomInt(random, 1, 240),
    inStock: random() < 0.85,
    description: paragraph(random),
    sitemapOnly,
  };
}
