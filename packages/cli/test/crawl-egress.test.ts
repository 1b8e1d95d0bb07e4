// `politely crawl --header --from --cookies --proxy`: what reaches the servers (their own logs
// and a real loopback proxy's), and the usage errors for bad values, each naming its flag.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CookieSites, startCookieSites } from '../../../test/support/cookie-sites.js';
import { type LoopbackProxy, startLoopbackProxy } from '../../../test/support/loopback-proxy.js';
import { startServer, type TestServer } from '../../../test/support/site-server.js';
import { runCli } from './run-cli.js';

const UA = 'EgressBot/1.0 (+https://example.invalid/bot)';
let site: TestServer;
let sites: CookieSites;
let proxy: LoopbackProxy;

beforeAll(async () => {
  site = await startServer(
    { '/robots.txt': 'User-agent: *\nAllow: /\n', '/': '<a href="/a">a</a>', '/a': '<p>a</p>' },
    '127.0.0.2',
  );
  sites = await startCookieSites();
  proxy = await startLoopbackProxy('127.0.0.4');
});
afterAll(async () => {
  await Promise.all([site.close(), sites.close(), proxy.close()]);
});

describe('politely crawl: headers, From, proxy', () => {
  it('sends every --header and --from on robots.txt and pages, through --proxy', async () => {
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--log',
      'json',
      '--delay',
      '0',
      '--header',
      'Accept-Language: fr',
      '--header',
      'X-Trace:  t-1 ',
      '--from',
      'ops@example.com',
      '--proxy',
      proxy.url,
      '--allow-net',
      '127.0.0.2',
      '--allow-net',
      '127.0.0.4',
      `${site.base}/`,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(site.paths().sort()).toEqual(['/', '/a', '/robots.txt']);
    for (const logged of site.log) {
      expect(logged.headers, logged.path).toMatchObject({
        'user-agent': UA,
        from: 'ops@example.com',
        'accept-language': 'fr',
        'x-trace': 't-1',
      });
    }
    expect(proxy.log.map((entry) => `${entry.method} ${entry.target}`)).toContain(`CONNECT ${new URL(site.base).host}`);
  });

  it('--cookies sends a cookie back to the site that set it, and to no other', async () => {
    const result = await runCli([
      'crawl',
      '--ua',
      UA,
      '--log',
      'json',
      '--delay',
      '0',
      '--scope',
      'any',
      '--cookies',
      '--allow-net',
      '127.0.0.0/8',
      `${sites.home.base}/`,
    ]);
    expect(result.code).toBe(0);
    expect(sites.home.cookieOf('/next')).toBe('sid=s1');
    expect(sites.home.cookieOf('/after')).toBe('sid=s1; hop=h1');
    expect(sites.other.log.length).toBeGreaterThan(0);
    expect(sites.other.log.every((entry) => entry.cookie === undefined)).toBe(true);
  });
});

describe.concurrent('politely crawl: egress usage errors', () => {
  const usageError = async (args: string[], ...mentions: string[]) => {
    const result = await runCli(['crawl', '--ua', UA, ...args, 'http://127.0.0.2:9/']);
    expect(result.code).toBe(2);
    for (const mention of mentions) expect(result.stderr).toContain(mention);
    expect(result.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  };

  it('refuses a --header without a colon', () =>
    usageError(['--header', 'NoColonHere'], "crawl: --header: expected 'Name: value'", 'NoColonHere'));
  it('refuses a forbidden --header, naming it', () =>
    usageError(['--header', 'Host: evil.example'], 'crawl: --header: the Host header may not be set'));
  it('refuses --header User-Agent, pointing to --ua', () =>
    usageError(['--header', 'User-Agent: x'], 'the User-Agent header may not be set', 'userAgent'));
  it('refuses a --header given twice', () =>
    usageError(['--header', 'X-A: 1', '--header', 'x-a: 2'], 'crawl: --header: the x-a header is given twice'));
  it('refuses a --from that is not an e-mail address', () =>
    usageError(['--from', 'nobody'], 'crawl: --from must be an e-mail address', '"nobody"'));
  it('refuses a --proxy that is not http://', () =>
    usageError(['--proxy', 'socks5://127.0.0.4:1080'], 'crawl: --proxy: must be an http:// URL'));
  it('refuses a private --proxy not allowed with --allow-net', () =>
    usageError(
      ['--proxy', 'http://127.0.0.4:3128'],
      'crawl: proxy http://127.0.0.4:3128: 127.0.0.4 is Loopback',
      '--allow-net 127.0.0.4',
    ));
});
