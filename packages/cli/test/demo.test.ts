// `politely demo`, as a user runs it: it starts the demo web, crawls it, leaves the pages and the
// report in --out-dir, and exits 0, without one request robots.txt disallows.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '@politely/browser';
import { parseRobotsTxt } from '@politely/core';
import {
  DEMO_HOST_NAMES,
  demoProducts,
  type LocalWeb,
  type RenderWeb,
  renderManifest,
  startDemoWeb,
  startRenderWeb,
  startUsageWeb,
  type UsageWeb,
} from '@politely/demo-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReferences, readWarcFile } from '../../../test/support/warc-reader.js';
import { type CliResult, jsonLines, runCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';

let dir: string;
let result: CliResult;
/** A second demo web and usage web, for their manifests (same hosts and addresses, another port). */
let reference: LocalWeb;
let usageReference: UsageWeb;
/** The render web's reference, when Chromium is installed (the demo renders its app then). */
let renderReference: RenderWeb | undefined;
const chromium = findChromium();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'politely-demo-'));
  reference = await startDemoWeb();
  usageReference = await startUsageWeb();
  if (chromium !== undefined) renderReference = await startRenderWeb({ port: 0, firstAddress: 100 });
  // How long the demo takes is a benchmark's business, not a test's: this machine may be busy.
  result = await runCli(['demo', '--out-dir', join(dir, 'out')]);
}, 180_000);

afterAll(async () => {
  await reference.close();
  await usageReference.close();
  await renderReference?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('politely demo', () => {
  it('exits 0 and says where the results and the report are', () => {
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = join(dir, 'out');
    expect(result.stdout).toContain(`Results in ${out}:`);
    expect(result.stdout).toContain(`  pages   ${join(out, 'pages.jsonl')}`);
    expect(result.stdout).toContain(`  report  ${join(out, 'report.html')}`);
    expect(result.stdout).toMatch(/^Crawl finished in [\d.]+ s\.$/m);
    for (const name of [
      ...DEMO_HOST_NAMES,
      ...usageReference.hosts.map((host) => host.name),
      ...(renderReference?.hosts.map((host) => host.name) ?? []),
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${name} +http://127\\.0\\.0\\.\\d+:\\d+ +robots\\.txt \\d{3}`, 'm'));
    }
  });

  it('made no request robots.txt disallows, kept every crawl-delay, and found every page (by the servers’ logs)', () => {
    expect(result.stdout).toMatch(
      /✓ robots\.txt: none of the \d+ requests the servers logged went to a path their robots\.txt disallows/,
    );
    expect(result.stdout).toMatch(
      /✓ pace: at every host, requests arrived at least its crawl-delay apart \(tightest: \w+ \d+ ms ≥ \d+ ms\)/,
    );
    const coverage = /✓ coverage: (\d+) of the (\d+) pages/.exec(result.stdout);
    expect(coverage?.[1]).toBe(coverage?.[2]);
    expect(result.stdout).not.toContain('✗');
  });

  it('leaves one JSON line per page, each allowed by its host’s robots.txt, every product among them', () => {
    const records = jsonLines(readFileSync(join(dir, 'out', 'pages.jsonl'), 'utf8')) as {
      url: string;
      finalUrl: string;
      status: number;
      title: string | null;
    }[];
    expect(records.length).toBeGreaterThan(100);
    const byAddress = new Map(
      [...reference.hosts, ...usageReference.hosts, ...(renderReference?.hosts ?? [])].map((host) => [
        host.address,
        host,
      ]),
    );
    for (const record of records) {
      for (const url of [record.url, record.finalUrl]) {
        const parsed = new URL(url);
        const host = byAddress.get(parsed.hostname);
        expect(host, url).toBeDefined();
        expect(host?.robotsStatus, url).not.toBe(503);
        if (host?.robotsStatus === 200)
          expect(
            parseRobotsTxt(host.robotsTxt ?? '').isAllowed(`${host.origin}${parsed.pathname}${parsed.search}`, UA),
            url,
          ).toBe(true);
      }
    }
    const shop = reference.host('shop').address;
    const fetched = new Set(
      records
        .filter((r) => new URL(r.finalUrl).hostname === shop && r.status === 200)
        .map((r) => new URL(r.finalUrl).pathname),
    );
    for (const product of demoProducts()) expect(fetched.has(product.path), product.path).toBe(true);
    expect(records.some((r) => r.title?.includes('Loopback Supply Co.'))).toBe(true);
    if (renderReference === undefined) {
      expect(result.stdout).toContain('no Chromium on the PATH: the JavaScript site is left out');
      return;
    }
    // The JavaScript shop: every page rendered, each with the title only its script writes.
    const pathOf = (url: string): string => new URL(url).pathname + new URL(url).search;
    const app = renderReference.host('app').address;
    const rendered = new Map(
      records.filter((r) => new URL(r.finalUrl).hostname === app).map((r) => [pathOf(r.finalUrl), r.title]),
    );
    const truth = new Map(
      Object.entries(renderManifest(renderReference, UA).renderedTitles).map(([url, title]) => [pathOf(url), title]),
    );
    expect(truth.size).toBeGreaterThan(10);
    expect(rendered).toEqual(truth);
  });

  it('leaves the HTML report: polite verdicts for all thirteen hosts (the 503 host included), and what the usage web reserves, by source', () => {
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).toContain(`Polite: at every one of ${renderReference === undefined ? 13 : 15} hosts`);
    if (renderReference !== undefined)
      expect(html).toContain('Rendering (every sub-request is in the timeline and the gap check above)');
    expect(html).toContain('<h4>Usage preferences</h4>');
    expect(html).toContain('header tdm-reservation: 1');
    expect(html).toContain('Content-signal: search=yes, ai-train=no');
    expect(html).not.toContain('verdict bad');
    for (const name of DEMO_HOST_NAMES) expect(html).toContain(`${name} <span class="key">127.0.0.`);
    expect(html).toMatch(/503 · unreachable: all disallowed \(\d fetches\)/);
    expect(existsSync(join(dir, 'out', 'pages.jsonl'))).toBe(true);
  });

  it('leaves a WARC archive of every request the servers logged, that reads end to end, with its index', async () => {
    const out = join(dir, 'out');
    const files = readdirSync(out).filter((name) => /^crawl-\d{5}\.warc\.gz$/.test(name));
    expect(files).toEqual(['crawl-00000.warc.gz']);
    expect(result.stdout).toContain(
      `  archive ${join(out, 'crawl-00000.warc.gz')} (WARC: every request and response; index ${join(out, 'crawl.cdxj')})`,
    );
    const read = await readWarcFile(join(out, files[0]!));
    expect(read.problems).toEqual([]);
    expect(checkReferences([read])).toEqual([]);
    const logged = Number(/none of the (\d+) requests the servers logged/.exec(result.stdout)?.[1]);
    expect(read.records.filter((record) => record.type === 'request')).toHaveLength(logged);
    const index = readFileSync(join(out, 'crawl.cdxj'), 'utf8').trimEnd().split('\n');
    expect(index).toHaveLength(
      read.records.filter((record) => record.type === 'response' || record.type === 'revisit').length,
    );
  });

  it('rejects a bad option with a one-line usage error', async () => {
    const bad = await runCli(['demo', '--log', 'xml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('politely: demo: --log: expected one of plain, json, got "xml"\n');
  });
});
