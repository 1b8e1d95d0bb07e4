// `politely crawl --out … --content markdown|text`, run as a user would against a loopback site:
// each JSON line carries the page's main content (a mailing-list <pre> body verbatim, links
// absolute), its metadata and its rights as the crawler read them; a page that is not HTML has
// them empty. The server's log shows each page requested once.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/support/site-server.js';
import { jsonLines, runCli } from './run-cli.js';

const UA = 'ContentBot/1.0 (+https://example.com/bot)';
const dir = mkdtempSync(join(tmpdir(), 'politely-content-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const MAIL_BODY = `Alice wrote:
> Does the crawler wait?
>> It waits.

    indented  stays   indented`;

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function site(): Promise<TestServer> {
  const server = await startServer({
    '/robots.txt': 'User-agent: *\nAllow: /\nContent-Usage: /list/ train-ai=n\n',
    '/': `<!doctype html><html lang="en"><head><title>Waiting well</title><meta name="author" content="Ada">
<meta name="description" content="On waiting."></head><body><nav><a href="/list/1.html">List</a> <a href="/data.txt">Data</a></nav>
<article><h1>Waiting well</h1><p>A polite crawler waits between requests, as <a href="/rules">the rules</a> say.</p>
<p>It names itself in its User-Agent, and it reads robots.txt before anything else on a host.</p>
<p>It keeps to one request at a time per host, and backs off when the host asks it to.</p></article>
<footer>Footer text</footer></body></html>`,
    '/list/1.html': `<!doctype html><html><head><title>Re: waiting</title></head><body><h1>Re: waiting</h1><pre>${escapeHtml(MAIL_BODY)}</pre></body></html>`,
    '/data.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('plain text');
    },
  });
  servers.push(server);
  return server;
}

interface Line {
  readonly finalUrl: string;
  readonly title: string | null;
  readonly markdown?: string;
  readonly text?: string;
  readonly authors: string[];
  readonly lang: string | null;
  readonly description: string | null;
  readonly usage: Record<string, string>;
  readonly usageSources: string[];
}

async function crawl(
  server: TestServer,
  format: 'markdown' | 'text',
  out: string,
  more: readonly string[] = [],
): Promise<Map<string, Line>> {
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
    '--out',
    out,
    '--content',
    format,
    ...more,
    `${server.base}/`,
  ]);
  expect(result.code, result.stderr).toBe(0);
  const lines = jsonLines(readFileSync(out, 'utf8')) as Line[];
  return new Map(lines.map((line) => [new URL(line.finalUrl).pathname, line]));
}

describe('politely crawl --content', () => {
  it('markdown: each JSON line carries the content, its metadata and its rights', async () => {
    const server = await site();
    const pages = await crawl(server, 'markdown', join(dir, 'pages.jsonl'));
    expect([...pages.keys()]).toEqual(expect.arrayContaining(['/', '/data.txt', '/list/1.html']));
    const home = pages.get('/')!;
    expect(home.markdown).toContain(`[the rules](${server.base}/rules)`);
    expect(home.markdown).not.toContain('Footer text');
    expect(home).toMatchObject({ title: 'Waiting well', authors: ['Ada'], lang: 'en', description: 'On waiting.' });
    expect(home.usage['ai-train']).toBe('unknown');
    const mail = pages.get('/list/1.html')!;
    expect(mail.markdown).toContain(MAIL_BODY);
    expect(mail.usage['ai-train']).toBe('reserved');
    expect(mail.usageSources).toEqual(['robots.txt line 3 (ContentBot): Content-Usage: /list/ train-ai=n']);
    expect(pages.get('/data.txt')).toMatchObject({ markdown: '', authors: [], lang: null });
    for (const path of ['/', '/list/1.html']) expect(server.paths().filter((p) => p === path)).toHaveLength(1);
  });

  it('text: the content as plain text, no markdown field; a CSV --out has its columns', async () => {
    const server = await site();
    const csv = join(dir, 'pages.csv');
    const pages = await crawl(server, 'text', join(dir, 'text.jsonl'), ['--out', csv]);
    expect(readFileSync(csv, 'utf8').split('\r\n')[0]).toBe(
      'url,finalUrl,status,contentType,depth,title,bytes,fetchedAt,noindex,nofollow,canonical,usage,usageSources,change,' +
        'text,authors,published,modified,lang,canonicalUrl,description,siteName',
    );
    const mail = pages.get('/list/1.html')!;
    expect(mail.text).toContain(MAIL_BODY);
    expect(mail.markdown).toBeUndefined();
    expect(pages.get('/')!.text).toContain('A polite crawler waits between requests, as the rules say.');
  });

  it('refuses --content without --out, and a format it does not know', async () => {
    const noOut = await runCli(['crawl', '--ua', UA, '--content', 'markdown', 'http://127.0.0.1/']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--content');
    const bad = await runCli([
      'crawl',
      '--ua',
      UA,
      '--out',
      join(dir, 'x.jsonl'),
      '--content',
      'html',
      'http://127.0.0.1/',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--content: expected one of markdown, text, got "html"');
  });
});
