import { connect } from 'node:net';
import { parseRobotsTxt } from '@politely/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostileWeb } from '../src/index.js';
import { HOSTILE_HOST_NAMES, resolveHostileWebOptions, startHostileWeb } from '../src/index.js';
import { getText, hrefs, rawGet, UA } from './helpers.js';
import { exchange, getRequest, httpOutcome, openSocket } from './hostile-helpers.js';

const MIB = 1024 * 1024;

let web: HostileWeb;

beforeAll(async () => {
  web = await startHostileWeb();
});

afterAll(async () => {
  await web.close();
});

const caseNamed = (name: string) => {
  const found = web.cases.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no case ${name}`);
  return found;
};

describe('startHostileWeb', () => {
  it('puts each host on its own loopback address from 127.0.0.60, HTTP hosts on one port', () => {
    expect(web.hosts.map((host) => host.name)).toEqual([...HOSTILE_HOST_NAMES]);
    expect(web.hosts.map((host) => host.address)).toEqual(HOSTILE_HOST_NAMES.map((_, i) => `127.0.0.${60 + i}`));
    expect(new Set(web.hosts.slice(0, 6).map((host) => host.port)).size).toBe(1);
    for (const host of web.hosts) expect(host.origin).toBe(`http://${host.address}:${host.port}`);
    expect(web.entryUrl).toBe(`${web.host('hub').origin}/`);
  });

  it('lists unique kebab-case cases whose URLs stay on loopback or name the refused targets', () => {
    const names = web.cases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of web.cases) {
      expect(c.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(c.entryUrl).toMatch(/^http:\/\/127\.0\.0\.\d+:\d+\//);
      expect(c.reportedUrlPrefixes.length).toBeGreaterThan(0);
      if (c.expect.kind === 'page') expect(c.reportedUrlPrefixes).toEqual([c.entryUrl]);
    }
    expect(caseNamed('redirect-to-metadata').reportedUrlPrefixes).toEqual(['http://169.254.169.254/']);
    expect(caseNamed('silent-host').expect).toEqual({ kind: 'skip', reason: 'robots-unreachable' });
  });

  it('links every case and every host index from the hub', async () => {
    const { status, text } = await getText(web.entryUrl);
    expect(status).toBe(200);
    const links = new Set(hrefs(text, web.entryUrl));
    for (const c of web.cases) expect(links).toContain(c.entryUrl);
    for (const host of web.hosts.filter((h) => h.name !== 'hub' && h.name !== 'silent')) {
      expect(links).toContain(`${host.origin}/`);
    }
  });

  it('answers 200 for every good page', async () => {
    expect(web.goodPageUrls.length).toBeGreaterThan(30);
    expect(new Set(web.goodPageUrls).size).toBe(web.goodPageUrls.length);
    const statuses = await Promise.all(web.goodPageUrls.map(async (url) => [url, (await rawGet(url)).status] as const));
    expect(statuses.filter(([, status]) => status !== 200)).toEqual([]);
  });

  it('serves robots.txt that allows all, except where a case needs a rule', async () => {
    for (const name of ['hub', 'redirects', 'bodies', 'traps', 'raw'] as const) {
      const host = web.host(name);
      expect(host.disallowedPrefixes).toEqual([]);
      const { status, text } = await getText(`${host.origin}/robots.txt`);
      expect([status, text]).toEqual([200, host.robotsTxt]);
    }
    expect(web.host('content').disallowedPrefixes).toEqual(['/many-links/targets/']);
    expect(web.host('silent')).toMatchObject({ robotsStatus: 0, robotsTxt: null, disallowedPrefixes: ['/'] });
  });

  it('logs requests with their user agent and status', async () => {
    web.resetLogs();
    await rawGet(web.url('hub', '/about'));
    await exchange(web.host('raw').origin, getRequest('/'));
    expect(web.requestLog().map((r) => [r.host, r.path, r.status, r.userAgent])).toEqual([
      ['hub', '/about', 200, UA],
      ['raw', '/', 200, UA],
    ]);
    expect(web.requestLog(web.host('raw').origin)).toHaveLength(1);
  });

  it('logs the body bytes written, streamed or hand-written, and sends no validators', async () => {
    web.resetLogs();
    const about = await rawGet(web.url('hub', '/about'));
    expect(about.headers['etag']).toBeUndefined();
    await exchange(web.host('raw').origin, getRequest('/short-body'));
    // The endless body is logged when it starts and counted as it streams.
    const endless = await httpOutcome(web.url('bodies', '/endless'), { capBytes: 1024 * 1024 });
    const log = web.requestLog();
    expect(log.map((r) => [r.host, r.path])).toEqual([
      ['hub', '/about'],
      ['raw', '/short-body'],
      ['bodies', '/endless'],
    ]);
    expect(log.map((r) => r.bodyBytes).slice(0, 2)).toEqual([about.body.length, 100]);
    expect(log[2]?.bodyBytes).toBeGreaterThanOrEqual(endless.bodyBytes);
  });

  it('never changes its pages', () => {
    expect(() => web.changePages([web.url('hub', '/about')])).toThrow(
      expect.objectContaining({ code: 'ERR_UNCHANGEABLE_PAGE' }) as Error,
    );
    expect(() => web.changePages(['http://127.0.0.1:1/'])).toThrow(
      expect.objectContaining({ code: 'ERR_UNKNOWN_PAGE' }) as Error,
    );
    expect(web.revisionOf(web.url('hub', '/about'))).toBe(0);
  });

  it('refuses invalid options', () => {
    expect(resolveHostileWebOptions()).toMatchObject({
      firstAddress: 60,
      bombDecodedBytes: 1024 ** 3,
      manyLinks: 100_000,
    });
    for (const options of [
      { firstAddress: 250 },
      { bombDecodedBytes: 10 },
      { bigRobotsBytes: 100_000 },
      { manyLinks: 0 },
      { dripIntervalMs: 0.5 },
      { userAgent: ' ' },
    ]) {
      expect(() => resolveHostileWebOptions(options)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION' }));
    }
  });
});

