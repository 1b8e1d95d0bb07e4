// The usage web crawled as a user would: `politely crawl --purpose ai-train` with an output and a
// report. Judged by the usage web's manifest of the truth and its servers' own request log: no
// request for a URL reserved before fetching (robots.txt lines, tdmrep.json), no record for a page
// reserved by its own headers or meta, every other page recorded, and the report naming each
// reservation with its source.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startUsageWeb, usageManifest, violations } from '@politely/demo-web';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const dir = mkdtempSync(join(tmpdir(), 'politely-usage-web-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('politely crawl --purpose ai-train over the usage web', () => {
  it('requests nothing reserved before fetching, writes no reserved page, records the rest, and reports each reservation with its source', async () => {
    const web = await startUsageWeb();
    try {
      const out = join(dir, 'pages.jsonl');
      const report = join(dir, 'report.html');
      const result = await runCli([
        'crawl',
        '--ua',
        UA,
        '--allow-net',
        '127.0.0.0/8',
        '--scope',
        'any',
        '--delay',
        '50',
        '--purpose',
        'ai-train',
        '--out',
        out,
        '--report',
        report,
        '--log',
        'plain',
        web.url('hub', '/'),
      ]);
      expect(result.code, result.stderr).toBe(0);
      const truth = usageManifest(web, ['ai-train']);
      const requested = new Set(web.requestLog().map((entry) => `${entry.origin}${entry.path}`));
      const records = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { url: string; finalUrl: string; usage?: Record<string, string> });
      const written = new Set(records.map((record) => record.finalUrl));
      for (const { page } of truth.neverRequested) expect(requested.has(page.url), `${page.url} requested`).toBe(false);
      for (const { page } of truth.notHandled) expect(written.has(page.url), `${page.url} written`).toBe(false);
      for (const page of truth.handled) expect(written.has(page.url), `${page.url} not written`).toBe(true);
      // Records carry the verdict they were let through with.
      for (const record of records) expect(record.usage?.['ai-train'], record.finalUrl).not.toBe('reserved');
      expect(violations(web, 'PolitelyDemo')).toEqual([]);
      const html = readFileSync(report, 'utf8');
      expect(html).toContain('Usage preferences');
      // One row per mechanism the usage web uses, with the source as the site wrote it.
      for (const source of [
        'robots.txt line 9 (PolitelyDemo): Content-Usage: /research/ train-ai=n, ai-use=n',
        'Content-signal: search=yes, ai-train=no',
        '/.well-known/tdmrep.json entry 0: {&quot;location&quot;:&quot;/catalogue/&quot;',
        'header Content-Usage: train-ai=n',
        'header X-Robots-Tag: noai',
        'header tdm-reservation: 1',
        'meta &lt;meta name=&quot;robots&quot; content=&quot;noai&quot;&gt;',
        'meta &lt;meta name=&quot;tdm-reservation&quot; content=&quot;1&quot;&gt;',
      ]) {
        expect(html, source).toContain(source);
      }
    } finally {
      await web.close();
    }
  }, 120_000);
});
