// `politely crawl --warc FILE [--cdx] [--warc-max-size BYTES]`: the crawl archived as WARC, run as a
// user runs it (the real bin) against the demo web, whose own request log is the judge: one
// request record per request every host received (robots.txt included), files that read end to
// end, an index, the summary; and the usage errors.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocalWeb, violations } from '@politely/demo-web';
import { describe, expect, it } from 'vitest';
import { checkReferences, readWarcFile } from '../../../test/support/warc-reader.js';
import { useDemoWebAndDir } from './demo-web-fixture.js';
import { jsonLines, runCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
let web: LocalWeb;
let dir: string;

useDemoWebAndDir('politely-cli-warc-', (fixture) => ({ web, dir } = fixture));

describe('politely crawl --warc', () => {
  it('archives every request the web received, in files that read end to end, with an index', async () => {
    web.resetLogs();
    const warc = join(dir, 'demo.warc.gz');
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '0',
      '--log',
      'json',
      '--warc',
      warc,
      '--cdx',
      '--warc-max-size',
      '65536',
      web.url('docs', '/'),
      web.url('shop', '/'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(violations(web, UA)).toEqual([]);
    const files = readdirSync(dir)
      .filter((name) => /^demo-\d{5}\.warc\.gz$/.test(name))
      .sort();
    expect(files.length).toBeGreaterThan(1);
    const reads = await Promise.all(files.map((name) => readWarcFile(join(dir, name))));
    for (const read of reads) expect(read.problems).toEqual([]);
    expect(checkReferences(reads)).toEqual([]);
    const records = reads.flatMap((read) => read.records);
    const archived = records
      .filter((record) => record.type === 'request')
      .map((record) => record.header('WARC-Target-URI'))
      .sort();
    const served = web
      .requestLog()
      .map((entry) => entry.origin + entry.path)
      .sort();
    expect(archived).toEqual(served);
    expect(served.filter((url) => url.endsWith('/robots.txt')).length).toBeGreaterThanOrEqual(2);

    const summary = jsonLines(result.stdout).find((line) => (line as { event?: string }).event === 'summary') as {
      outputs: { format: string; files: string[]; records: number; cdx: string }[];
    };
    const status = summary.outputs.find((output) => output.format === 'warc')!;
    expect(status.files.map((file) => file.slice(dir.length + 1))).toEqual(files);
    expect(status.records).toBe(records.length);
    expect(status.cdx).toBe(join(dir, 'demo.cdxj'));
    const index = readFileSync(join(dir, 'demo.cdxj'), 'utf8').trimEnd().split('\n');
    expect(index).toHaveLength(
      records.filter((record) => record.type === 'response' || record.type === 'revisit').length,
    );
  });

  it('says where the archive went in the plain summary', async () => {
    const warc = join(dir, 'plain.warc');
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '0',
      '--log',
      'plain',
      '--max-pages',
      '3',
      '--warc',
      warc,
      web.url('docs', '/'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/archive +\S*plain-00000\.warc \(\d+ WARC records: \d+ responses, \d+ revisits/);
  });

  it('refuses mistakes before any request', async () => {
    web.resetLogs();
    const cases: [string[], RegExp][] = [
      [['--cdx'], /--cdx is about the WARC archive: give --warc FILE too/],
      [['--warc-max-size', '100000'], /--warc-max-size is about the WARC archive/],
      [['--warc', join(dir, 'crawl.txt')], /--warc: the archive's name ends in \.warc, or \.warc\.gz/],
      [['--warc', join(dir, 'w.warc'), '--warc-max-size', '10'], /--warc-max-size/],
      [['--warc', join(dir, 'missing-dir', 'w.warc')], /--warc .*cannot write there/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['crawl', '--ua', UA, '--allow-net', '127.0.0.0/8', ...args, web.url('docs', '/')]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    // A fresh crawl does not replace an archive unless told to.
    writeFileSync(join(dir, 'old.warc.gz.ledger'), '{"politely":"warc-ledger","version":1}\n');
    const refused = await runCli([
      'crawl',
      '--ua',
      UA,
      '--allow-net',
      '127.0.0.0/8',
      '--warc',
      join(dir, 'old.warc.gz'),
      web.url('docs', '/'),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/an archive is already there .*--overwrite/);
    expect(web.requestLog()).toEqual([]);
  });
});
