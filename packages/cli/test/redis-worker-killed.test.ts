// Two `politely crawl --store redis://…` workers on one crawl; one is SIGKILLed while a request
// of its own is in flight. With the crawler's lease at its default (300 s), the survivor gets
// the dead worker's URLs back within about the worker TTL (10 s) and finishes the crawl: every
// page fetched, the whole crawl well under 20 s.
//
// The pages answer after 300 ms, so a worker holds its URLs a while; the two workers send
// different user agents (both allowed), so the servers' log says who sent what. The survivor
// joins once the victim's first request arrives, and the victim dies at its first page request.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnRedis, redisServerMissing, startOwnRedis } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { type CliResult, type RunningCli, startCli } from './run-cli.js';

const serverMissing = redisServerMissing();
if (serverMissing !== null) console.warn(`[cli] redis-worker-killed: SKIPPED: ${serverMissing}`);

const VICTIM_UA = 'PolitelyVictim/0.1 (+https://example.invalid/bot)';
const SURVIVOR_UA = 'PolitelySurvivor/0.1 (+https://example.invalid/bot)';
const HOSTS = 4;
const PAGES = 10;
const RESPONSE_MS = 300;

interface Hit {
  readonly origin: string;
  readonly path: string;
  readonly ua: string;
  readonly at: number;
}

/** HOSTS sites on 127.0.0.160+i: `/` links to PAGES pages, each answered after RESPONSE_MS. */
async function startSlowSites(onHit: (hit: Hit) => void): Promise<{ origins: string[]; close(): Promise<void> }> {
  const servers: Server[] = [];
  const origins: string[] = [];
  for (let i = 0; i < HOSTS; i++) {
    const address = `127.0.0.${160 + i}`;
    const server = createServer((req, res) => {
      const origin = `http://${address}:${(server.address() as { port: number }).port}`;
      onHit({ origin, path: req.url ?? '', ua: String(req.headers['user-agent']), at: Date.now() });
      if (req.url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
        return;
      }
      const body =
        req.url === '/'
          ? Array.from({ length: PAGES }, (_, n) => `<a href="/p/${n}">${n}</a>`).join('\n')
          : `<p>${req.url}</p>`;
      const timer = setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>t</title>${body}`),
        RESPONSE_MS,
      );
      res.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, address, () => resolve());
    });
    servers.push(server);
    origins.push(`http://${address}:${(server.address() as { port: number }).port}`);
  }
  return {
    origins,
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

describe.skipIf(skipWithout('redis-server', serverMissing))(
  `two Redis workers, one SIGKILLed${serverMissing === null ? '' : ` [SKIPPED: ${serverMissing}]`}`,
  () => {
    let redis: OwnRedis;
    let dir: string;
    beforeAll(async () => {
      redis = await startOwnRedis({ persistent: false });
      dir = mkdtempSync(join(tmpdir(), 'politely-redis-killed-'));
    });
    afterAll(async () => {
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("the survivor finishes the dead worker's URLs within about the worker TTL, not the 300 s lease", async () => {
      const hits: Hit[] = [];
      let victim: RunningCli | undefined;
      let survivor: RunningCli | undefined;
      let killed: Hit | undefined;
      const sites = await startSlowSites((hit) => {
        hits.push(hit);
        // The survivor starts once the victim is under way (so that the victim surely gets pages of
        // its own on a busy machine), and the victim is killed as soon as a page request of its own
        // reaches a server: it holds that URL's lease.
        if (survivor === undefined && hit.ua === VICTIM_UA) survivor = start(SURVIVOR_UA, 'survivor');
        if (killed === undefined && victim !== undefined && hit.ua === VICTIM_UA && hit.path.startsWith('/p/')) {
          killed = hit;
          victim.child.kill('SIGKILL');
        }
      });
      const start = (ua: string, name: string): RunningCli =>
        startCli([
          'crawl',
          '--ua',
          ua,
          '--allow-net',
          '127.0.0.0/8',
          '--store',
          redis.url,
          '--crawl-id',
          'killed',
          '--delay',
          '0',
          '--scope',
          'any',
          '--log',
          'plain',
          '--out',
          join(dir, `${name}.jsonl`),
          ...sites.origins.map((o) => `${o}/`),
        ]);
      const startedAt = Date.now();
      victim = start(VICTIM_UA, 'victim');
      try {
        const deadline = (ms: number) =>
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error(`not over within ${ms} ms`)), ms).unref(),
          );
        const victimResult: CliResult = await Promise.race([victim.done, deadline(15_000)]);
        expect(killed, 'the victim was killed with a request in flight').toBeDefined();
        expect(victimResult.code, victimResult.stderr).toBeNull(); // killed by a signal
        expect(survivor).toBeDefined();
        const result = await Promise.race([survivor!.done, deadline(30_000)]);
        const crawlMs = Date.now() - startedAt;
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).not.toMatch(/Unhandled error event|\n\s+at |internal error/);
        // Every page fetched, by one worker or the other.
        for (const origin of sites.origins) {
          const fetched = new Set(hits.filter((h) => h.origin === origin).map((h) => h.path));
          const expected = ['/', ...Array.from({ length: PAGES }, (_, n) => `/p/${n}`)];
          expect(
            expected.filter((path) => !fetched.has(path)),
            origin,
          ).toEqual([]);
        }
        // The page the victim had in flight came back to the survivor within about the worker
        // TTL (10 s), far from the crawler's 300 s lease.
        const again = hits.find(
          (h) => h.origin === killed!.origin && h.path === killed!.path && h.ua === SURVIVOR_UA && h.at > killed!.at,
        );
        expect(again, `${killed!.origin}${killed!.path} fetched again by the survivor`).toBeDefined();
        expect(again!.at - killed!.at).toBeLessThan(13_000);
        expect(crawlMs).toBeLessThan(20_000);
      } finally {
        for (const worker of [victim, survivor])
          if (worker !== undefined && worker.child.exitCode === null && worker.child.signalCode === null)
            worker.child.kill('SIGKILL');
        await sites.close();
      }
    }, 60_000);
  },
);
