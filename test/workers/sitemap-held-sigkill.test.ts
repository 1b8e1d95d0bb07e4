// Held URLs of the sitemap plugin (cross-submission) survive a worker killed with SIGKILL, on a
// store shared by two worker processes: Redis (127.0.0.1:6379, a crawl id of its own) and a
// SQLite file opened `shared: true`. The workers run the BUILT packages (`pnpm build`).
//
// The web: www (127.0.0.1) declares /all.xml in its robots.txt (or an index that lists it); it lists www's /w and two pages
// on each of three other sites, whose robots.txt declare it too (so their URLs are let in) but
// answer only once the test says so. The first worker reads the sitemap, which is done (settled)
// once it asks for /w (one request in flight per host: the sitemap's lease held www until then);
// /w does not answer. At that moment it holds the other sites' URLs, their robots.txt unread: it
// is killed. The second worker then crawls alone, and the servers' logs must show every listed
// page fetched, and none twice.

import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deleteRedisCrawl } from '@politely/store-redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisDown } from '../../packages/cli/test/redis-available.js';
import { skipWithout } from '../support/requirements.js';
import { startWorker, type WorkerRun, waitFor } from '../support/worker-process.js';

const WORKER = fileURLToPath(new URL('./fixtures/sitemap-worker.mjs', import.meta.url));
const BUILT = ['crawler', 'sitemap', 'store-redis', 'store-sqlite'].map((name) =>
  fileURLToPath(new URL(`../../packages/${name}/dist/index.js`, import.meta.url)),
);
const OTHER_SITES = 3;
const PAGES_PER_SITE = 2;

interface Hit {
  readonly origin: string;
  readonly path: string;
  readonly ua: string;
}

interface Web {
  readonly www: string;
  readonly others: readonly string[];
  readonly hits: Hit[];
  /** The other sites' robots.txt answer from now on (those waiting too). */
  releaseRobots(): void;
  close(): Promise<void>;
}

async function listen(address: string, handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, () => resolve());
  });
  return server;
}

const originOf = (server: Server, address: string): string =>
  `http://${address}:${(server.address() as AddressInfo).port}`;