describe('redirects host', () => {
  it('redirects /redirect/endless/N to N+1, forever', async () => {
    for (const n of [1, 2, 999]) {
      const response = await rawGet(web.url('redirects', `/redirect/endless/${n}`));
      expect([response.status, response.headers.location]).toEqual([302, `/redirect/endless/${n + 1}`]);
    }
  });

  it('loops between /redirect/loop/a and b', async () => {
    expect((await rawGet(web.url('redirects', '/redirect/loop/a'))).headers.location).toBe('/redirect/loop/b');
    expect((await rawGet(web.url('redirects', '/redirect/loop/b'))).headers.location).toBe('/redirect/loop/a');
  });

  it('names file:, private and metadata targets in Location (never requested here)', async () => {
    const locations = await Promise.all(
      ['/redirect/to-file', '/redirect/to-private', '/redirect/to-metadata'].map(
        async (path) => (await rawGet(web.url('redirects', path))).headers.location,
      ),
    );
    expect(locations).toEqual([
      'file:///etc/passwd',
      'http://10.255.255.1/admin',
      'http://169.254.169.254/latest/meta-data/',
    ]);
  });
});

describe('bodies host', () => {
  it('drips the slow body at about one byte a second after declaring 1 MB', async () => {
    const outcome = await httpOutcome(web.url('bodies', '/slow-drip'), { windowMs: 2_300 });
    expect(outcome.status).toBe(200);
    expect(outcome.headers?.['content-length']).toBe('1000000');
    expect(outcome.headers?.['content-type']).toMatch(/^text\/html/);
    // One byte at once, then one a second: 3 in 2.3 s, give or take a timer's jitter.
    expect(outcome.bodyBytes).toBeGreaterThanOrEqual(2);
    expect(outcome.bodyBytes).toBeLessThanOrEqual(4);
  });

  it('sends the endless body past 20 MiB, chunked', async () => {
    const outcome = await httpOutcome(web.url('bodies', '/endless'), { capBytes: 20 * MIB + 1 });
    expect(outcome.status).toBe(200);
    expect(outcome.headers?.['transfer-encoding']).toBe('chunked');
    expect(outcome.capped).toBe(true);
    expect(outcome.head.toString('latin1')).toMatch(/^<!doctype html>/);
  });

  it('writes the endless body with backpressure: a client that stops reading stops the server', async () => {
    const socket = await openSocket(web.host('bodies').origin);
    try {
      socket.write(getRequest('/endless'));
      socket.pause();
      const before = process.memoryUsage().arrayBuffers;
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Without backpressure the server would have queued gigabytes by now.
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * MIB);
    } finally {
      socket.destroy();
    }
  });

  it.each([
    ['gzip', '/bomb/gzip'],
    ['deflate', '/bomb/deflate'],
    ['br', '/bomb/brotli'],
  ])('serves a %s bomb: a small body that decodes past 100 MiB', async (encoding, path) => {
    const raw = await rawGet(web.url('bodies', path), { 'accept-encoding': 'identity' });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBe(encoding);
    expect(raw.body.length).toBeLessThan(1.1 * MIB);
    const decoded = await httpOutcome(web.url('bodies', path), { decode: true, capBytes: 100 * MIB + 1 });
    expect(decoded.capped).toBe(true);
    expect(decoded.errorCode).toBeUndefined();
    expect(decoded.head.toString('latin1')).toMatch(/^<!doctype html>/);
  });

  it('builds bombs that decode to exactly bombDecodedBytes, checksums and all', async () => {
    const size = 40 * MIB + 12_345;
    const small = await startHostileWeb({
      firstAddress: 70,
      bombDecodedBytes: size,
      bigRobotsBytes: 600_000,
      manyLinks: 10,
    });
    try {
      for (const path of ['/bomb/gzip', '/bomb/deflate', '/bomb/brotli']) {
        const decoded = await httpOutcome(small.url('bodies', path), { decode: true });
        expect([path, decoded.errorCode, decoded.bodyBytes]).toEqual([path, undefined, size]);
      }
    } finally {
      await small.close();
    }
  });
});

