import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolitelyError } from '@politely/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSurt } from 'warcio';
import { type CdxjEntry, cdxjLine, cdxjTimestamp, sortCdxjFile, surtKey } from '../../src/archive/cdxj.js';
import { sortLinesFile } from '../../src/archive/line-sort.js';

// URLs on which our key and warcio.js's getSurt agree (and python `surt`, which pywb uses).
const AGREED = [
  'http://www.Example.com:80/Foo/bar?b=2&a=1',
  'https://example.com/',
  'https://example.com',
  'http://example.com:8080/',
  'https://example.com:443/a',
  'https://example.com:80/a',
  'http://example.com:443/a',
  'http://www2.example.com/x',
  'http://www123.example.com/x',
  'http://wwwfoo.example.com/x',
  'http://www2foo.com/',
  'http://www/',
  'http://www.com/',
  'http://Example.com/INDEX.HTML',
  'https://api.example.com/v1/items?page=2&sort=asc',
  'https://sub.domain.example.co.uk/deep/path/file.html?z=26&y=25',
  'http://example.com:8080/a/b.html',
  'http://example.com/a/b/c.html?x=1#top',
  'http://example.com/a/./b/../c',
  'http://example.com/%2e%2e/x',
  'http://example.com/~user',
  'http://example.com/caf%C3%A9',
  'http://example.com/a%00b',
  'http://a.com/%FF%fe',
  'http://example.com/a b?c d',
  'http://example.com/path?',
  'http://example.com/path?#frag',
  'http://example.com/path#frag',
  'http://example.com/?b&a',
  'http://example.com/?a=2&b&a=1',
  'http://example.com/?Q=UPPER&a=Lower',
  'http://example.com/?&r=1&b=2',
  'http://example.com/?x=1&x=1',
  'http://example.com/search?q=a+b&lang=en',
  'http://example.com/a;b?c;d',
  'http://example.com/index.html?b=b&a=b',
  'http://www34.archive.org/index.html?b=a&b=b&a=b',
  'https://www.archive.org:80/',
  'http://127.0.0.1/',
  'http://127.0.0.1:3000/page?id=1',
  'http://0x7f.1/',
  'http://xn--n3h.com/',
  // Not http(s), or not a URL the WHATWG parser takes: the text is its own key.
  'ftp://www.example.com/file',
  'dns:archive.org',
  'urn:uuid:1234',
  'mailto:foo@example.com',
  'example.com/no-scheme',
  '',
  'http://exa mple.com/',
  'http://1.2.3.256/',
];

