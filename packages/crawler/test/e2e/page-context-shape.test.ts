// The page a handler gets keeps its lazy parts (`$`, `usage`) as getters on its prototype, not as
// getters of its own: an object literal's getter costs an accessor pair per page in V8's old
// generation, which kept every page's text and body alive through the young collections (see
// HandlerPage). What a handler reads and destructures is unchanged. A real crawl of a loopback site.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawler, type PageContext } from '../../src/index.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const body =
      req.url === '/'
        ? '<!doctype html><title>Home</title><a href="/next">next</a>'
        : '<!doctype html><title>Next</title><p>end</p>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the page context', () => {
  it('has `$` and `usage` as prototype getters; reading, destructuring and enqueueing work as before', async () => {
    const seen: {
      ownAccessors: string[];
      title: string;
      usageAllowed: boolean;
      hasDollar: boolean;
      destructuredPush: boolean;
    }[] = [];
    const crawler = createCrawler({
      userAgent: 'ShapeBot/1.0',
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      seeds: [`${base}/`],
      followLinks: false,
      handler: async (page: PageContext) => {
        const descriptors = Object.getOwnPropertyDescriptors(page);
        const ownAccessors = Object.keys(descriptors).filter((key) => descriptors[key]!.get !== undefined);
        const { $, enqueue, push, usage } = page;
        seen.push({
          ownAccessors,
          title: $('title').text(),
          usageAllowed: typeof usage === 'object' && usage !== null,
          hasDollar: '$' in page,
          destructuredPush: typeof push === 'function',
        });
        if (new URL(page.finalUrl).pathname === '/') await enqueue(`${base}/next`);
      },
    });
    await crawler.run();
    expect(seen).toEqual([
      { ownAccessors: [], title: 'Home', usageAllowed: true, hasDollar: true, destructuredPush: true },
      { ownAccessors: [], title: 'Next', usageAllowed: true, hasDollar: true, destructuredPush: true },
    ]);
  });
});
