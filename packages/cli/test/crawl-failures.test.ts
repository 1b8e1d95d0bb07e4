// `politely crawl` when what is outside it fails: a full disk, a descriptor that cannot be
// written, a SIGKILL, an output left from another crawl, seeds that are all refused. Each case
// runs the real bin against a site on loopback whose own log says what was fetched.

import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteFrontierStore } from '@politely/store-sqlite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jsonLines, type RunningCli, runCli, startCli } from './run-cli.js';

const UA = 'FailBot/1.0 (+https://example.invalid/bot)';
/** A tree of pages: /p/N links to /p/3N+1 … /p/3N+3, each answered after a short wait. */
const PAGES = 240;
const LATENCY_MS = 15;

let server: Server;
let base: string;
let log: string[] = [];
let dir: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    log.push(path);
    // A rule with an escape sequence in it: the crawl's log must not pass it to the terminal.
    if (path === '/robots.txt') {
      res.end('User-agent: *\nAllow: /\nDisallow: /blocked\u001b[2J\n');
      return;
    }
    const match = /^\/p\/(\d+)$/.exec(path);
    const n = match === null ? -1 : Number(match[1]);
    if (n < 0 || n >= PAGES) {
      res.statusCode = 404;
      res.end('not here');
      return;
    }
    const links = [1, 2, 3].map((i) => 3 * n + i).filter((m) => m < PAGES);
    setTimeout(() => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<html><head><title>Page ${n}</title></head><body>${links.map((m) => `<a href="/p/${m}">${m}</a>`).join(' ')}<p>${'text '.repeat(40)}</p></body></html>`,
      );
    }, LATENCY_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'politely-failures-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  log = [];
});

const allPages = (): string[] => Array.from({ length: PAGES }, (_, n) => `${base}/p/${n}`);
const crawlArgs = (...extra: string[]): string[] => [
  'crawl',
  '--ua',
  UA,
  '--allow-net',
  '127.0.0.0/8',
  '--delay',
  '0',
  '--per-host-concurrency',
  '4',
  '--log',
  'plain',
  ...extra,
  `${base}/p/0`,
];
const finalUrls = (file: string): string[] =>
  jsonLines(readFileSync(file, 'utf8')).map((record) => (record as { finalUrl: string }).finalUrl);
const pagesServed = (): string[] =>
  [...new Set(log.filter((path) => path.startsWith('/p/')))].map((path) => `${base}${path}`);

/** Every URL a crawl file still has to do (queued, or left in flight for the next owner to hand back). */
function notDoneIn(db: string): string[] {
  // A shared store takes no ownership, so it hands nothing back: the file is read as it was left.
  const store = createSqliteFrontierStore({ path: db, shared: true });
  try {
    return store.db.prepare<[], string>('SELECT key FROM urls WHERE state <> 2').pluck().all();
  } finally {
    void store.close();
  }
}

/** A 64 KiB tmpfs, when this process may mount one (root, as in CI); undefined otherwise. */
function mountTinyDisk(): string | undefined {
  const mountPoint = join(dir, `tiny-${Date.now()}`);
  mkdirSync(mountPoint);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return mountPoint;
  } catch {
    return undefined;
  }
}
const unmount = (mountPoint: string): void => {
  execFileSync('umount', [mountPoint], { stdio: 'ignore' });
};
const canMount = (() => {
  const probe = mkdtempSync(join(tmpdir(), 'politely-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

describe('politely crawl: a disk that fills or a file that cannot be written', () => {
  it.runIf(canMount || process.env.CI === 'true')(
    'a full disk under --out stops the crawl within seconds, exit 74, the file named, every URL not written kept in the store',
    async () => {
      const disk = mountTinyDisk();
      expect(disk, 'mounting a tmpfs (CI runs as root)').toBeDefined();
      try {
        const out = join(disk!, 'out.jsonl');
        const db = join(dir, 'full-disk.db');
        // 40 KiB taken already: the records fill the rest after a few dozen pages.
        writeFileSync(join(disk!, 'filler'), Buffer.alloc(40 * 1024));
        const started = Date.now();
        const result = await runCli(crawlArgs('--store', `sqlite:${db}`, '--out', out));
        expect(Date.now() - started).toBeLessThan(20_000);
        expect(result.code).toBe(74);
        expect(result.stderr).toContain(`politely: could not write ${out}: ENOSPC`);
        expect(result.stderr).not.toMatch(/\n\s+at |MaxListeners|Unhandled/);
        // The file ends in a whole record, and every page fetched but not in it is still queued.
        const text = readFileSync(out, 'utf8');
        expect(text.endsWith('\n')).toBe(true);
        const written = new Set(finalUrls(out));
        expect(written.size).toBeGreaterThan(0);
        expect(written.size).toBeLessThan(PAGES);
        const queued = new Set(notDoneIn(db));
        for (const url of pagesServed()) if (!written.has(url)) expect(queued.has(url), url).toBe(true);
        // Resuming where there is room again finishes the crawl: every page once.
        const roomy = join(dir, 'after-full.jsonl');
        writeFileSync(roomy, text);
        const resumed = await runCli(crawlArgs('--store', `sqlite:${db}`, '--out', roomy));
        expect(resumed.code, resumed.stderr).toBe(0);
        const urls = finalUrls(roomy);
        expect(urls.length).toBe(PAGES);
        expect(new Set(urls)).toEqual(new Set(allPages()));
      } finally {
        unmount(disk!);
      }
    },
    60_000,
  );

  it.runIf(canMount || process.env.CI === 'true')(
    'a full disk under --report: exit 74, one line naming it, no half-written report',
    async () => {
      const disk = mountTinyDisk();
      expect(disk).toBeDefined();
      try {
        writeFileSync(join(disk!, 'filler'), Buffer.alloc(60 * 1024));
        const report = join(disk!, 'report.html');
        const result = await runCli(crawlArgs('--max-pages', '20', '--report', report));
        expect(result.code).toBe(74);
        expect(result.stderr.trim().split('\n')).toEqual([
          expect.stringMatching(
            new RegExp(`^politely: could not write ${report.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOSPC`),
          ),
        ]);
        expect(existsSync(report)).toBe(false);
      } finally {
        unmount(disk!);
      }
    },
    60_000,
  );

  it('a descriptor that fails every write (/dev/full): exit 74 at the first page, nothing counted as written', async () => {
    const db = join(dir, 'dev-full.db');
    const started = Date.now();
    const result = await runCli(crawlArgs('--store', `sqlite:${db}`, '--out', '/dev/full'));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.code).toBe(74);
    expect(result.stderr).toContain('politely: could not write /dev/full: ENOSPC');
    // No page counts as done: the seed and whatever was in flight are still queued.
    const store = createSqliteFrontierStore({ path: db });
    const counts = await store.counts();
    await store.close();
    expect(counts.done).toBe(0);
    expect(counts.queued).toBeGreaterThan(0);
    expect(notDoneIn(db)).toContain(`${base}/p/0`);
  }, 30_000);
});

describe('politely crawl: an output whose folder is removed mid-crawl', () => {
  it('stops with exit 74 and a line naming the file, and keeps every page not written in the store', async () => {
    const folder = join(dir, 'doomed');
    mkdirSync(folder);
    const out = join(folder, 'out.jsonl');
    const db = join(dir, 'doomed.db');
    // Slowed down (one request at a time, 20 ms apart: about 8 s in all) so it is surely mid-crawl.
    const run = startCli(
      crawlArgs('--store', `sqlite:${db}`, '--out', out, '--delay', '20', '--per-host-concurrency', '1'),
    );
    await run.waitFor(/^200 page /m, 10_000);
    rmSync(folder, { recursive: true, force: true });
    const result = await run.done;
    expect(result.code).toBe(74);
    expect(result.stderr).toContain(`politely: could not write ${out}: the file was deleted (or its folder removed)`);
    expect(notDoneIn(db).length).toBeGreaterThan(0);
  }, 30_000);
});

describe('politely crawl: resume after SIGKILL', () => {
  it('five SIGKILLs and resumes of the same command: every page in the output exactly once, no resume waits for a dead lease', async () => {
    const db = join(dir, 'killed.db');
    const out = join(dir, 'killed.jsonl');
    const args = crawlArgs('--store', `sqlite:${db}`, '--out', out);
    for (let kill = 0; kill < 5; kill++) {
      const run: RunningCli = startCli(args);
      const started = Date.now();
      // Let it write a few pages (the first within seconds: no dead lease holds the host).
      await run.waitFor(/^200 page /m, 8_000);
      expect(Date.now() - started, `run ${kill + 1}: first page`).toBeLessThan(8_000);
      await run.waitFor(new RegExp(`(^200 page .*\\n(.*\\n)*){${12 + kill}}`, 'm'), 15_000);
      run.child.kill('SIGKILL');
      await run.done;
    }
    const last = await runCli(args);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).not.toMatch(/\n\s+at /);
    const urls = finalUrls(out);
    expect(urls.length).toBe(PAGES);
    expect(new Set(urls)).toEqual(new Set(allPages()));
    expect(last.stdout).toMatch(
      new RegExp(
        `results +${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ JSON lines, \\d+ more from earlier runs\\)`,
      ),
    );
  }, 120_000);

  it('a record torn by a kill (a partial last line) is cut before appending', async () => {
    const db = join(dir, 'torn.db');
    const out = join(dir, 'torn.jsonl');
    const args = crawlArgs('--store', `sqlite:${db}`, '--out', out, '--max-pages', '10');
    expect((await runCli(args)).code).toBe(0);
    expect(finalUrls(out)).toHaveLength(10);
    const torn = '{"url":"http://127.0.0.1/half-writ';
    appendFileSync(out, torn);
    const resumed = await runCli(crawlArgs('--store', `sqlite:${db}`, '--out', out));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`cut ${torn.length} bytes of a record left half-written`);
    const urls = finalUrls(out); // throws on a damaged line
    expect(urls.length).toBe(PAGES);
    expect(new Set(urls)).toEqual(new Set(allPages()));
  }, 60_000);

  it('the report of a resumed crawl covers every run', async () => {
    const db = join(dir, 'report.db');
    const report = join(dir, 'report.html');
    expect((await runCli(crawlArgs('--store', `sqlite:${db}`, '--report', report, '--max-pages', '40'))).code).toBe(0);
    expect(readFileSync(report, 'utf8')).not.toContain('One crawl in');
    expect((await runCli(crawlArgs('--store', `sqlite:${db}`, '--report', report))).code).toBe(0);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('One crawl in 2 runs');
    // Every page of both runs is counted under its status.
    expect(html).toContain(`<tr><td>200</td><td>${PAGES}</td>`);
  }, 60_000);

  it('the same for CSV: one header, every page once across runs', async () => {
    const db = join(dir, 'csv.db');
    const out = join(dir, 'pages.csv');
    expect((await runCli(crawlArgs('--store', `sqlite:${db}`, '--out', out, '--max-pages', '30'))).code).toBe(0);
    expect((await runCli(crawlArgs('--store', `sqlite:${db}`, '--out', out))).code).toBe(0);
    const rows = readFileSync(out, 'utf8').trimEnd().split('\r\n');
    expect(rows.filter((row) => row.startsWith('url,finalUrl,'))).toHaveLength(1);
    expect(rows.length).toBe(PAGES + 1);
  }, 60_000);
});

describe('politely crawl: outputs that hold another crawl, seeds that are all refused', () => {
  it('a fresh crawl refuses an --out file that holds records unless --overwrite is given', async () => {
    const out = join(dir, 'existing.jsonl');
    writeFileSync(out, '{"url":"http://example.invalid/","finalUrl":"http://example.invalid/"}\n');
    const refused = await runCli(crawlArgs('--out', out, '--max-pages', '3'));
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toMatch(
      /^politely: crawl: --out .*existing\.jsonl.*: the file already holds records: pass --overwrite/,
    );
    expect(readFileSync(out, 'utf8')).toContain('example.invalid');
    const replaced = await runCli(crawlArgs('--out', out, '--max-pages', '3', '--overwrite'));
    expect(replaced.code).toBe(0);
    expect(finalUrls(out)).toHaveLength(3);
  }, 30_000);

  it('text from the web (a robots.txt rule with an escape sequence) reaches the log escaped', async () => {
    for (const format of ['plain', 'json']) {
      const result = await runCli([
        'crawl',
        '--ua',
        UA,
        '--allow-net',
        '127.0.0.0/8',
        '--log',
        format,
        `${base}/blocked%1B[2J`,
      ]);
      expect(result.code).toBe(1); // its only seed was disallowed
      expect(result.stdout).toContain('Disallow: /blocked\\u001b[2J');
      expect(result.stdout + result.stderr).not.toContain('\u001b');
    }
  }, 30_000);

  it('a crawl whose every seed is refused exits 1 naming each seed, its reason and the fix; fixed, the same store completes', async () => {
    const db = join(dir, 'refused.db');
    const out = join(dir, 'refused.jsonl');
    // Without --allow-net the SSRF guard refuses loopback: the only seed is a blocked address.
    const refused = await runCli(['crawl', '--ua', UA, '--log', 'plain', '--store', `sqlite:${db}`, `${base}/p/0`]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toMatch(/Crawl finished/);
    expect(refused.stderr).toMatch(/^politely: crawl: nothing was fetched: every seed was refused$/m);
    expect(refused.stderr).toContain(`  ${base}/p/0: blocked-address (`);
    expect(refused.stderr).toContain('--allow-net 127.0.0.0/8');
    expect(log).toEqual([]);

    // The same store, with --allow-net: the refused seed is tried again, and the crawl completes.
    const fixed = await runCli(
      crawlArgs('--store', `sqlite:${db}`, '--out', out, '--max-pages', '5', '--log', 'plain', `${base}/p/0`),
    );
    expect(fixed.code).toBe(0);
    expect(fixed.stderr).toContain('seed refused by an earlier run given again');
    expect(jsonLines(readFileSync(out, 'utf8')).length).toBe(5);
    expect(log).toContain('/p/0');
  }, 30_000);

  it('a finished crawl says there is nothing to do; --fresh starts it over (its --out needs --overwrite); --retry-failed retries failures', async () => {
    const db = join(dir, 'again.db');
    const out = join(dir, 'again.jsonl');
    const args = (...extra: string[]) =>
      crawlArgs('--store', `sqlite:${db}`, '--out', out, '--max-depth', '1', '--log', 'plain', ...extra, `${base}/p/0`);
    expect((await runCli(args())).code).toBe(0);
    // /p/0 and its three links.
    expect(jsonLines(readFileSync(out, 'utf8')).length).toBe(4);

    log = [];
    const idle = await runCli(args());
    expect(idle.code).toBe(0);
    expect(idle.stderr).toMatch(/^politely: crawl: nothing to do: 4 done, 0 failed \(--fresh to start over\)$/m);
    expect(log).toEqual([]);

    const noOverwrite = await runCli(args('--fresh'));
    expect(noOverwrite.code).not.toBe(0);
    expect(noOverwrite.stderr).toContain('overwrite');
    const fresh = await runCli(args('--fresh', '--overwrite'));
    expect(fresh.code).toBe(0);
    expect(log.filter((path) => path.startsWith('/p/')).sort()).toEqual(['/p/0', '/p/1', '/p/2', '/p/3']);
    expect(jsonLines(readFileSync(out, 'utf8')).length).toBe(4);

    // A failure kept in the store (as a crawl whose server failed would leave it) is tried again.
    const store = createSqliteFrontierStore({ path: db });
    const hostKey = new URL(base).hostname;
    await store.add([{ url: `${base}/p/4`, hostKey, depth: 1, priority: 0 }]);
    // A claim moves the host's clock to its `now`: a second ahead, the next crawl waits that long at most.
    const claimed = await store.claim({ now: Date.now() + 1000, leaseMs: 60_000 });
    expect(claimed.lease?.entry.url).toBe(`${base}/p/4`);
    await store.complete(claimed.lease!.id, {
      failure: { kind: 'failed', reason: 'fetch', message: 'HTTP 503', attempts: 3, at: Date.now() },
    });
    await store.close();
    log = [];
    const idleWithFailure = await runCli(args());
    expect(idleWithFailure.stderr).toMatch(
      /nothing to do: 5 done, 1 failed \(--retry-failed to try them again, --fresh to start over\)$/m,
    );
    const retried = await runCli(args('--retry-failed'));
    expect(retried.code).toBe(0);
    expect(retried.stderr).toContain('--retry-failed: 1 failed URL put back to be tried again');
    expect(log.filter((path) => path.startsWith('/p/'))).toEqual(['/p/4']);
    const usage = await runCli(args('--retry-failed', '--fresh'));
    expect(usage.code).toBe(2);
  }, 60_000);
});
