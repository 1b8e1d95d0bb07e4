// Two sites on two loopback addresses (cookies are per host name, not per port: 127.0.0.1 and
// 127.0.0.2 are two sites to RFC 6265) for the cookie tests, each logging the Cookie header of
// every request. `home` sets cookies (on a page, on a redirect, on robots.txt, and one for the
// other site, which the RFC refuses); `other` must never receive one.

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CookieLogEntry {
  readonly path: string;
  readonly cookie: string | undefined;
}

export interface CookieSite {
  readonly base: string;
  readonly log: CookieLogEntry[];
  /**
   * The Cookie header of the first request for `path`, `undefined` if none was sent; throws if `path` was
   * never requested.
   */
  cookieOf(path: string): string | undefined;
}

export interface CookieSites {
  readonly home: CookieSite;
  readonly other: CookieSite;
  close(): Promise<void>;
}

type Route = (res: ServerResponse) => void;

const page =
  (html: string, setCookie: string[] = []): Route =>
  (res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': setCookie })
      .end(`<html><body>${html}</body></html>`);
  };

export async function startCookieSites(): Promise<CookieSites> {
  let otherBase = '';
  const other = await serve('127.0.0.2', {
    '/robots.txt': (res) => res.end('User-agent: *\nAllow: /\n'),
    '/': page('<p>the other site</p>'),
  });
  otherBase = other.site.base;
  const home = await serve('127.0.0.1', {
    '/robots.txt': (res) =>
      res
        .writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'robots=1; Path=/' })
        .end('User-agent: *\nAllow: /\n'),
    // sid for this site; a cookie claiming the other site's domain, which RFC 6265 §5.3 step 6 ignores.
    '/': page(`<a href="/next">next</a> <a href="/hop">hop</a> <a href="${otherBase}/">other</a>`, [
      'sid=s1; Path=/; HttpOnly',
      'evil=1; Domain=127.0.0.2; Path=/',
    ]),
    '/next': page('<p>next</p>'),
    '/hop': (res) => res.writeHead(302, { location: '/after', 'set-cookie': 'hop=h1; Path=/' }).end(),
    '/after': page('<p>after the redirect</p>'),
  });
  return {
    home: home.site,
    other: other.site,
    close: async () => {
      await Promise.all([home.close(), other.close()]);
    },
  };
}

async function serve(
  host: string,
  routes: Record<string, Route>,
): Promise<{ site: CookieSite; close(): Promise<void> }> {
  const log: CookieLogEntry[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    log.push({ path, cookie: req.headers.cookie });
    const route = routes[path];
    if (route === undefined) res.writeHead(404).end('not found');
    else route(res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    site: {
      base,
      log,
      cookieOf(path) {
        const found = log.find((entry) => entry.path === path);
        if (found === undefined)
          throw new Error(
            `${base}${path} was never requested (requested: ${log.map((entry) => entry.path).join(', ')})`,
          );
        return found.cookie;
      },
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