// Where we part from warcio.js on purpose: pywb computes its lookup key with python `surt`, and
// a CDXJ line is found only if its key is exactly that; warcio.js's getSurt is a simplification.
const DIFFERENT: readonly { url: string; ours: string; warcio: string; why: string }[] = [
  {
    url: 'http://example.com/foo/',
    ours: 'com,example)/foo',
    warcio: 'com,example)/foo/',
    why: 'surt drops a trailing slash (but the root /)',
  },
  {
    url: 'http://archive.org/goo/?',
    ours: 'org,archive)/goo',
    warcio: 'org,archive)/goo/',
    why: 'the same, with an empty query dropped',
  },
  {
    url: 'http://example.com/foo//bar',
    ours: 'com,example)/foo/bar',
    warcio: 'com,example)/foo//bar',
    why: 'surt drops empty path segments',
  },
  {
    url: 'http://example.com//twoslashes?more//slashes',
    ours: 'com,example)/twoslashes?more//slashes',
    warcio: 'com,example)//twoslashes?more//slashes',
    why: 'the same; the query is left alone',
  },
  {
    url: 'http://example.com/%7Euser/',
    ours: 'com,example)/~user',
    warcio: 'com,example)/%7euser/',
    why: 'surt decodes escapes and re-escapes only what must be',
  },
  {
    url: 'http://host/%2525252525252525',
    ours: 'host)/%25',
    warcio: 'host)/%2525252525252525',
    why: 'surt decodes escapes until none is left',
  },
  {
    url: 'http://example.com/a%2F..%2Fb',
    ours: 'com,example)/b',
    warcio: 'com,example)/a%2f..%2fb',
    why: 'a decoded %2F is a path separator to surt',
  },
  {
    url: 'http://example.com/?q=%22x%22',
    ours: 'com,example)/?q="x"',
    warcio: 'com,example)/?q=%22x%22',
    why: 'the query is decoded and re-escaped too',
  },
  {
    url: 'http://example.com/?a=1%262',
    ours: 'com,example)/?2&a=1',
    warcio: 'com,example)/?a=1%262',
    why: 'a decoded %26 separates arguments before they are sorted',
  },
  { url: 'http://a.com/?a=%zz', ours: 'com,a)/?a=%25zz', warcio: 'com,a)/?a=%zz', why: 'a lone % is escaped' },
  {
    url: 'http://example.com/`{}|^',
    ours: 'com,example)/`{}|^',
    warcio: 'com,example)/%60%7B%7D|^',
    why: 'printable ASCII is not escaped',
  },
  {
    url: 'http://example.com/?a-b=1&a=2',
    ours: 'com,example)/?a=2&a-b=1',
    warcio: 'com,example)/?a-b=1&a=2',
    why: 'surt sorts arguments by name, then value; warcio sorts whole arguments',
  },
  {
    url: 'http://WWW.EXAMPLE.COM/',
    ours: 'com,example)/',
    warcio: 'com,example,www)/',
    why: 'surt drops www. after lowercasing the host; warcio before',
  },
  {
    url: 'http://user:pass@www.example.com/',
    ours: 'com,example)/',
    warcio: 'com,example,www)/',
    why: 'surt drops www. from the host, wherever the user info is',
  },
  {
    url: 'HTTP://Example.COM/Path',
    ours: 'com,example)/path',
    warcio: 'HTTP://Example.COM/Path',
    why: 'a scheme is case-insensitive',
  },
  {
    url: 'http://example.com./x',
    ours: 'com,example)/x',
    warcio: ',com,example)/x',
    why: 'surt drops the dots at the ends of a host',
  },
  {
    url: 'http://www.google.com.../',
    ours: 'com,google)/',
    warcio: ',,,com,google)/',
    why: 'and collapses runs of dots',
  },
  {
    url: 'http://[::1]:8080/x',
    ours: '::1:8080)/x',
    warcio: '[::1]:8080)/x',
    why: 'surt keys an IPv6 host without its brackets',
  },
  {
    url: 'http://https://order.1and1.com/',
    ours: 'com,1and1,order)/',
    warcio: 'https)//order.1and1.com/',
    why: 'surt mends a doubled scheme',
  },
  {
    url: 'http://example.com/index.php?PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile;u=4221',
    ours: 'com,example)/index.php?action=profile;u=4221',
    warcio: 'com,example)/index.php?action=profile;u=4221&phpsessid=0123456789abcdefghijklemopqrstuv',
    why: 'surt takes session ids out of the query',
  },
  {
    url: 'http://example.com/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx',
    ours: 'com,example)/mileg.aspx',
    warcio: 'com,example)/(s(4hqa0555fwsecu455xqckv45))/mileg.aspx',
    why: 'and ASP.NET session ids out of the path',
  },
  {
    url: 'http://München.de/Straße',
    ours: 'de,xn--mnchen-3ya)/stra%c3%9fe',
    warcio: 'de,xn--mnchen-3ya)/stra%C3%9Fe',
    why: 'surt lowercases escapes too (warcio lowercases before the URL parser escapes)',
  },
];

describe('surtKey', () => {
  it(`agrees with warcio's getSurt on ${AGREED.length} URLs`, () => {
    expect(AGREED.length).toBeGreaterThanOrEqual(40);
    for (const url of AGREED) expect(surtKey(url), url).toBe(getSurt(url));
  });

  it(`differs from warcio's getSurt where python surt (pywb's key) does, on ${DIFFERENT.length} URLs`, () => {
    for (const { url, ours, warcio, why } of DIFFERENT) {
      expect(surtKey(url), `${url}: ${why}`).toBe(ours);
      expect(getSurt(url), `${url}: warcio`).toBe(warcio);
    }
  });

  it('gives the keys of the python surt test suite (what pywb looks up)', () => {
    expect(surtKey('http://www.archive.org/')).toBe('org,archive)/');
    expect(surtKey('http://archive.org/goo/')).toBe('org,archive)/goo');
    expect(surtKey('http://archive.org/goo/?b&a')).toBe('org,archive)/goo?a&b');
    expect(surtKey('http://archive.org/goo/?a=2&b&a=1')).toBe('org,archive)/goo?a=1&a=2&b');
    expect(surtKey('http://example.com/?CFID=1169580&CFTOKEN=48630702&dtstamp=22%2F08%2F2006%7C06%3A58%3A11')).toBe(
      'com,example)/?dtstamp=22/08/2006|06:58:11',
    );
    expect(surtKey('http://example.com/?one=two&phpsessid=0123456789abcdefghijklemopqrstuv')).toBe(
      'com,example)/?&one=two',
    );
    expect(
      surtKey(
        'http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2',
      ),
    ).toBe(
      'com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2',
    );
  });

  it('keys a URL and its WHATWG href alike, and never throws', () => {
    // (A doubled scheme is mended in the text, before parsing: its href is another URL.)
    const urls = [...AGREED, ...DIFFERENT.map((row) => row.url)].filter((url) => !url.startsWith('http://https://'));
    for (const url of urls) {
      let href: string | undefined;
      try {
        href = /^https?:/i.test(url.trim()) ? new URL(url).href : undefined;
      } catch {
        href = undefined;
      }
      if (href !== undefined) expect(surtKey(href), url).toBe(surtKey(url));
    }
    for (const odd of [
      'http://',
      'https://[',
      'http://%',
      'javascript:alert(1)',
      'data:text/html,<p>',
      '\u0000',
      'http://a.com/' + '%'.repeat(1000),
    ]) {
      expect(() => surtKey(odd)).not.toThrow();
    }
  });
});

