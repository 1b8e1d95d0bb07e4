// `politely crawl`, run as a user runs it (the real bin, in a child process) against the demo
// web on loopback; politeness is checked against the servers' own request logs.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocalWeb, minGapMsByOrigin, violations } from '@politely/demo-web';
import { beforeEach, describe, expect, it } from 'vitest';
import { useDemoWebAndDir } from './demo-web-fixture.js';
import { jsonLines, runCli, startCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const FIELDS = [
  'url',
  'finalUrl',
  'status',
  'contentType',
  'depth',
  'title',
  'bytes',
  'fetchedAt',
  'noindex',
  'nofollow',
  'canonical',
  'usage',
  'usageSources',
  'change',
];

let web: LocalWeb;
let dir: string;

useDemoWebAndDir('politely-crawl-', (fixture) => ({ web, dir } = fixture));
beforeEach(() => web.resetLogs());

/** RFC 4180 CSV → rows of fields (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field), rows.push(row), (row = []), (field = ''), i++;
    } else field += c;
  }
  return rows;
}

/** Requests closer together than the host's crawl-delay, by the server's clock. */
function tooClose(minDelayMs: number): string[] {
  const gaps = minGapMsByOrigin(web.requestLog());
  return web.hosts.flatMap((host) => {
    const gap = gaps.get(host.origin);
    const delay = Math.max(minDelayMs, (host.crawlDelaySeconds ?? 0) * 1000);
    return gap !== undefined && gap < delay ? [`${host.name}: ${gap} ms < ${delay} ms`] : [];
  });
}

describe.concurrent('politely crawl: usage errors', () => {
  it('without --ua, says it is required in one line and exits 2', async () => {
    const result = await runCli(['crawl', web.entryUrl]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "politely: crawl: --ua is required: name your crawler and how to reach you, e.g. --ua 'MyBot/1.0 (+https://example.com/bot)'\n",
    );
  });

  it.each([
    [['--max-pages', 'ten'], '--max-pages: expected a whole number ≥ 1, got "ten"'],
    [['--max-pages', '0'], '--max-pages: expected a whole number ≥ 1, got "0"'],
    [['--max-depth', '1.5'], '--max-depth: expected a whole number, got "1.5"'],
    [['--concurrency', '0'], '--concurrency: expected a whole number ≥ 1, got "0"'],
    [['--per-host-concurrency', '1e3'], '--per-host-concurrency: expected a whole number ≥ 1, got "1e3"'],
    [['--delay=-250'], '--delay: expected a whole number of milliseconds (or 2s, 500ms), got "-250"'],
    [['--delay', 'soon'], '--delay: expected a whole number of milliseconds (or 2s, 500ms), got "soon"'],
    [['--timeout', '0'], '--timeout: expected a whole number of milliseconds ≥ 1 (or 2s, 500ms), got "0"'],
    [['--scope', 'everything'], '--scope: expected one of same-origin, same-host, same-domain, any, got "everything"'],
    [['--log', 'xml'], '--log: expected one of plain, json, got "xml"'],
    [
      ['--store', 'postgres://x'],
      '--store: expected memory, sqlite:FILE, redis://HOST:PORT/DB or redis-cluster://HOST:PORT,HOST:PORT, got "postgres://x"',
    ],
    [['--store', 'redis://127.0.0.1:6379/0'], '--store redis://… needs --crawl-id NAME'],
    [['--crawl-id', 'x'], '--crawl-id names a crawl in a redis:// store'],
    [
      ['--allow-net', '127.0.0.0/99'],
      '--allow-net: expected a network like 127.0.0.0/8 or an address, got "127.0.0.0/99"',
    ],
    [['--recrawl'], '--recrawl revisits what an earlier crawl fetched: give its --store sqlite:FILE'],
    [
      ['--revisit-min', 'weekly'],
      '--revisit-min: expected a whole number of milliseconds (or 2s, 500ms), got "weekly"',
    ],
    [['--revisit-min', '2d', '--revisit-max', '1d'], '--revisit-max (1d) must be at least --revisit-min (2d)'],
  ])('%j: names the option and the value, exits 2', async (flags, message) => {
    const result = await runCli(['crawl', '--ua', UA, ...flags, web.entryUrl]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`politely: crawl: ${message}`);
    expect(result.stderr.split('\n')[0]).toMatch(/^politely: crawl: /);
    expect(web.requestLog()).toEqual([]);
  });

  it('rejects a seed that is not an http(s) URL, a user agent without a product token, an unwritable --out', async () => {
    const seed = await runCli(['crawl', '--ua', UA, 'ftp://127.0.0.2/']);
    expect(seed).toMatchObject({
      code: 2,
      stderr: 'politely: crawl: invalid seed "ftp://127.0.0.2/": not an absolute http(s) URL\n',
    });
    const ua = await runCli(['crawl', '--ua', '/1.0', web.entryUrl]);
    expect(ua.code).toBe(2);
    expect(ua.stderr).toMatch(/^politely: crawl: --ua must start with a product token/);
    const out = await runCli(['crawl', '--ua', UA, '--out', join(dir, 'missing', 'x.jsonl'), web.entryUrl]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^politely: crawl: --out ".*x\.jsonl": cannot write there \(ENOENT\)/);
    const none = await runCli(['crawl', '--ua', UA]);
    expect(none).toMatchObject({
      code: 2,
      stderr: 'politely: crawl: give at least one seed URL (see politely crawl --help)\n',
    });
  });

  it('refuses loopback hosts without --allow-net (the SSRF guard): a counted skip, nothing requested', async () => {
    const result = await runCli(['crawl', '--ua', UA, '--log', 'json', web.url('docs', '/')]);
    // Every seed refused: the crawl says so (with --log json, in a JSON line at level error) and exits 1.
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(jsonLines(result.stdout).at(-1)).toMatchObject({
      level: 'error',
      event: 'nothing-fetched',
      msg: expect.stringContaining('nothing was fetched'),
    });
    expect(result.stdout).toContain('blocked-address');
    expect(web.requestLog()).toEqual([]);
  });

  it('--help prints the crawl usage and exits 0', async () => {
    const result = await runCli(['crawl', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('politely crawl --ua UA [options] SEED...');
    expect(result.stdout).toContain('--per-host-concurrency N');
  });
});

describe('politely crawl', () => {
  it('writes JSON lines, CSV and a report, logs plain lines off a terminal, and stays polite', async () => {
    const jsonl = join(dir, 'pages.jsonl');
    const csv = join(dir, 'pages.CSV');
    const report = join(dir, 'report.html');
    const seeds = [web.url('legacy', '/'), web.url('events', '/')];
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--max-depth',
      '3',
      '--delay',
      '50',
      '--out',
      jsonl,
      '--out',
      csv,
      '--report',
      report,
      '--status-interval',
      '500',
      ...seeds,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    // The servers saw no request robots.txt forbids, and no two requests to a host closer than its delay.
    expect(violations(web, UA)).toEqual([]);
    expect(tooClose(50)).toEqual([]);
    expect(web.requestLog().some((entry) => entry.path === '/private/archive')).toBe(false);

    // One JSON line per fetched page, with every field.
    const records = jsonLines(readFileSync(jsonl, 'utf8')) as Record<string, unknown>[];
    expect(records.length).toBeGreaterThan(10);
    for (const record of records) expect(Object.keys(record)).toEqual(FIELDS);
    const chain = records.find((record) => record['url'] === web.url('legacy', '/chain/start'));
    expect(chain).toMatchObject({
      finalUrl: web.url('legacy', '/chain/end'),
      status: 200,
      depth: 1,
      title: 'End of the chain · Loopback Supply (old site)',
      noindex: false,
    });
    expect(typeof chain?.['bytes']).toBe('number');
    expect(Date.parse(String(chain?.['fetchedAt']))).not.toBeNaN();
    const served = new Set(
      web
        .requestLog()
        .filter((entry) => entry.status === 200 && entry.path !== '/robots.txt')
        .map((entry) => entry.origin + entry.path),
    );
    for (const record of records) expect(served.has(String(record['finalUrl']))).toBe(true);

    // The same records as CSV (the extension is matched case-insensitively), properly quoted.
    const rows = parseCsv(readFileSync(csv, 'utf8'));
    expect(rows[0]).toEqual(FIELDS);
    expect(rows.slice(1).map((row) => row[0])).toEqual(records.map((record) => record['url']));
    expect(rows.slice(1).map((row) => row[5])).toEqual(records.map((record) => record['title'] ?? ''));
    expect(rows.every((row) => row.length === FIELDS.length)).toBe(true);

    // Log lines: requests with their status, skips with their reason, status lines, then the summary.
    expect(result.stdout).toMatch(/^200 robots  http:\/\/127\.0\.0\.\d+:\d+\/robots\.txt \(success, \d+ ms\)$/m);
    expect(result.stdout).toMatch(/^200 page    http:\/\/\S+\/chain\/end \(\d+ ms, \d+ B\)$/m);
    expect(result.stdout).toMatch(/^302 page    http:\/\/\S+\/chain\/start /m);
    expect(result.stdout).toMatch(/^skip robots http:\/\/\S+\/tickets\/\S+ \(line \d+: Disallow: \/tickets\/\)$/m);
    expect(result.stdout).toMatch(/^skip depth http:\/\/\S+\/calendar\//m);
    expect(result.stdout).toMatch(
      /^status  \d+ pages, \d+ requests, \d+ queued, \d+ hosts, [\d.]+ pages\/s, 0 errors, skipped: /m,
    );
    expect(result.stdout).toContain(`Crawl finished in `);
    expect(result.stdout).toContain(`  results     ${jsonl} (${records.length} JSON lines)`);
    expect(result.stdout).toContain(`  results     ${csv} (${records.length} CSV rows)`);
    expect(result.stdout).toContain(`  report      ${report}`);
    expect(result.stdout).toMatch(/^ {2}requests +\d+ \(2 robots\.txt\)$/m);
    expect(result.stdout).not.toContain('\u001b['); // no terminal codes off a terminal

    const html = readFileSync(report, 'utf8');
    expect(html).toContain('<!doctype html>');
    expect(html).toContain('Polite: at every one of');
    expect(html).toContain('Disallow: /tickets/');
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|src="http/);
  });

  it('--log json writes one JSON object per line, the summary last', async () => {
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--log',
      'json',
      '--max-pages',
      '3',
      '--status-interval',
      '200',
      web.url('docs', '/'),
    ]);
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout) as Record<string, unknown>[];
    expect(lines.map((line) => line['event'])).toContain('robots');
    expect(lines.filter((line) => line['event'] === 'response')).toHaveLength(3);
    expect(lines.at(-1)).toMatchObject({ event: 'summary', pages: 3, interrupted: false, errors: 0 });
    expect(lines.find((line) => line['event'] === 'skip')).toMatchObject({
      reason: expect.any(String),
      url: expect.any(String),
    });
    expect(violations(web, UA)).toEqual([]);
  });

  it('stops cleanly on Ctrl-C: exit 130, outputs flushed, and it says what was kept', async () => {
    const jsonl = join(dir, 'interrupted.jsonl');
    const report = join(dir, 'interrupted.html');
    const run = startCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--out',
      jsonl,
      '--report',
      report,
      web.url('shop', '/'),
    ]);
    await run.waitFor(/^200 page .*\n(.*\n)*200 page .*\n(.*\n)*200 page /m);
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(
      'politely: stopping (SIGINT): no new requests; those in flight get 10.0 s to end, then outputs are written',
    );
    const records = jsonLines(readFileSync(jsonl, 'utf8'));
    expect(records.length).toBeGreaterThanOrEqual(3);
    const kept =
      /^Kept: (\d+) pages written to (.+); (\d+) URLs still queued in memory: lost on exit \(use --store sqlite:FILE to keep them\)\.$/m.exec(
        result.stdout,
      );
    expect(kept?.[1]).toBe(String(records.length));
    expect(kept?.[2]).toBe(jsonl);
    expect(Number(kept?.[3])).toBeGreaterThan(0);
    expect(result.stdout).toMatch(/^Crawl interrupted after /m);
    expect(readFileSync(report, 'utf8')).toContain('Stopped before the end (interrupted)');
    expect(violations(web, UA)).toEqual([]);
    expect(tooClose(250)).toEqual([]);
  });

  it('with --store sqlite:FILE, a crawl stopped by Ctrl-C is resumed by the same command', async () => {
    const db = join(dir, 'crawl.db');
    const first = join(dir, 'first.jsonl');
    const second = join(dir, 'second.jsonl');
    const seed = web.url('docs', '/');
    const run = startCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--store',
      `sqlite:${db}`,
      '--delay',
      '0',
      '--out',
      first,
      seed,
    ]);
    await run.waitFor(/^200 page .*\n(.*\n)*200 page /m);
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stdout).toMatch(
      new RegExp(
        `URLs still queued in ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: run the same command again to resume`,
      ),
    );
    const resumed = await runCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--store',
      `sqlite:${db}`,
      '--delay',
      '0',
      '--out',
      second,
      seed,
    ]);
    expect(resumed.code).toBe(0);
    expect(existsSync(db)).toBe(true);
    const urls = [...jsonLines(readFileSync(first, 'utf8')), ...jsonLines(readFileSync(second, 'utf8'))].map(
      (r) => (r as { url: string }).url,
    );
    const docs = web.host('docs');
    const expected = docs.expectedAllowedPaths.map((path) => docs.origin + path);
    expect(new Set(urls)).toEqual(new Set(expected));
    // At most the one request in flight at the stop is fetched twice.
    expect(urls.length - new Set(urls).size).toBeLessThanOrEqual(1);
    // robots.txt came from the crawl file the second time.
    expect(
      web.requestLog().filter((entry) => entry.origin === docs.origin && entry.path === '/robots.txt'),
    ).toHaveLength(1);
    expect(violations(web, UA)).toEqual([]);
  });
});