describe('content host', () => {
  it.each([
    ['invalid-utf8', 'text/html; charset=utf-8', [0xff, 0x20, 0xc3, 0x28]],
    ['latin1-labelled-utf8', 'text/html; charset=utf-8', [0x43, 0x61, 0x66, 0xe9]],
    ['bogus-charset', 'text/html; charset=x-no-such-charset', [0x50, 0x6c, 0x61, 0x69, 0x6e]],
    ['meta-vs-header', 'text/html; charset=windows-1252', [...Buffer.from('naïve')]],
    ['utf16-bom', 'text/html; charset=utf-16', [0xff, 0xfe, 0x3c, 0x00]],
  ])('serves the %s page with its bytes and a plain link to its next page', async (name, contentType, bytes) => {
    const response = await rawGet(web.url('content', `/charset/${name}`));
    expect(response.headers['content-type']).toBe(contentType);
    expect(response.body.includes(Buffer.from(bytes))).toBe(true);
    const text =
      name === 'utf16-bom' ? new TextDecoder('utf-16le').decode(response.body) : response.body.toString('latin1');
    expect(text).toContain(`<a href="/charset/${name}/next">`);
    expect(web.goodPageUrls).toContain(web.url('content', `/charset/${name}/next`));
  });

  it('serves malformed pages, each but the noise with a well-formed link to its next page', async () => {
    const names = web.cases.filter((c) => c.entryUrl.includes('/malformed/')).map((c) => c.name);
    expect(names).toHaveLength(8);
    for (const name of names) {
      const response = await rawGet(web.url('content', `/malformed/${name}`));
      expect([name, response.status]).toEqual([name, 200]);
      const hasNext = response.body.includes(Buffer.from(`<a href="/malformed/${name}/next">`));
      expect([name, hasNext]).toEqual([name, name !== 'binary-noise']);
      expect(web.goodPageUrls.includes(web.url('content', `/malformed/${name}/next`))).toBe(hasNext);
    }
    const deep = await rawGet(web.url('content', '/malformed/deep-nesting'));
    expect(deep.body.toString().split('<div>')).toHaveLength(50_001);
    const huge = await rawGet(web.url('content', '/malformed/huge-attribute'));
    expect(huge.body.length).toBeGreaterThan(1_000_000);
    const control = await rawGet(web.url('content', '/malformed/control-bytes'));
    expect(control.body.includes(0)).toBe(true);
    const noise = await rawGet(web.url('content', '/malformed/binary-noise'));
    expect(noise.headers['content-type']).toMatch(/^text\/html/);
    expect(noise.body.includes('<')).toBe(false);
    const unclosed = (await rawGet(web.url('content', '/malformed/unclosed-href'))).body.toString();
    expect(unclosed.endsWith('<a href="/malformed/unclosed-href/dangling')).toBe(true);
  });

  it('serves a page of 100,000 distinct links under a disallowed prefix', async () => {
    const { status, text } = await getText(web.url('content', '/many-links/'));
    expect(status).toBe(200);
    const links = hrefs(text, web.url('content', '/many-links/'));
    expect(links).toHaveLength(100_000);
    expect(new Set(links).size).toBe(100_000);
    const robots = parseRobotsTxt(web.host('content').robotsTxt ?? '');
    expect(links.every((url) => url.startsWith(web.url('content', '/many-links/targets/')))).toBe(true);
    expect(robots.isAllowed(links[0] ?? '', UA)).toBe(false);
    expect(text.length).toBeLessThan(3_000_000);
  });

  it('links a same-host URL 5,000 characters long', async () => {
    const page = web.url('content', '/long-url');
    const links = hrefs((await getText(page)).text, page);
    const long = links.find((url) => url.startsWith(web.url('content', '/long/')));
    expect(long).toHaveLength(5_000);
    expect(caseNamed('long-url').reportedUrlPrefixes).toEqual([web.url('content', '/long/')]);
  });
});