const RESPONSE: CdxjEntry = {
  url: 'https://www.Example.com/a/?b=2&a=1',
  date: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
  mime: 'text/html; charset=UTF-8',
  status: 200,
  payloadDigest: 'sha256:' + 'ab'.repeat(32),
  length: 1234,
  offset: 5678,
  filename: '/data/crawl/politely-20260102030405-00001.warc.gz',
  type: 'response',
};

describe('cdxjLine', () => {
  it('writes urlkey, timestamp and the JSON fields in order', () => {
    expect(cdxjLine(RESPONSE)).toBe(
      'com,example)/a?a=1&b=2 20260102030405 ' +
        `{"url":"https://www.Example.com/a/?b=2&a=1","mime":"text/html","status":"200","digest":"${'ab'.repeat(32)}","length":"1234","offset":"5678","filename":"politely-20260102030405-00001.warc.gz"}\n`,
    );
  });

  it('gives a revisit the mime warc/revisit, and leaves out the mime of a response without one', () => {
    const revisit = cdxjLine({ ...RESPONSE, type: 'revisit', status: 304, date: Date.UTC(2026, 11, 31, 23, 59, 59) });
    expect(revisit).toMatch(
      /^com,example\)\/a\?a=1&b=2 20261231235959 \{"url":"[^"]+","mime":"warc\/revisit","status":"304",/,
    );
    const bare = JSON.parse(
      cdxjLine({ ...RESPONSE, mime: undefined })
        .split(' ')
        .slice(2)
        .join(' '),
    ) as Record<string, string>;
    expect(Object.keys(bare)).toEqual(['url', 'status', 'digest', 'length', 'offset', 'filename']);
    expect(
      JSON.parse(
        cdxjLine({ ...RESPONSE, mime: '  application/json ;x=y' })
          .split(' ')
          .slice(2)
          .join(' '),
      ),
    ).toMatchObject({ mime: 'application/json' });
  });

  it('keeps one line per record: no space or line break in the key', () => {
    const line = cdxjLine({ ...RESPONSE, url: 'urn:odd key\nwith breaks' });
    expect(line.split('\n')).toHaveLength(2);
    expect(line.split(' ')[0]).toBe('urn:odd%20key%0Awith%20breaks');
  });

  it('timestamps are 14 digits in UTC; a date that cannot be one is ERR_INVALID_INPUT', () => {
    expect(cdxjTimestamp(0)).toBe('19700101000000');
    expect(cdxjTimestamp(new Date('2024-02-29T23:59:59.999+01:00'))).toBe('20240229225959');
    for (const bad of [Number.NaN, new Date('nope'), Date.UTC(10000, 0, 1), Date.UTC(-1, 0, 1)]) {
      expect(() => cdxjTimestamp(bad)).toThrow(PolitelyError);
    }
    expect(() => cdxjLine({ ...RESPONSE, offset: -1 })).toThrow(/offset/);
    expect(() => cdxjLine({ ...RESPONSE, length: 1.5 })).toThrow(/length/);
  });
});

