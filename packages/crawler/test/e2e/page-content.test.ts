// `page.content()` in a real crawl of a loopback site: the main content of an article and of a
// mailing-list message (its <pre> body verbatim), links made absolute against the final URL, the
// rights as the crawler read them (robots.txt line, Content-Usage header, meta noai), computed
// once per page, and a typed rejection for a page that is not HTML.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolitelyError } from '@politely/core';
import {
  createCrawler,
  isHtmlContentType,
  type PageContent,
  type PageContext,
  type PageRights,
  pageRightsOf,
} from '@politely/crawler';
import { afterEach, describe, expect, it } from 'vitest';
import { type Handler, startServer, type TestServer } from '../../../../test/support/site-server.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'ContentBot/1.0 (+https://example.com/bot)';
const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const ROBOTS = ['User-agent: *', 'Allow: /', 'Content-Usage: /list/ train-ai=n'].join('\n');

const ARTICLE = `<!doctype html><html lang="en"><head><title>Slow crawling | The Site</title>
<meta name="author" content="Ada Lovelace"><meta property="og:site_name" content="The Site">
<meta name="description" content="Why crawlers wait."><link rel="canonical" href="/articles/slow">
<meta name="robots" content="noai"></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Slow crawling</h1>
<p>A polite crawler waits between requests to one host, and reads <a href="../docs/delay">the delay rules</a> first.</p>
<p>It identifies itself with a User-Agent that names a way to reach its operator, so that a site can ask it to stop.</p>
<p>It keeps the site's robots.txt in a cache, fetched once, and asks it before every request it makes.</p>
</article><footer>© The Site · <a href="/privacy">Privacy</a></footer></body></html>`;

const MAIL_BODY = `On Tue, Bob wrote:
> Is the crawl-delay honoured?
>> Only when it is below ten seconds.

Yes:   it is honoured,   always.
    indented line stays`;

const MAIL = `<!doctype html><html><head><title>Re: crawl-delay</title></head><body>
<div class="nav"><a href="/list/">Thread index</a></div>
<h1>Re: crawl-delay</h1>
<pre>${MAIL_BODY.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</pre>
<hr><a href="/list/msg1.html">Previous message</a></body></html>`;

const header =
  (headers: Record<string, string>, body: string): Handler =>
  (_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.end(body);
  };

async function site(): Promise<TestServer> {
  const server = await startServer({
    '/robots.txt': ROBOTS,
    '/old': (_req, res) => {
      res.writeHead(301, { location: '/blog/slow' }).end();
    },
    '/blog/slow': header({ 'content-usage': 'search=y' }, ARTICLE),
    '/list/msg2.html': MAIL,
    '/data.json': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}');
    },
  });
  servers.push(server);
  return server;
}

interface Seen {
  readonly first: PageContent | undefined;
  readonly same: boolean;
  readonly error: unknown;
  /** The rights as the page context has them (`page.usage`), for comparison. */
  readonly rights?: PageRights;
}

async function crawl(server: TestServer): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const crawler = createCrawler({
    userAgent: UA,
    seeds: [`${server.base}/old`, `${server.base}/list/msg2.html`, `${server.base}/data.json`],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    followLinks: false,
    handler: async (page: PageContext) => {
      const path = new URL(page.finalUrl).pathname;
      if (!isHtmlContentType(page.contentType)) {
        const error = await page.content().then(
          () => undefined,
          (rejection: unknown) => rejection,
        );
        seen.set(path, { first: undefined, same: false, error });
        return;
      }
      const { content } = page;
      const [first, second] = await Promise.all([content(), page.content()]);
      const same = first === second && (await page.content()) === first;
      seen.set(path, { first, same, error: undefined, rights: pageRightsOf(page.usage) });
    },
  });
  await crawler.run();
  return seen;
}

