// Typed routes: `createCrawler<Routes>()` with a type that maps each label to its userData type.
// The type-level half is checked by `pnpm typecheck` (this file is in its program): each
// `@ts-expect-error` line must be an error, and each `expectTypeOf` must hold; the functions that
// hold them are never called. The run-time half crawls a loopback shop with a typed crawler.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Crawler,
  type CrawlerOptions,
  createCrawler,
  type PageContext,
  type PageHandler,
  type RouteHandlers,
  type RouteLabel,
  type RouteMap,
  type UserData,
} from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';

const UA = 'TypedBot/1.0 (+http://example.invalid/bot)';

type Routes = {
  CATEGORY: { page: number };
  PRODUCT: { category: string };
  SALE: { note?: string };
};

const noop = async (): Promise<void> => {};

// ---- type level (never run) -----------------------------------------------------------------

/** Each route's page has its label and its userData type, without a cast. */
export function userDataTypedPerRoute(): Crawler<Routes> {
  return createCrawler<Routes>({
    userAgent: UA,
    seeds: [{ url: 'https://shop.example/c/garden', label: 'CATEGORY', userData: { page: 1 } }],
    handlers: {
      CATEGORY: async (page) => {
        expectTypeOf(page.request.label).toEqualTypeOf<'CATEGORY'>();
        expectTypeOf(page.request.userData).toEqualTypeOf<Readonly<{ page: number }>>();
        expectTypeOf(page.request.userData.page).toEqualTypeOf<number>();
        await page.enqueueLinks({ selector: 'a.product', label: 'PRODUCT', userData: { category: 'garden' } });
        await page.enqueue('https://shop.example/c/garden?page=2', {
          label: 'CATEGORY',
          userData: { page: page.request.userData.page + 1 },
          priority: 5,
        });
        await page.enqueueLinks({ selector: 'a.sale', label: 'SALE' }); // its userData has no required field
        await page.enqueueLinks(); // no label: the default route
      },
      PRODUCT: async (page) => {
        expectTypeOf(page.request.userData.category).toEqualTypeOf<string>();
        // @ts-expect-error: PRODUCT's userData has no `page`
        void page.request.userData.page;
      },
      SALE: (page) => {
        expectTypeOf(page.request.userData.note).toEqualTypeOf<string | undefined>();
      },
      default: (page) => {
        expectTypeOf(page.request.label).toEqualTypeOf<undefined>();
        expectTypeOf(page.request.userData).toEqualTypeOf<Readonly<UserData>>();
      },
    },
  });
}

/** A label that is not a key of Routes is a type error wherever a label is given. */
export async function unknownLabels(crawler: Crawler<Routes>, page: PageContext<Routes, 'CATEGORY'>): Promise<void> {
  // @ts-expect-error: no such label
  await page.enqueueLinks({ selector: 'a', label: 'PRODCT', userData: { category: 'x' } });
  // @ts-expect-error: no such label
  await page.enqueue('https://shop.example/x', { label: 'BASKET' });
  // @ts-expect-error: no such label
  await crawler.enqueue('https://shop.example/x', { label: 'category', userData: { page: 1 } });
  // @ts-expect-error: `default` is the route of requests without a label, not a label
  await crawler.enqueue('https://shop.example/x', { label: 'default' });
  createCrawler<Routes>({
    userAgent: UA,
    // @ts-expect-error: no such label
    seeds: [{ url: 'https://shop.example/', label: 'HOME' }],
    handlers: { CATEGORY: noop, PRODUCT: noop, SALE: noop },
  });
  createCrawler<Routes>({
    userAgent: UA,
    handlers: {
      CATEGORY: noop,
      PRODUCT: noop,
      SALE: noop,
      // @ts-expect-error: a route for a label Routes does not have
      PRODCT: noop,
    },
  });
  // @ts-expect-error: every label needs its route (SALE is missing)
  createCrawler<Routes>({ userAgent: UA, handlers: { CATEGORY: noop, PRODUCT: noop } });
}

/** The userData given with a label must have that label's type; required when it has required fields. */
export async function wrongUserData(crawler: Crawler<Routes>, page: PageContext<Routes, 'PRODUCT'>): Promise<void> {
  // @ts-expect-error: CATEGORY's page is a number
  await page.enqueue('https://shop.example/c', { label: 'CATEGORY', userData: { page: '2' } });
  // @ts-expect-error: PRODUCT's userData is CATEGORY's type
  await page.enqueueLinks({ label: 'PRODUCT', userData: { page: 2 } });
  // @ts-expect-error: PRODUCT needs its userData (category is required)
  await page.enqueueLinks({ selector: 'a.product', label: 'PRODUCT' });
  // @ts-expect-error: a field PRODUCT's userData does not have
  await crawler.enqueue('https://shop.example/p', { label: 'PRODUCT', userData: { category: 'x', colour: 'red' } });
  createCrawler<Routes>({
    userAgent: UA,
    // @ts-expect-error: CATEGORY needs its userData
    seeds: [{ url: 'https://shop.example/c', label: 'CATEGORY' }],
    handlers: { CATEGORY: noop, PRODUCT: noop, SALE: noop },
  });
  // Without a label, any plain userData (it goes to the default route).
  await crawler.enqueue('https://shop.example/about', { userData: { from: 'test' } });
}

