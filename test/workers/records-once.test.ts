// A record is in a crawl's merged output once, whichever worker wrote it. Two worker processes
// share a SQLite crawl file (`shared: true`), each writing JSON lines and CSV files of its own.
// The first is SIGKILLed at the moment its first page's records are committed in its outputs'
// ledgers and the store has not yet marked the page done (its store holds that `complete`); the
// page comes back when its lease expires, the second worker fetches it again and writes its
// records again. `mergeOutputs` then holds every page's records exactly once. The workers run
// the BUILT packages (`pnpm build`).

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeOutputs } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type WorkerRun, waitFor } from '../support/worker-process.js';

const WORKER = fileURLToPath(new URL('./fixtures/records-worker.mjs', import.meta.url));
const BUILT = ['crawler', 'store-sqlite'].map((name) =>
  fileURLToPath(new URL(`../../packages/${name}/dist/index.js`, import.meta.url)),
);
/** A tree of pages: /p/N links to /p/2N+1 and /p/2N+2. */
const PAGES = 24;

let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  for (const file of BUILT)
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm build\` first (the workers run it)`);
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.end('User-agent: *\nAllow: /\n');
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (n < 0 || n >= PAGES) return void res.writeHead(404).end('not here');
    const links = [2 * n + 1, 2 * n + 2].filter((m) => m < PAGES).map((m) => `<a href="/p/${m}">${m}</a>`);
    // A little slow, so that the second worker finds pages left to share.
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(links.join(' ')), 30);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'politely-records-once-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const events = (run: WorkerRun): { type: string; url?: string }[] =>
  run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; url?: string });

/** `url i` of each record of a JSON lines file. */
const jsonlKeys = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { url: string; i: number })
    .map((record) => `${record.url} ${record.i}`);

/** `url i` of each row of a CSV file (its header row first, then the records). */
const csvRows = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\r\n')
    .filter((row) => row !== '')
    .map((row) => row.split(',').join(' '));

describe('mergeOutputs: the outputs of two workers, one killed between commit and done', () => {
  it('holds every page’s records exactly once, though both workers wrote the killed page', async () => {
    const files = (name: string) => ({ jsonl: join(dir, `${name}.jsonl`), csv: join(dir, `${name}.csv`) });
    const [victimFiles, survivorFiles] = [files('victim'), files('survivor')];
    const config = (name: string, paths: { jsonl: string; csv: string }) => ({
      db: join(dir, 'crawl.db'),
      seeds: [`${base}/p/0`],
      outputs: [{ path: paths.jsonl }, { path: paths.csv, fields: ['url', 'i'] }],
      userAgent: `${name}/1.0 (+http://example.invalid/bot)`,
    });
    const victim = startWorker(WORKER, { ...config('Victim', victimFiles), stopAtFirstDone: true });
    let survivor: WorkerRun | undefined;
    try {
      await waitFor(
        () => events(victim).some((e) => e.type === 'completing') || victim.child.exitCode !== null,
        20_000,
        'the first worker to commit its first page',
      );
      const killedPage = events(victim).find((e) => e.type === 'completing')!.url!;
      // Committed in both of its outputs' ledgers, and not done in the store.
      for (const path of [victimFiles.jsonl, victimFiles.csv])
        expect(readFileSync(`${path}.ledger`, 'utf8')).toContain(`"page":${JSON.stringify(killedPage)}`);
      survivor = startWorker(WORKER, config('Survivor', survivorFiles));
      await waitFor(
        () => events(survivor!).some((e) => e.type === 'request') || survivor!.child.exitCode !== null,
        20_000,
        'the second worker to make a request',
      );
      victim.child.kill('SIGKILL');
      expect(await victim.exited).toBeNull();
      expect(await survivor.exited, survivor.stderr).toBe(0);

      const expected = Array.from({ length: PAGES }, (_, n) => [0, 1].map((i) => `${base}/p/${n} ${i}`)).flat();
      // The killed page's records are in both workers' files: the second fetched it again.
      const both = [...jsonlKeys(victimFiles.jsonl), ...jsonlKeys(survivorFiles.jsonl)];
      expect(both.filter((key) => key === `${killedPage} 0`)).toHaveLength(2);
      expect(events(survivor).filter((e) => e.type === 'request' && e.url === killedPage)).toHaveLength(1);

      const merged = await mergeOutputs({
        inputs: [victimFiles.jsonl, survivorFiles.jsonl],
        output: join(dir, 'merged.jsonl'),
      });
      const keys = jsonlKeys(join(dir, 'merged.jsonl'));
      expect(keys.slice().sort()).toEqual(expected.slice().sort());
      expect(merged).toMatchObject({ format: 'jsonl', records: expected.length, pages: PAGES });
      expect(merged.duplicatePages).toBeGreaterThanOrEqual(1);
      expect(merged.duplicateRecords).toBe(2 * merged.duplicatePages);

      const mergedCsv = await mergeOutputs({
        inputs: [victimFiles.csv, survivorFiles.csv],
        output: join(dir, 'merged.csv'),
      });
      const rows = csvRows(join(dir, 'merged.csv'));
      expect(rows[0]).toBe('url i');
      expect(rows.slice(1).sort()).toEqual(expected.slice().sort());
      expect(mergedCsv).toMatchObject({ format: 'csv', records: expected.length, pages: PAGES });

      // The merged file's ledger makes it an input like any other: merged again, nothing changes.
      const again = await mergeOutputs({
        inputs: [join(dir, 'merged.jsonl'), survivorFiles.jsonl],
        output: join(dir, 'again.jsonl'),
      });
      expect(readFileSync(join(dir, 'again.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'merged.jsonl'), 'utf8'));
      expect(again).toMatchObject({
        records: expected.length,
        pages: PAGES,
        duplicateRecords: jsonlKeys(survivorFiles.jsonl).length,
      });
    } finally {
      for (const run of [victim, survivor])
        if (run !== undefined && run.child.exitCode === null && run.child.signalCode === null)
          run.child.kill('SIGKILL');
    }
  }, 90_000);
});
