// Two `politely crawl` workers of one Redis crawl given the same --warc (or --out) path: the
// second is refused (exit 74), naming the path and the first process, before it fetches
// anything. Given files of their own, their --out files merge with `politely outputs merge`,
// each page's record once.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteRedisCrawl } from '@politely/store-redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { REDIS_URL, redisDown } from './redis-available.js';
import { runCli, startCli } from './run-cli.js';

const downReason = await redisDown();
if (downReason !== null)
  console.warn(`[cli] outputs-merge: Redis cases SKIPPED: no Redis at ${REDIS_URL}: ${downReason}`);

const PAGES = 6;
let server: Server;
let base: string;
let dir: string;
const hits: string[] = [];
/** Pages answer only once this is true. */
let answering = true;
const waiting: (() => void)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.end('User-agent: *\nAllow: /\n');
    hits.push(`${req.url} ${String(req.headers['user-agent'])}`);
    const links = req.url === '/' ? Array.from({ length: PAGES }, (_, n) => `<a href="/p/${n}">${n}</a>`) : [];
    const answer = (): void =>
      void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>t</title>${links.join('')}`);
    if (answering) answer();
    else waiting.push(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'politely-cli-merge-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const crawlArgs = (crawlId: string, ua: string, files: readonly string[]): string[] => [
  'crawl',
  '--ua',
  `${ua}/1.0 (+http://example.invalid/bot)`,
  '--allow-net',
  '127.0.0.0/8',
  '--store',
  REDIS_URL,
  '--crawl-id',
  crawlId,
  '--delay',
  '0',
  '--log',
  'plain',
  ...files,
  `${base}/`,
];

describe.skipIf(skipWithout('Redis (REDIS_URL)', downReason))(
  `politely crawl workers and their outputs${downReason === null ? '' : ` [SKIPPED: ${downReason}]`}`,
  () => {
    it('refuses a second worker on the same --warc or --out path, with exit 74 naming it', async () => {
      const crawlId = `test-cli-lock-${process.pid}-${Date.now()}`;
      const warc = join(dir, 'shared.warc.gz');
      const out = join(dir, 'shared.jsonl');
      answering = false;
      const first = startCli(crawlArgs(crawlId, 'First', ['--warc', warc, '--out', out]));
      try {
        for (let i = 0; i < 1000 && !hits.some((hit) => hit.includes('First')); i++)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(
          hits.some((hit) => hit.includes('First')),
          first.stderr(),
        ).toBe(true);
        for (const files of [
          ['--warc', warc],
          ['--out', out],
        ]) {
          const second = await runCli(crawlArgs(crawlId, 'Second', files));
          const path = files[1]!;
          expect(second.code, second.stderr).toBe(74);
          expect(second.stderr).toContain(`could not write ${path}: process ${first.child.pid} on `);
          expect(second.stderr).toContain(`is writing it (lock ${path}.lock)`);
        }
        expect(hits.filter((hit) => hit.includes('Second'))).toEqual([]);
        answering = true;
        for (const answer of waiting.splice(0)) answer();
        const result = await first.done;
        expect(result.code, result.stderr).toBe(0);
      } finally {
        answering = true;
        for (const answer of waiting.splice(0)) answer();
        if (first.child.exitCode === null) first.child.kill('SIGKILL');
        await deleteRedisCrawl({ redis: REDIS_URL, crawlId });
      }
    }, 60_000);

    it('outputs merge: two workers’ --out files as one, each page once', async () => {
      const crawlId = `test-cli-merge-${process.pid}-${Date.now()}`;
      const [a, b, merged] = ['a.jsonl', 'b.jsonl', 'merged.jsonl'].map((name) => join(dir, name)) as [
        string,
        string,
        string,
      ];
      try {
        const [first, second] = await Promise.all([
          runCli(crawlArgs(crawlId, 'A', ['--out', a])),
          runCli(crawlArgs(crawlId, 'B', ['--out', b])),
        ]);
        expect([first.code, second.code], first.stderr + second.stderr).toEqual([0, 0]);
      } finally {
        await deleteRedisCrawl({ redis: REDIS_URL, crawlId });
      }
      // One file given twice is a usage error, naming them.
      const result = await runCli(['outputs', 'merge', '--json', '--out', merged, a, b, b]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`outputs merge: mergeOutputs: inputs name one file twice: ${a}, ${b}, ${b}`);
      const ok = await runCli(['outputs', 'merge', '--json', '--out', merged, a, b]);
      expect(ok.code, ok.stderr).toBe(0);
      const figures = JSON.parse(ok.stdout) as { records: number; pages: number; duplicatePages: number };
      const urls = readFileSync(merged, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { url: string }).url);
      const expected = [`${base}/`, ...Array.from({ length: PAGES }, (_, n) => `${base}/p/${n}`)];
      expect(urls.sort()).toEqual(expected.sort());
      expect(figures).toMatchObject({ records: expected.length, pages: expected.length, duplicatePages: 0 });
      // A file in the way is refused without --overwrite.
      const again = await runCli(['outputs', 'merge', '--out', merged, a, b]);
      expect(again.code).toBe(74);
      expect(again.stderr).toContain(`could not write ${merged}: it already holds records`);
    }, 60_000);
  },
);