/** Routes typed as an interface work too; a label whose userData is not an object is an error naming it. */
export function routesTypes(): void {
  interface Product {
    readonly category: string;
  }
  interface InterfaceRoutes {
    PRODUCT: Product;
  }
  const crawler = createCrawler<InterfaceRoutes>({
    userAgent: UA,
    handlers: { PRODUCT: (page) => expectTypeOf(page.request.userData.category).toEqualTypeOf<string>() },
  });
  expectTypeOf(crawler).toEqualTypeOf<Crawler<InterfaceRoutes>>();
  expectTypeOf<RouteLabel<InterfaceRoutes>>().toEqualTypeOf<'PRODUCT'>();
  expectTypeOf<InterfaceRoutes>().toExtend<RouteMap<InterfaceRoutes>>();
  // @ts-expect-error: A's userData must be an object type
  createCrawler<{ A: string; B: { b: 1 } }>({ userAgent: UA, handlers: { A: noop, B: noop } });
}

/** Routes written apart from the options, with the exported helper types. */
export function routesWrittenApart(): Crawler<Routes> {
  const product: PageHandler<Routes, 'PRODUCT'> = (page) => {
    expectTypeOf(page.request.userData).toEqualTypeOf<Readonly<{ category: string }>>();
  };
  const handlers: RouteHandlers<Routes> = {
    CATEGORY: (page) => page.enqueueLinks({ label: 'PRODUCT', userData: { category: 'tools' } }),
    PRODUCT: product,
    SALE: noop,
  };
  const options: CrawlerOptions<Routes> = { userAgent: UA, handlers };
  return createCrawler<Routes>(options);
}

/** One `handler` for every label: testing the label narrows the userData. */
export function oneHandlerNarrowsByLabel(): void {
  createCrawler<Routes>({
    userAgent: UA,
    handler: ({ request }) => {
      expectTypeOf(request.label).toEqualTypeOf<'CATEGORY' | 'PRODUCT' | 'SALE' | undefined>();
      if (request.label === 'CATEGORY') expectTypeOf(request.userData.page).toEqualTypeOf<number>();
      if (request.label === 'PRODUCT') expectTypeOf(request.userData.category).toEqualTypeOf<string>();
    },
  });
}

/** Without the type parameter, everything is as it was: any label, userData a record of unknowns. */
export async function untypedUnchanged(): Promise<void> {
  const crawler = createCrawler({
    userAgent: UA,
    seeds: [{ url: 'https://shop.example/', label: 'ANYTHING', userData: { a: 1 } }],
    handlers: {
      ANYTHING: async (page) => {
        expectTypeOf(page.request.label).toEqualTypeOf<string | undefined>();
        expectTypeOf(page.request.userData).toEqualTypeOf<Readonly<Record<string, unknown>>>();
        await page.enqueueLinks({ label: 'WHATEVER', userData: { b: [1, 2] } });
      },
      default: (page) => page.enqueue('https://shop.example/x', { label: 'ELSE' }),
    },
  });
  expectTypeOf(crawler).toEqualTypeOf<Crawler>();
  expectTypeOf<ReturnType<typeof createCrawler>>().toEqualTypeOf<Crawler>();
  expectTypeOf<PageContext['request']['userData']>().toEqualTypeOf<Readonly<Record<string, unknown>>>();
  expectTypeOf<RouteLabel>().toEqualTypeOf<string>();
  await crawler.enqueue('https://shop.example/y', { label: 'ANY', userData: { c: null } });
  // @ts-expect-error: userData is still an object, typed or not
  await crawler.enqueue('https://shop.example/y', { label: 'ANY', userData: 'text' });
  // A handler written on its own for an untyped crawler takes a PageContext, as before.
  const handler = (page: PageContext): void => void page.request.userData;
  createCrawler({ userAgent: UA, handlers: { A: handler, default: handler } });
}

// ---- run time -------------------------------------------------------------------------------

const html = (body: string): string => `<!doctype html><html><body>${body}</body></html>`;
const PAGES: Record<string, string> = {
  '/c/garden': html(
    '<a class="product" href="/p/1">1</a><a class="product" href="/p/2">2</a><a href="/c/garden?page=2">next</a>',
  ),
  '/c/garden?page=2': html('<a class="product" href="/p/3">3</a>'),
  '/p/1': html('<h1>one</h1>'),
  '/p/2': html('<h1>two</h1>'),
  '/p/3': html('<h1>three</h1>'),
};
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const page = PAGES[req.url ?? ''];
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('typed routes', () => {
  it('a crawler with typed routes crawls as an untyped one: each route gets its label and userData', async () => {
    const seen: string[] = [];
    const crawler = createCrawler<Routes>({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      followLinks: false,
      seeds: [{ url: `${base}/c/garden`, label: 'CATEGORY', userData: { page: 1 } }],
      handlers: {
        CATEGORY: async (page) => {
          const { page: n } = page.request.userData;
          seen.push(`CATEGORY ${new URL(page.url).search || '/'} page ${n}`);
          await page.enqueueLinks({ selector: 'a.product', label: 'PRODUCT', userData: { category: `garden-${n}` } });
          await page.enqueueLinks({ selector: 'a[href*="page="]', label: 'CATEGORY', userData: { page: n + 1 } });
        },
        PRODUCT: (page) => void seen.push(`PRODUCT ${new URL(page.url).pathname} ${page.request.userData.category}`),
        SALE: noop,
        default: (page) => void seen.push(`default ${page.url}`),
      },
    });
    const stats = await crawler.run();
    expect(stats.pages).toBe(5);
    expect(seen.sort()).toEqual([
      'CATEGORY / page 1',
      'CATEGORY ?page=2 page 2',
      'PRODUCT /p/1 garden-1',
      'PRODUCT /p/2 garden-1',
      'PRODUCT /p/3 garden-2',
    ]);
  });

  it('the type-level checks above are functions, never called (pnpm typecheck judges them)', () => {
    for (const check of [
      userDataTypedPerRoute,
      unknownLabels,
      wrongUserData,
      routesTypes,
      routesWrittenApart,
      oneHandlerNarrowsByLabel,
      untypedUnchanged,
    ])
      expect(typeof check).toBe('function');
  });
});
