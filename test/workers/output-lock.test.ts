// Two crawl processes given the same output paths (a dataset file, a WARC archive): the second is
// refused with ERR_OUTPUT naming the path and the process writing it, before it writes anything;
// the first one's files hold its records alone, whole. The crawls run the BUILT packages.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWarcFile } from '../support/warc-reader.js';
import { startWorker, waitFor } from '../support/worker-process.js';

const WORKER = fileURLToPath(new URL('./fixtures/output-worker.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../../packages/crawler/dist/index.js', import.meta.url));
const PAGES = 4;

let server: Server;
let base: string;
let dir: string;
/** Page requests answer only once this is true (the first crawl holds its outputs meanwhile). */
let answering = false;
const waiting: (() => void)[] = [];
const pageHits: string[] = [];

beforeAll(async () => {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run \`pnpm build\` first (the crawls run it)`);
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.end('User-agent: *\nAllow: /\n');
    pageHits.push(`${req.url} ${String(req.headers['user-agent'])}`);
    const answer = (): void =>
      void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${req.url}</title>`);
    if (answering) answer();
    else waiting.push(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'politely-output-lock-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('outputs of two crawl processes on the same paths', () => {
  it('the second is refused, naming the path and the first process; the first writes its files alone', async () => {
    const jsonl = join(dir, 'records.jsonl');
    const warc = join(dir, 'crawl.warc.gz');
    const config = {
      seeds: Array.from({ length: PAGES }, (_, i) => `${base}/p${i}`),
      outputs: [{ path: jsonl }, { path: warc }],
    };
    const first = startWorker(WORKER, { ...config, userAgent: 'FirstBot/1.0 (+http://example.invalid/bot)' });
    try {
      await waitFor(() => pageHits.length > 0 || first.child.exitCode !== null, 20_000, "the first crawl's first page");
      expect(first.child.exitCode, first.stderr).toBeNull();

      // The WARC output alone, then the dataset alone: each is refused on its own.
      for (const outputs of [[{ path: warc }], [{ path: jsonl }]]) {
        const second = startWorker(WORKER, {
          ...config,
          outputs,
          userAgent: 'SecondBot/1.0 (+http://example.invalid/bot)',
        });
        expect(await second.exited, second.stderr).toBe(1);
        const failed = JSON.parse(second.stdout.trim()) as { code: string; message: string };
        const path = outputs[0]!.path;
        expect(failed.code).toBe('ERR_OUTPUT');
        expect(failed.message).toBe(
          `could not write ${path}: process ${first.child.pid} on ${hostname()} is writing it (lock ${path}.lock): give each worker of a crawl outputs of its own, or remove the lock if no crawl writes there`,
        );
      }
      expect(pageHits.filter((hit) => hit.includes('SecondBot'))).toEqual([]);

      answering = true;
      for (const answer of waiting.splice(0)) answer();
      expect(await first.exited, first.stderr).toBe(0);
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }
    // The dataset: the first crawl's records, each once; the locks are gone.
    const records = readFileSync(jsonl, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; ua: string });
    expect(records.map((r) => r.url).sort()).toEqual(config.seeds.slice().sort());
    expect(new Set(records.map((r) => r.ua))).toEqual(new Set(['FirstBot/1.0 (+http://example.invalid/bot)']));
    expect(readdirSync(dir).filter((name) => name.endsWith('.lock'))).toEqual([]);
    // The archive: one file, well formed, one warcinfo, a response per page (and robots.txt), all the first crawl's.
    const files = readdirSync(dir).filter((name) => name.endsWith('.warc.gz'));
    expect(files).toEqual(['crawl-00000.warc.gz']);
    const read = await readWarcFile(join(dir, files[0]!));
    expect(read.problems).toEqual([]);
    expect(read.records.filter((r) => r.type === 'warcinfo')).toHaveLength(1);
    const requests = read.records.filter((r) => r.type === 'request');
    expect(requests.map((r) => r.http?.header('user-agent'))).toEqual(
      requests.map(() => 'FirstBot/1.0 (+http://example.invalid/bot)'),
    );
    const responses = read.records.filter((r) => r.type === 'response').map((r) => r.header('WARC-Target-URI'));
    expect(responses.sort()).toEqual([`${base}/robots.txt`, ...config.seeds].sort());
  }, 60_000);
  it('a lock left by a process killed with SIGKILL is taken over at once', async () => {
    const jsonl = join(dir, 'killed.jsonl');
    const warc = join(dir, 'killed.warc.gz');
    const config = { seeds: [`${base}/p0`], outputs: [{ path: jsonl }, { path: warc }] };
    answering = false;
    const hitsBefore = pageHits.length;
    const killed = startWorker(WORKER, { ...config, userAgent: 'KilledBot/1.0 (+http://example.invalid/bot)' });
    try {
      await waitFor(() => pageHits.length > hitsBefore || killed.child.exitCode !== null, 20_000, 'its first page');
      expect(
        readdirSync(dir)
          .filter((name) => name.startsWith('killed') && name.endsWith('.lock'))
          .sort(),
      ).toEqual(['killed.jsonl.lock', 'killed.warc.gz.lock']);
      killed.child.kill('SIGKILL');
      expect(await killed.exited).toBeNull();
    } finally {
      if (killed.child.exitCode === null) killed.child.kill('SIGKILL');
      answering = true;
      for (const answer of waiting.splice(0)) answer();
    }
    const next = startWorker(WORKER, {
      seeds: config.seeds,
      outputs: config.outputs.map((output) => ({ ...output, overwrite: true })),
      userAgent: 'NextBot/1.0 (+http://example.invalid/bot)',
    });
    expect(await next.exited, next.stdout + next.stderr).toBe(0);
    expect(readFileSync(jsonl, 'utf8')).toContain('NextBot');
    expect(readdirSync(dir).filter((name) => name.includes('.lock'))).toEqual([]);
  }, 60_000);
});