async function startWeb(viaIndex: boolean): Promise<Web> {
  const hits: Hit[] = [];
  const waiting: (() => void)[] = [];
  let released = false;
  const page = (res: ServerResponse, path: string): void =>
    void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>`);
  let www = '';
  // What every site's robots.txt declares: the sitemap, or an index that lists it.
  const declared = (): string => `${www}/${viaIndex ? 'index' : 'all'}.xml`;
  const others: string[] = [];
  const servers: Server[] = [];
  const wwwServer = await listen('127.0.0.1', (req, res) => {
    const path = req.url ?? '';
    hits.push({ origin: www, path, ua: String(req.headers['user-agent']) });
    if (path === '/robots.txt')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nSitemap: ${declared()}\n`);
    if (path === '/index.xml' && viaIndex)
      return void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${www}/all.xml</loc></sitemap></sitemapindex>`,
        );
    if (path === '/all.xml') {
      const urls = [
        `${www}/w`,
        ...others.flatMap((o) => Array.from({ length: PAGES_PER_SITE }, (_, i) => `${o}/p${i}`)),
      ];
      const body = urls.map((url) => `<url><loc>${url}</loc></url>`).join('');
      return void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>`);
    }
    // /w answers the second worker only: the first is killed while it waits.
    if (path === '/w' && !released) return;
    page(res, path);
  });
  servers.push(wwwServer);
  www = originOf(wwwServer, '127.0.0.1');
  for (let i = 0; i < OTHER_SITES; i++) {
    const address = `127.0.0.${2 + i}`;
    const server = await listen(address, (req, res) => {
      const path = req.url ?? '';
      hits.push({ origin, path, ua: String(req.headers['user-agent']) });
      if (path !== '/robots.txt') return page(res, path);
      const answer = (): void =>
        void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nSitemap: ${declared()}\n`);
      if (released) answer();
      else waiting.push(answer);
    });
    const origin = originOf(server, address);
    servers.push(server);
    others.push(origin);
  }
  return {
    www,
    others,
    hits,
    releaseRobots: () => {
      released = true;
      for (const answer of waiting.splice(0)) answer();
    },
    close: async () => {
      await Promise.all(
        servers.map((server) => {
          server.closeAllConnections();
          return new Promise((resolve) => server.close(resolve));
        }),
      );
    },
  };
}

/** The worker's request events so far. */
function requests(run: WorkerRun): { url: string; kind: string }[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; url: string; kind: string })
    .filter((event) => event.type === 'request');
}

const redisMissing = await redisDown();
if (redisMissing !== null) console.warn(`[workers] sitemap-held-sigkill: Redis case SKIPPED: ${redisMissing}`);

let dir: string;
beforeAll(() => {
  for (const file of BUILT)
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm build\` first (the workers run it)`);
  dir = mkdtempSync(join(tmpdir(), 'politely-held-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stores: readonly {
  readonly name: string;
  readonly skip: boolean;
  /** The sites declare an index that lists the sitemap (the held URLs carry it). */
  readonly viaIndex: boolean;
  readonly config: () => Record<string, unknown>;
}[] = [
  {
    name: `Redis${redisMissing === null ? '' : ` [SKIPPED: no Redis at ${REDIS_URL}: ${redisMissing}]`}`,
    skip: skipWithout('Redis (REDIS_URL)', redisMissing),
    viaIndex: false,
    config: () => ({ store: 'redis', redisUrl: REDIS_URL, crawlId: `test-held-${randomUUID()}` }),
  },
  {
    name: 'SQLite, shared: true',
    skip: false,
    viaIndex: false,
    config: () => ({ store: 'sqlite', db: join(dir, `${randomUUID()}.db`) }),
  },
  // The second worker never read the index: only the held entries say the sitemap came from it.
  {
    name: 'SQLite, shared: true, the sites declaring an index that lists the sitemap',
    skip: false,
    viaIndex: true,
    config: () => ({ store: 'sqlite', db: join(dir, `${randomUUID()}.db`) }),
  },
];

describe('sitemaps(): URLs held for other sites, a worker killed with SIGKILL', () => {
  for (const store of stores) {
    it.skipIf(store.skip)(
      `every held URL is crawled by the other worker, none twice (${store.name})`,
      async () => {
        const web = await startWeb(store.viaIndex);
        const storeConfig = store.config();
        const config = { ...storeConfig, origins: [web.www, ...web.others], leaseMs: 1500 };
        const victim = startWorker(WORKER, { ...config, userAgent: 'VictimBot/1.0 (+http://example.invalid/bot)' });
        let survivor: WorkerRun | undefined;
        try {
          await waitFor(
            () => web.hits.some((h) => h.origin === web.www && h.path === '/w') || victim.child.exitCode !== null,
            20_000,
            'the first worker to ask for /w (the sitemap read and settled)',
          );
          expect(victim.child.exitCode, victim.stderr).toBeNull();
          // It holds the other sites' URLs: not one of their pages, nor an answer to their robots.txt, yet.
          expect(web.hits.filter((h) => web.others.includes(h.origin) && h.path !== '/robots.txt')).toEqual([]);
          victim.child.kill('SIGKILL');
          expect(await victim.exited).toBeNull();
          expect(requests(victim).filter((r) => r.url.endsWith('/all.xml'))).toHaveLength(1);

          web.releaseRobots();
          survivor = startWorker(WORKER, { ...config, userAgent: 'SurvivorBot/1.0 (+http://example.invalid/bot)' });
          const code = await Promise.race([
            survivor.exited,
            new Promise((_, reject) => setTimeout(() => reject(new Error('survivor: not done in 30 s')), 30_000)),
          ]);
          expect(code, survivor.stderr).toBe(0);
          // The sitemap was read once, by the worker that died: its held URLs were not lost with it.
          expect(web.hits.filter((h) => h.path === '/all.xml')).toHaveLength(1);
          expect(web.hits.filter((h) => h.path === '/index.xml')).toHaveLength(store.viaIndex ? 1 : 0);
          for (const origin of web.others) {
            const pages = web.hits.filter((h) => h.origin === origin && h.path !== '/robots.txt').map((h) => h.path);
            expect(pages.sort(), origin).toEqual(Array.from({ length: PAGES_PER_SITE }, (_, i) => `/p${i}`));
          }
          expect(
            web.hits.filter((h) => h.origin === web.www && h.path === '/w' && h.ua.startsWith('Survivor')),
          ).toHaveLength(1);
        } finally {
          for (const run of [victim, survivor])
            if (run !== undefined && run.child.exitCode === null && run.child.signalCode === null)
              run.child.kill('SIGKILL');
          // Gone before the crawl's keys are deleted: a live worker would write some again.
          await Promise.all([victim.exited, survivor?.exited]);
          await web.close();
          if (storeConfig['store'] === 'redis') {
            await deleteRedisCrawl({ redis: REDIS_URL, crawlId: String(storeConfig['crawlId']) });
          }
        }
      },
      60_000,
    );
  }
});
