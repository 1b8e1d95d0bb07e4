import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from './run-cli.js';

type Route = string | Uint8Array | ((req: IncomingMessage, res: ServerResponse) => void);

interface Site {
  readonly base: string;
  /** Paths requested, in order, with when the server saw each (ms). */
  readonly log: { readonly path: string; readonly at: number }[];
  routes: Record<string, Route>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(routes: Record<string, Route> = {}): Promise<Site> {
  const site: Site = { base: '', log: [], routes };
  const server = createServer((req, res) => {
    site.log.push({ path: req.url ?? '', at: performance.now() });
    const route = site.routes[req.url ?? ''];
    if (route === undefined) {
      res.statusCode = 404;
      res.end('not found');
    } else if (typeof route === 'function') route(req, res);
    else {
      res.setHeader(
        'content-type',
        typeof route === 'string' ? (route.startsWith('<') ? 'application/xml' : 'text/plain') : 'application/gzip',
      );
      res.end(route);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return Object.assign(site, { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

const urlset = (...entries: string[]): string =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`;
const url = (loc: string, fields = ''): string => `<url><loc>${loc}</loc>${fields}</url>`;
const index = (...locs: string[]): string =>
  `<sitemapindex>${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;

const list = (...args: string[]) =>
  runCli(['sitemap', 'list', '--ua', 'ListBot/1.0 (+http://example.invalid)', '--allow-net', '127.0.0.0/8', ...args]);

describe('politely sitemap list', () => {
  it("lists the URLs of the sitemaps a site's robots.txt declares, one per line, and fetches no page", async () => {
    const site = await serve();
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${b}/sitemap_index.xml\n`,
      '/sitemap_index.xml': index(`${b}/posts.xml.gz`, `${b}/pages.xml`),
      '/posts.xml.gz': gzipSync(urlset(url(`${b}/post/1`), url(`${b}/post/2`))),
      '/pages.xml': urlset(url(`${b}/about`)),
      '/': '<html>home</html>',
      '/post/1': '<html>1</html>',
      '/post/2': '<html>2</html>',
      '/about': '<html>about</html>',
    };
    const result = await list(b);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${b}/post/1\n${b}/post/2\n${b}/about\n`);
    expect(site.log.map((r) => r.path)).toEqual(['/robots.txt', '/sitemap_index.xml', '/posts.xml.gz', '/pages.xml']);
    // One request at a time, at least the default 250 ms apart.
    const gaps = site.log.slice(1).map((r, i) => r.at - site.log[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(245);
  });

  it('--json prints {url, lastmod, changefreq, priority, sitemap} per line, null where the sitemap says nothing', async () => {
    const site = await serve();
    const b = site.base;
    site.routes = {
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/maps/s.xml': urlset(
        url(`${b}/maps/a`, '<lastmod>2024-05-06</lastmod><changefreq>daily</changefreq><priority>0.8</priority>'),
        url(`${b}/b?x=1&amp;y=2`),
      ),
    };
    const result = await list('--json', '--delay', '0', `${b}/maps/s.xml`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([
      { url: `${b}/maps/a`, lastmod: '2024-05-06', changefreq: 'daily', priority: 0.8, sitemap: `${b}/maps/s.xml` },
      // An explicit sitemap counts as declared for its own origin: /b is kept although it lies outside /maps/.
      { url: `${b}/b?x=1&y=2`, lastmod: null, changefreq: null, priority: null, sitemap: `${b}/maps/s.xml` },
    ]);
  });

  it('reports each unreadable sitemap on one stderr line, still lists the others, and exits 1', async () => {
    const site = await serve();
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nDisallow: /private/\nSitemap: ${b}/missing.xml\nSitemap: ${b}/broken.xml\nSitemap: ${b}/page.html\nSitemap: ${b}/private/s.xml\nSitemap: ${b}/good.txt\n`,
      '/broken.xml': '<urlset><url><loc>x</url></urlset>',
      '/page.html': '<!doctype html><html><body>shop</body></html>',
      '/private/s.xml': urlset(url(`${b}/secret`)),
      '/good.txt': `${b}/good\n`,
    };
    const result = await list('--delay', '0', b);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`${b}/good\n`);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `politely: sitemap ${b}/missing.xml: HTTP 404`,
      `politely: sitemap ${b}/broken.xml: malformed XML: Expected closing tag 'loc' (opened in line 1, col 14) instead of closing tag 'url'. (line 1, column 20)`,
      `politely: sitemap ${b}/page.html: not a sitemap: an HTML page`,
      `politely: skipped ${b}/private/s.xml (robots): line 2: Disallow: /private/`,
    ]);
    expect(site.log.map((r) => r.path)).not.toContain('/private/s.xml');
  });

  it('reads a sitemap with a newline (or a BOM and blank lines) before its XML declaration, and exits 0', async () => {
    const site = await serve();
    const b = site.base;
    const body = (n: string) =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${url(`${b}/${n}`)}</urlset>`;
    site.routes = { '/a.xml': `\n${body('a')}`, '/b.xml': `\ufeff\n \t\r\n${body('b')}` };
    const result = await list('--json', '--delay', '0', `${b}/a.xml`, `${b}/b.xml`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(
      jsonLines(result.stdout)
        .map((r) => (r as Record<string, unknown>)['url'])
        .sort(),
    ).toEqual([`${b}/a`, `${b}/b`]);
  });

  it('lists the whole entries of a sitemap that arrived cut, says it is partial, and exits 1', async () => {
    const site = await serve();
    const b = site.base;
    const whole = urlset(...[1, 2, 3].map((n) => url(`${b}/p${n}`)));
    const cut = whole.slice(0, whole.indexOf(`${b}/p3`) + 5);
    site.routes = { '/cut.xml': cut };
    const result = await list('--delay', '0', `${b}/cut.xml`);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`${b}/p1\n${b}/p2\n`);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`politely: sitemap ${b}/cut.xml is partial: malformed XML: `);
    expect(result.stderr).toContain(
      `; the entries complete before byte ${whole.indexOf(`<url><loc>${b}/p3`)} were read`,
    );
  });

  it('says when a site declares no sitemap, and exits 0', async () => {
    const site = await serve({ '/robots.txt': 'User-agent: *\nAllow: /\n' });
    const result = await list('--delay', '0', `${site.base}/`);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toBe(`politely: ${site.base}/robots.txt declares no sitemap\n`);
  });

  it('explains that a site whose robots.txt disallows / gets no sitemap read, and exits 1', async () => {
    const site = await serve();
    site.routes = {
      '/robots.txt': `User-agent: *\nDisallow: /\nSitemap: ${site.base}/s.xml\n`,
      '/s.xml': urlset(url(`${site.base}/x`)),
    };
    const result = await list('--delay', '0', site.base);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      `politely: skipped ${site.base}/ (robots): line 2: Disallow: /: robots.txt disallows the site's / for this user agent, so its sitemaps were not read\n`,
    );
    expect(site.log.map((r) => r.path)).toEqual(['/robots.txt']);
  });

  it('a site on loopback without --allow-net: its sitemaps are refused (blocked address), nothing requested, and exits 1', async () => {
    const site = await serve();
    site.routes = {
      '/robots.txt': `User-agent: *\nAllow: /\nSitemap: ${site.base}/s.xml\n`,
      '/s.xml': urlset(url(`${site.base}/x`)),
    };
    const result = await runCli(['sitemap', 'list', '--ua', 'ListBot/1.0 (+http://example.invalid)', site.base]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain('(blocked-address)');
    expect(result.stderr).toContain('allowNet');
    expect(site.log).toEqual([]);
  });

  it('usage errors exit 2: no --ua, no URL, an invalid URL, a bad option value, an unknown subcommand', async () => {
    const noUa = await runCli(['sitemap', 'list', 'http://127.0.0.1:9/']);
    expect(noUa.code).toBe(2);
    expect(noUa.stderr).toContain('--ua UA is required');
    const noUrl = await list();
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('give at least one site or sitemap URL');
    const invalid = await list('ftp://x/sitemap.xml');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toBe(
      'politely: sitemap list: invalid URL "ftp://x/sitemap.xml": not an absolute http(s) URL\n',
    );
    const timeout = await list('--timeout', 'soon', 'http://127.0.0.1:9/');
    expect(timeout).toMatchObject({
      code: 2,
      stderr:
        'politely: sitemap list: --timeout: expected a whole number of milliseconds ≥ 1 (or 2s, 500ms), got "soon"\n',
    });
    const delay = await list('--delay', '-1', 'http://127.0.0.1:9/');
    expect(delay).toMatchObject({
      code: 2,
      stderr: 'politely: sitemap list: --delay: expected a whole number of milliseconds (or 2s, 500ms), got "-1"\n',
    });
    const badUa = await runCli(['sitemap', 'list', '--ua', '/1.0', 'http://127.0.0.1:9/']);
    expect(badUa.code).toBe(2);
    expect(badUa.stderr).toContain('userAgent must start with a product token');
    const unknown = await runCli(['sitemap', 'fetch']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^politely: sitemap: unknown command "fetch"\n/);
    const help = await runCli(['sitemap', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('politely sitemap list --ua UA [--json]');
  });
});
