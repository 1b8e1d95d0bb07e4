// `politely crawl --log json`, run as a user runs it (the real bin) against the demo web on
// loopback: every line it prints is one JSON object with a level, the skips of the report are
// all there with their reasons, warnings come as JSON too, and `--log-file` takes the lines.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocalWeb, violations } from '@politely/demo-web';
import { createSqliteFrontierStore } from '@politely/store-sqlite';
import { describe, expect, it } from 'vitest';
import type { CrawlReportData } from '../src/report/report-data.js';
import { useDemoWebAndDir } from './demo-web-fixture.js';
import { runCli } from './run-cli.js';

const UA = 'LogBot/1.0 (+https://example.invalid/bot)';
const LEVELS = ['debug', 'info', 'warn', 'error'];

let web: LocalWeb;
let dir: string;
useDemoWebAndDir('politely-log-json-', (fixture) => ({ web, dir } = fixture));

type Entry = Record<string, unknown> & { level: string; time: string; event: string };

/** Every line parsed; fails on one that is not a JSON object with a level, a time and an event. */
function entriesOf(text: string): Entry[] {
  const lines = text.split('\n').filter((line) => line !== '');
  return lines.map((line) => {
    const entry = JSON.parse(line) as Entry;
    expect(LEVELS, line).toContain(entry.level);
    expect(Number.isNaN(Date.parse(entry.time)), line).toBe(false);
    expect(typeof entry.event, line).toBe('string');
    return entry;
  });
}

/** The report the store keeps between runs (the same data the HTML report shows). */
async function storedReport(db: string): Promise<CrawlReportData> {
  const store = createSqliteFrontierStore({ path: db, shared: true });
  try {
    return (await store.loadMetadata<CrawlReportData>('cli-report'))!;
  } finally {
    await store.close();
  }
}

describe('politely crawl --log json', () => {
  it('prints only JSON lines with a level; every skip of the report is there with its reason; warnings too', async () => {
    const db = join(dir, 'crawl.db');
    const args = [
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '0',
      '--max-depth',
      '2',
      '--store',
      `sqlite:${db}`,
      '--report',
      join(dir, 'report.html'),
      '--log',
      'json',
      '--status-interval',
      '300',
      web.url('docs', '/'),
      web.url('legacy', '/'),
      web.url('status', '/'),
    ];
    const result = await runCli(args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const entries = entriesOf(result.stdout);
    expect(entries.at(-1)).toMatchObject({ level: 'info', event: 'summary', interrupted: false });
    for (const event of ['robots', 'response', 'skip', 'status', 'done'])
      expect(
        entries.some((entry) => entry.event === event),
        event,
      ).toBe(true);
    expect(entries.find((entry) => entry.event === 'response')).toMatchObject({
      url: expect.any(String),
      host: expect.any(String),
      status: expect.any(Number),
      durationMs: expect.any(Number),
    });

    // Every skip the report counts, host by host and reason by reason (duplicates are debug entries).
    const report = await storedReport(db);
    const logged = new Map<string, number>();
    for (const entry of entries.filter((e) => e.event === 'skip')) {
      const key = `${new URL(String(entry['url'])).hostname} ${String(entry['reason'])}`;
      logged.set(key, (logged.get(key) ?? 0) + 1);
    }
    const reported = new Map<string, number>();
    for (const host of report.hosts)
      for (const [reason, count] of Object.entries(host.skips))
        if (reason !== 'duplicate' && count > 0) reported.set(`${host.hostKey} ${reason}`, count);
    expect(reported.size).toBeGreaterThan(2);
    for (const [key, count] of reported) expect(logged.get(key), key).toBe(count);
    // The report leaves out hosts met only as out-of-scope links; their skips are logged all the same.
    const listed = new Set(report.hosts.map((host) => host.hostKey));
    for (const key of logged.keys())
      if (!reported.has(key)) expect(key.endsWith(' scope') && !listed.has(key.split(' ')[0]!), key).toBe(true);
    // And reason by reason, the summary's counts.
    const summary = entries.at(-1) as unknown as { skipped: Record<string, number> };
    const byReason = new Map<string, number>();
    for (const [key, count] of logged)
      byReason.set(key.split(' ')[1]!, (byReason.get(key.split(' ')[1]!) ?? 0) + count);
    const { duplicate: _duplicate, ...counted } = summary.skipped;
    expect(Object.fromEntries(byReason)).toEqual(counted);
    expect([...reported.keys()].some((key) => key.endsWith(' robots'))).toBe(true);
    expect([...reported.keys()].some((key) => key.endsWith(' depth'))).toBe(true);
    expect(violations(web, UA)).toEqual([]);

    // Run again: the seed refused (robots.txt 503) is tried again, said by a warning, and refused
    // again, said by an error; both JSON lines, nothing on stderr.
    const again = await runCli(args);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(1);
    const second = entriesOf(again.stdout);
    expect(second.filter((entry) => entry.level === 'warn')).toEqual([
      expect.objectContaining({
        event: 'warning',
        kind: 'requeued-failed',
        msg: expect.stringContaining('tried again'),
      }),
    ]);
    expect(second.filter((entry) => entry.level === 'error')).toEqual([
      expect.objectContaining({ event: 'nothing-fetched', msg: expect.stringContaining('robots-unreachable 1') }),
    ]);
  });

  it('--log-file PATH takes the lines (appended to), stdout stays empty', async () => {
    const file = join(dir, 'crawl.log');
    const args = [
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '0',
      '--max-pages',
      '3',
      '--log',
      'json',
      '--log-file',
      file,
      web.url('docs', '/'),
    ];
    for (let run = 1; run <= 2; run++) {
      const result = await runCli(args);
      expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
      const entries = entriesOf(readFileSync(file, 'utf8'));
      expect(entries.filter((entry) => entry.event === 'summary')).toHaveLength(run);
      expect(entries.filter((entry) => entry.event === 'response')).toHaveLength(3 * run);
    }
  });

  it('refuses a --log-file in a directory that does not exist, naming it', async () => {
    const result = await runCli(['crawl', '--ua', UA, '--log-file', join(dir, 'nope', 'x.log'), web.url('docs', '/')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^politely: crawl: --log-file ".*nope\/x\.log": cannot write there \(ENOENT\)\n$/);
  });
});