describe('page.content()', () => {
  it('extracts the main content once per page, with absolute links and the rights the crawler read', async () => {
    const server = await site();
    const seen = await crawl(server);
    const article = seen.get('/blog/slow')!;
    expect(article.same).toBe(true);
    const content = article.first!;
    expect(content.title).toContain('Slow crawling');
    expect(content.markdown).toContain(`[the delay rules](${server.base}/docs/delay)`);
    expect(content.markdown).not.toContain('Privacy');
    expect(content.text).toContain('A polite crawler waits between requests');
    expect(content.authors).toEqual(['Ada Lovelace']);
    expect(content.siteName).toBe('The Site');
    expect(content.description).toBe('Why crawlers wait.');
    expect(content.lang).toBe('en');
    expect(content.canonicalUrl).toBe(`${server.base}/articles/slow`);
    // The rights: the header says search=y, the meta robots says noai.
    expect(content.usage.search).toBe('allowed');
    expect(content.usage['ai-train']).toBe('reserved');
    expect(content.usageSources).toEqual(
      expect.arrayContaining(['header Content-Usage: search=y', expect.stringMatching(/^meta .*noai/)]),
    );
    expect(content.robots).toEqual({ noindex: false, nofollow: false });
    expect({ usage: content.usage, usageSources: content.usageSources }).toEqual(article.rights);
  });

  it('keeps a mailing-list <pre> body byte for byte, and carries the robots.txt line that reserves it', async () => {
    const server = await site();
    const seen = await crawl(server);
    const mail = seen.get('/list/msg2.html')!;
    expect(mail.same).toBe(true);
    const content = mail.first!;
    expect(content.markdown).toContain(MAIL_BODY);
    expect(content.markdown).not.toContain('\\>');
    expect(content.text).toContain(MAIL_BODY);
    expect(content.usage['ai-train']).toBe('reserved');
    expect({ usage: content.usage, usageSources: content.usageSources }).toEqual(mail.rights);
    expect(content.usageSources).toEqual(['robots.txt line 3 (ContentBot): Content-Usage: /list/ train-ai=n']);
    // Each page was requested once: the content comes from the bytes the crawler already had.
    expect(server.paths().filter((path) => path === '/list/msg2.html')).toHaveLength(1);
  });

  it('rejects for a page that is not HTML, with ERR_INVALID_INPUT naming its content type', async () => {
    const server = await site();
    const seen = await crawl(server);
    const error = seen.get('/data.json')!.error;
    expect(error).toBeInstanceOf(PolitelyError);
    expect(error).toMatchObject({ code: 'ERR_INVALID_INPUT' });
    expect((error as Error).message).toContain('"application/json"');
  });
});

describe('outputs: content', () => {
  it("adds the page's content and rights to what a page pushes, in that output only", async () => {
    const server = await site();
    const dir = await mkdtemp(join(tmpdir(), 'politely-content-out-'));
    dirs.push(dir);
    const withIt = join(dir, 'content.jsonl');
    const without = join(dir, 'plain.jsonl');
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`${server.base}/old`, `${server.base}/list/msg2.html`, `${server.base}/data.json`],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      followLinks: false,
      outputs: [{ path: withIt, content: 'markdown' }, { path: without }],
      handler: async (page) => {
        await page.push({ url: page.finalUrl });
        await page.push({ url: page.finalUrl, content: 'mine' });
      },
    });
    await crawler.run();
    const read = async (path: string) =>
      (await readFile(path, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { url: string; content?: unknown });
    const added = await read(withIt);
    const byPath = (path: string) =>
      added.filter((record) => new URL(record.url).pathname === path).map((record) => record.content);
    const [mail, own] = byPath('/list/msg2.html') as [Record<string, unknown>, unknown];
    expect(own).toBe('mine');
    expect(mail.markdown).toEqual(expect.stringContaining(MAIL_BODY));
    expect(mail.text).toBeUndefined();
    expect(mail).toMatchObject({
      usage: { 'ai-train': 'reserved' },
      usageSources: ['robots.txt line 3 (ContentBot): Content-Usage: /list/ train-ai=n'],
      robots: { noindex: false, nofollow: false },
    });
    const [article] = byPath('/blog/slow') as [Record<string, unknown>];
    expect(article).toMatchObject({ authors: ['Ada Lovelace'], siteName: 'The Site', lang: 'en' });
    expect(article.markdown).toEqual(expect.stringContaining(`[the delay rules](${server.base}/docs/delay)`));
    expect(byPath('/data.json')).toEqual([null, 'mine']);
    const plain = await read(without);
    expect(plain).toHaveLength(6);
    expect(plain.filter((record) => record.content === undefined)).toHaveLength(3);
  });

  it('checks the option where it is given', () => {
    const options = { userAgent: UA, seeds: ['http://127.0.0.1/'], handler: () => {} };
    expectInvalidOption(
      () => createCrawler({ ...options, outputs: [{ path: 'a.jsonl', content: 'html' as 'text' }] }),
      "outputs[0] (\"a.jsonl\"): content must be 'markdown' or 'text', got",
    );
    expectInvalidOption(
      () => createCrawler({ ...options, outputs: [{ path: 'a.warc', content: 'text' }] }),
      'content is for records',
    );
  });
});