describe('traps host', () => {
  it('links the previous and next month of the calendar, within years 1–9999', async () => {
    const links = async (path: string) => hrefs((await getText(web.url('traps', path))).text, web.url('traps', path));
    expect(await links('/calendar/2026/12')).toEqual(
      expect.arrayContaining([web.url('traps', '/calendar/2026/11'), web.url('traps', '/calendar/2027/01')]),
    );
    expect(await links('/calendar/0001/01')).not.toContain(web.url('traps', '/calendar/0000/12'));
    expect((await rawGet(web.url('traps', '/calendar/10000/01'))).status).toBe(404);
  });

  it('makes /loop/ paths grow by segments and /search queries by parameters', async () => {
    const loop = web.url('traps', '/loop/a/');
    expect(hrefs((await getText(loop)).text, loop)).toEqual(
      expect.arrayContaining([
        web.url('traps', '/loop/a/a/'),
        web.url('traps', '/loop/a/b/'),
        web.url('traps', '/loop/a/a/b/'),
      ]),
    );
    const search = web.url('traps', '/search?q=a&q=a');
    expect(hrefs((await getText(search)).text, search)).toContain(web.url('traps', '/search?q=a&q=a&q=a'));
    expect(web.host('traps').trapPrefixes).toEqual(['/calendar/', '/loop/', '/search?']);
  });
});

describe('big-robots host', () => {
  it('serves a 10 MB robots.txt whose rule past 500 KiB does not count', async () => {
    const host = web.host('big-robots');
    const response = await rawGet(`${host.origin}/robots.txt`);
    expect(response.body.length).toBe(10_000_000);
    const text = response.body.toString('latin1');
    expect(text.startsWith('User-agent: *\nDisallow: /private/\n')).toBe(true);
    expect(text.endsWith('Disallow: /late/\n')).toBe(true);
    expect(text.indexOf('Disallow: /late/')).toBeGreaterThan(500 * 1024);
    expect(text).not.toMatch(/\n\n/);
    const robots = parseRobotsTxt(response.body);
    expect(robots.isAllowed(`${host.origin}/private/secret`, UA)).toBe(false);
    expect(robots.isAllowed(`${host.origin}/late/page`, UA)).toBe(true);
    expect(host.disallowedKnownPaths).toEqual(['/private/secret']);
    expect(host.expectedAllowedPaths).toEqual(['/', '/late/page', '/ok']);
  });

  it('links the disallowed page, which no good-page fetch ever requests', async () => {
    web.resetLogs();
    await Promise.all(
      web.goodPageUrls.filter((url) => url.startsWith(web.host('big-robots').origin)).map((url) => rawGet(url)),
    );
    const index = web.url('big-robots', '/');
    expect(hrefs((await getText(index)).text, index)).toContain(web.url('big-robots', '/private/secret'));
    expect(web.requestLog(web.host('big-robots').origin).some((r) => r.path.startsWith('/private/'))).toBe(false);
  });
});