describe('sortCdxjFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'politely-cdxj-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Lines like an index's, in no order: shared prefixes, duplicates, bytes above ASCII, empty lines. */
  function sampleLines(count: number): string[] {
    const lines: string[] = [];
    let seed = 7;
    const next = (): number => {
      seed = (seed * 48271) % 2147483647;
      return seed;
    };
    for (let i = 0; i < count; i += 1) {
      const host = ['com,example)', 'com,example,api)', 'org,archive)', 'de,bücher)', 'com,example)/a'][
        next() % 5
      ] as string;
      const path = `/${'abcxyzé~'.slice(0, next() % 8)}${next() % 50}`;
      lines.push(`${host}${path} 2026010${next() % 9}000000 {"url":"http://x/${i}","n":${next() % 7}}`);
      if (i % 37 === 0) lines.push('');
      if (i % 53 === 0) lines.push(lines[lines.length - 1] ?? '');
    }
    return lines;
  }

  function byteSorted(lines: readonly string[]): string {
    const buffers = lines.filter((line) => line !== '').map((line) => Buffer.from(line));
    buffers.sort(Buffer.compare);
    return buffers.map((buffer) => `${buffer.toString()}\n`).join('');
  }

  it('sorts in byte order in runs from disk (tiny memory: many runs), leaving no temp file', async () => {
    const path = join(dir, 'index.cdxj');
    const lines = sampleLines(400);
    await writeFile(path, lines.join('\n')); // no newline at the end
    const result = await sortLinesFile(path, { maxMemoryBytes: 2048 });
    expect(result.runs).toBeGreaterThanOrEqual(5);
    expect(result.lines).toBe(lines.filter((line) => line !== '').length);
    expect(await readFile(path, 'utf8')).toBe(byteSorted(lines));
    expect(await readdir(dir)).toEqual(['index.cdxj']);
  });

  it('is what LC_ALL=C sort gives (empty lines apart)', async () => {
    const path = join(dir, 'index.cdxj');
    const lines = sampleLines(300);
    await writeFile(path, `${lines.join('\n')}\n`);
    const expected = execFileSync('sort', [path], { env: { ...process.env, LC_ALL: 'C' } })
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '');
    await sortCdxjFile(path, { maxMemoryBytes: 1000 });
    expect((await readFile(path, 'utf8')).split('\n').slice(0, -1)).toEqual(expected);
  });

  it('merges in passes when there are more runs than files it may open at once', async () => {
    const path = join(dir, 'index.cdxj');
    const lines = sampleLines(500);
    await writeFile(path, lines.join('\n'));
    const result = await sortLinesFile(path, { maxMemoryBytes: 600, maxOpenRuns: 3 });
    expect(result.runs).toBeGreaterThan(9);
    expect(result.mergePasses).toBeGreaterThanOrEqual(2);
    expect(await readFile(path, 'utf8')).toBe(byteSorted(lines));
    expect(await readdir(dir)).toEqual(['index.cdxj']);
  });

  it('sorts a file that fits in memory in one run; an empty file stays empty', async () => {
    const path = join(dir, 'index.cdxj');
    await writeFile(path, 'b 1 {}\n\na 2 {}\r\na 1 {}');
    expect(await sortLinesFile(path)).toEqual({ lines: 3, runs: 1, mergePasses: 0 });
    expect(await readFile(path, 'utf8')).toBe('a 1 {}\na 2 {}\r\nb 1 {}\n');
    await writeFile(path, '');
    await sortCdxjFile(path);
    expect(await readFile(path, 'utf8')).toBe('');
    expect(await readdir(dir)).toEqual(['index.cdxj']);
  });

  it('a file in a missing directory rejects with ERR_OUTPUT naming it', async () => {
    const path = join(dir, 'missing', 'index.cdxj');
    const error = await sortCdxjFile(path).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(PolitelyError);
    expect((error as PolitelyError).code).toBe('ERR_OUTPUT');
    expect((error as PolitelyError).message).toContain(path);
    expect((error as PolitelyError).message).toContain('ENOENT');
    expect(await readdir(dir)).toEqual([]);
  });

  it('a failed write leaves the original as it was and removes its runs', async () => {
    const path = join(dir, 'index.cdxj');
    const text = sampleLines(200).join('\n');
    await writeFile(path, text);
    // The sorted file cannot be created where it must go: a directory is in the way.
    await mkdir(`${path}.sorting`);
    await expect(sortCdxjFile(path, { maxMemoryBytes: 1024 })).rejects.toThrow(
      new RegExp(`could not sort ${path.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: EISDIR`),
    );
    expect(await readFile(path, 'utf8')).toBe(text);
    expect((await readdir(dir)).sort()).toEqual(['index.cdxj', 'index.cdxj.sorting']);
  });

  it('an aborted sort rejects with ERR_ABORTED, the file untouched', async () => {
    const path = join(dir, 'index.cdxj');
    const text = sampleLines(100).join('\n');
    await writeFile(path, text);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(sortCdxjFile(path, { maxMemoryBytes: 512, signal: controller.signal })).rejects.toMatchObject({
      code: 'ERR_ABORTED',
    });
    expect(await readFile(path, 'utf8')).toBe(text);
    expect(await readdir(dir)).toEqual(['index.cdxj']);
  });

  it('refuses a memory budget that is not a positive integer', async () => {
    await expect(sortCdxjFile(join(dir, 'x'), { maxMemoryBytes: 0 })).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
    });
  });
});
