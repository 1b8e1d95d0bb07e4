// A crawl that pushes records, killed with SIGKILL again and again and resumed on the same
// SQLite file: every record in its JSON lines and CSV outputs exactly once at the end, and never
// half a record. The crawl runs in a child process on the built packages (`pnpm build`).

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, waitFor } from '../support/worker-process.js';

const WORKER = fileURLToPath(new URL('./fixtures/push-worker.mjs', import.meta.url));
const BUILT = [
  fileURLToPath(new URL('../../packages/crawler/dist/index.js', import.meta.url)),
  fileURLToPath(new URL('../../packages/store-sqlite/dist/index.js', import.meta.url)),
];
/** A tree of pages: /p/N links to /p/2N+1 and /p/2N+2. */
const PAGES = 150;
const RECORDS_PER_PAGE = 4;
const KILLS = 5;

let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path === '/robots.txt') return void res.end('User-agent: *\nAllow: /\n');
    const match = /^\/p\/(\d+)$/.exec(path);
    const n = match === null ? -1 : Number(match[1]);
    if (n < 0 || n >= PAGES) {
      res.statusCode = 404;
      return void res.end('not here');
    }
    const links = [1, 2].map((i) => 2 * n + i).filter((m) => m < PAGES);
    setTimeout(() => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<html><body>${links.map((m) => `<a href="/p/${m}">${m}</a>`).join(' ')}</body></html>`);
    }, 5);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'politely-dataset-kill-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const linesIn = (path: string): number => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0);

/** The records of a CSV file written by the worker (no line breaks inside its fields). */
function csvRecords(path: string): string[][] {
  const rows = readFileSync(path, 'utf8').split('\r\n');
  expect(rows.pop()).toBe('');
  return rows.map((row) => (/^([^,]*),([^,]*),"(.*)"$/.exec(row) ?? [row, ...row.split(',')]).slice(1));
}

describe('records pushed by a crawl killed with SIGKILL and resumed', () => {
  it(`are each in the JSON lines and CSV outputs exactly once after ${KILLS} kills`, async () => {
    for (const file of BUILT)
      if (!existsSync(file))
        throw new Error(`${file} is missing: run \`pnpm build\` first (the worker runs the built packages)`);
    const jsonl = join(dir, 'records.jsonl');
    const csv = join(dir, 'records.csv');
    const config = {
      db: join(dir, 'crawl.db'),
      seeds: [`${base}/p/0`],
      outputs: [{ path: jsonl }, { path: csv }],
      recordsPerPage: RECORDS_PER_PAGE,
      pauseMs: 3,
    };
    let killedAt = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const run = startWorker(WORKER, config);
      // Let it write some records past what the file held, then kill it mid-whatever.
      const target = linesIn(jsonl) + 20 + 7 * kill;
      await waitFor(
        () => linesIn(jsonl) >= target || run.child.exitCode !== null,
        20_000,
        `run ${kill + 1} to write ${target} records`,
      );
      expect(run.child.exitCode, `run ${kill + 1} ended before the kill: ${run.stderr}`).toBeNull();
      run.child.kill('SIGKILL');
      expect(await run.exited).toBeNull();
      killedAt = linesIn(jsonl);
    }
    expect(killedAt).toBeLessThan(PAGES * RECORDS_PER_PAGE);

    const last = startWorker(WORKER, config);
    expect(await last.exited, last.stderr).toBe(0);
    const done = JSON.parse(last.stdout.trim().split('\n').pop()!) as {
      outputs: { records: number; earlier: number }[];
    };
    expect(done.outputs[0]!.earlier).toBeGreaterThan(0);

    const expected = new Set<string>();
    for (let n = 0; n < PAGES; n++) for (let i = 0; i < RECORDS_PER_PAGE; i++) expected.add(`${base}/p/${n} ${i}`);
    const text = readFileSync(jsonl, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const records = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; i: number; note: string });
    const keys = records.map((record) => `${record.url} ${record.i}`);
    expect(keys).toHaveLength(expected.size);
    expect(new Set(keys)).toEqual(expected);
    expect(done.outputs[0]!.records + done.outputs[0]!.earlier).toBe(expected.size);

    const rows = csvRecords(csv);
    expect(rows[0]).toEqual(['url', 'i', 'note']);
    const csvKeys = rows.slice(1).map((row) => `${row[0]} ${row[1]}`);
    expect(csvKeys).toHaveLength(expected.size);
    expect(new Set(csvKeys)).toEqual(expected);
    expect(rows.slice(1).every((row) => row[2] === `record ${row[1]}, ""quoted""`)).toBe(true);
  }, 180_000);
});