describe('raw host', () => {
  const origin = (): string => web.host('raw').origin;

  it('resets the connection after 1,000 of 100,000 promised bytes', async () => {
    const result = await exchange(origin(), getRequest('/reset-mid-body'));
    expect(result.errorCode).toBe('ECONNRESET');
    const text = result.bytes.toString('latin1');
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain('content-length: 100000\r\n');
    expect(result.bytes.length - text.indexOf('\r\n\r\n') - 4).toBeLessThanOrEqual(1_000);
  });

  it('closes after 100 of 100,000 promised bytes', async () => {
    const result = await exchange(origin(), getRequest('/short-body'));
    expect([result.ended, result.errorCode]).toEqual([true, undefined]);
    const text = result.bytes.toString('latin1');
    expect(text).toContain('content-length: 100000\r\n');
    expect(result.bytes.length - text.indexOf('\r\n\r\n') - 4).toBe(100);
    expect((await httpOutcome(`${origin()}/short-body`)).errorCode).toBeDefined();
  });

  it('answers a garbage status line that HTTP clients refuse', async () => {
    const result = await exchange(origin(), getRequest('/garbage-status'));
    expect(result.bytes.toString('latin1')).toMatch(/^HTTP\/1\.1 ABC nonsense\r\n\r\n/);
    expect((await httpOutcome(`${origin()}/garbage-status`)).errorCode).toMatch(/^HPE_/);
  });

  it('sends 200 KB of headers, more than any client accepts', async () => {
    const result = await exchange(origin(), getRequest('/huge-headers'));
    expect(result.bytes.indexOf('\r\n\r\n')).toBeGreaterThan(200_000);
    expect((await httpOutcome(`${origin()}/huge-headers`)).errorCode).toBe('HPE_HEADER_OVERFLOW');
  });

  it('serves robots.txt and its index, and answers a malformed request with 400', async () => {
    expect((await getText(`${origin()}/robots.txt`)).text).toBe('User-agent: *\nAllow: /\n');
    const bad = await exchange(origin(), 'NONSENSE\r\n\r\n');
    expect(bad.bytes.toString('latin1')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(bad.ended).toBe(true);
  });
});

describe('silent host', () => {
  it('accepts the connection and never sends a byte', async () => {
    web.resetLogs();
    const result = await exchange(web.host('silent').origin, getRequest('/robots.txt'), 500);
    expect(result.bytes.length).toBe(0);
    expect([result.ended, result.errorCode]).toEqual([false, undefined]);
    expect(web.requestLog(web.host('silent').origin).map((r) => [r.path, r.status])).toEqual([['/robots.txt', 0]]);
  });
});

describe('close', () => {
  it('resolves quickly with hanging connections open, and frees every port', async () => {
    // A 4 GiB brotli bomb takes about half a second to build: close() lands in the middle.
    const hostile = await startHostileWeb({ firstAddress: 80, dripIntervalMs: 50, bombDecodedBytes: 4 * 1024 * MIB });
    const drip = httpOutcome(hostile.url('bodies', '/slow-drip'));
    const endless = await openSocket(hostile.host('bodies').origin);
    endless.write(getRequest('/endless'));
    endless.pause();
    const silent = await openSocket(hostile.host('silent').origin);
    silent.write(getRequest('/robots.txt'));
    const halfHead = await openSocket(hostile.host('raw').origin);
    halfHead.write('GET / HTTP/1.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const bomb = httpOutcome(hostile.url('bodies', '/bomb/brotli'));
    await new Promise((resolve) => setTimeout(resolve, 50));

    const started = performance.now();
    await hostile.close();
    expect(performance.now() - started).toBeLessThan(1_000);

    expect((await drip).errorCode).toBeDefined();
    expect((await bomb).status).toBeUndefined();
    for (const socket of [endless, silent, halfHead]) socket.destroy();
    for (const host of hostile.hosts) {
      const refused = await new Promise<string | undefined>((resolve) => {
        const socket = connect({ host: host.address, port: host.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(undefined);
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
      });
      expect([host.name, refused]).toEqual([host.name, 'ECONNREFUSED']);
    }
  });
});
