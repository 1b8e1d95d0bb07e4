// The Redis URL of a crawl, checked before any connection is made, so that a typo is one clear
// line rather than a crash, a hang or a crawl silently kept in another database:
//
//   redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]
//   rediss://[[USER]:PASSWORD@]HOST[:PORT][/DB][?servername=NAME][&ca=FILE]   (TLS)
//
//   redis-cluster://[[USER]:PASSWORD@]HOST:PORT[,HOST:PORT…][/0]          (Redis Cluster: any reachable nodes)
//   rediss-cluster://…[?servername=NAME][&ca=FILE]                          (Redis Cluster, TLS)
//
// Whether DB exists depends on the server (its `databases` setting): that is checked once
// connected (connection.ts). A cluster has database 0 only. Error messages name the URL with its
// password masked.

import { maskUrl, PolitelyError } from '@politely/core';

/** A parsed Redis URL (`redis://`, `rediss://`): connection fields, and a display form with the password masked. */
export interface RedisUrl {
  readonly tls: boolean;
  /** A name or an address (IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
  /** The database index (SELECT), a decimal integer ≥ 0; the server's range is checked once connected. */
  readonly db: number;
  readonly username: string | undefined;
  readonly password: string | undefined;
  /** `rediss://` only: the name the server's certificate must carry, when it differs from `host`. */
  readonly servername: string | undefined;
  /** `rediss://` only: a PEM file of the certificate authorities to trust instead of the system's. */
  readonly ca: string | undefined;
  /** The URL for messages: the password replaced by `***`, the database always shown. */
  readonly display: string;
}

/** Query parameters a Redis URL may carry, and for which scheme. */
const TLS_PARAMETERS = ['servername', 'ca'] as const;

/**
 * Parses and checks a `redis://` or `rediss://` URL. Throws ERR_INVALID_OPTION with one line that
 * names the URL (password masked) and what is wrong with it.
 */
export function parseRedisUrl(url: string, entryPoint = 'redis'): RedisUrl {
  const shown = typeof url === 'string' ? maskUrl(url) : String(url);
  const fail = (why: string): never => {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `${entryPoint}: ${JSON.stringify(shown)} is not a usable Redis URL: ${why}`,
    );
  };
  if (typeof url !== 'string') return fail('expected a string');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'redis-cluster' || scheme === 'rediss-cluster')
    return fail(`a ${scheme}:// URL names a Redis Cluster: give it where a cluster is accepted (parseRedisClusterUrl)`);
  if (scheme !== 'redis' && scheme !== 'rediss')
    return fail(
      `the scheme must be redis://, rediss:// (TLS), redis-cluster:// or rediss-cluster://, got ${scheme === undefined ? 'none' : `${scheme}:`}`,
    );
  if (!url.slice(scheme.length + 1).startsWith('//')) return fail(`expected ${scheme}://HOST`);
  // The authority by hand first: WHATWG URL only says "Invalid URL" for a bad port. Read from the
  // masked URL: a password holding `/` would otherwise be read as a port and quoted.
  const authority = /^[a-z]+:\/\/(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)(?::([^/?#]*))?/i.exec(shown);
  const rawPort = authority?.[2];
  if (
    rawPort !== undefined &&
    rawPort !== '' &&
    !(/^\d{1,5}$/.test(rawPort) && Number(rawPort) >= 1 && Number(rawPort) <= 65_535)
  ) {
    return fail(`the port must be an integer from 1 to 65535, got '${rawPort}'`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('it does not parse as a URL');
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return fail('the host is missing');
  if (parsed.hash !== '') return fail(`a fragment (${parsed.hash}) has no meaning here`);
  const path = parsed.pathname;
  let db = 0;
  if (path !== '' && path !== '/') {
    const index = path.slice(1);
    if (!/^\d{1,6}$/.test(index))
      return fail(`the database (the path) must be a decimal integer such as /0, got '${decodeURIComponent(path)}'`);
    db = Number(index);
  }
  const tls = scheme === 'rediss';
  const known = new Set<string>(TLS_PARAMETERS);
  for (const key of new Set(parsed.searchParams.keys())) {
    if (!known.has(key))
      return fail(`unknown query parameter '${key}' (known: ${TLS_PARAMETERS.join(', ')}, for rediss:// only)`);
    if (!tls) return fail(`'${key}' is a TLS option: use rediss://`);
    if (parsed.searchParams.getAll(key).length > 1) return fail(`'${key}' is given more than once`);
    if (parsed.searchParams.get(key) === '') return fail(`'${key}' needs a value`);
  }
  if (parsed.username !== '' && parsed.password === '')
    return fail('a user name needs a password: USER:PASSWORD@HOST, or :PASSWORD@HOST for the default user');
  const decode = (text: string): string | undefined => {
    if (text === '') return undefined;
    try {
      return decodeURIComponent(text);
    } catch {
      return fail('the user name or password is not validly %-encoded');
    }
  };
  const port = rawPort === undefined || rawPort === '' ? 6379 : Number(rawPort);
  const displayHost = host.includes(':') ? `[${host}]` : host;
  const userinfo = parsed.username !== '' || parsed.password !== '' ? `${parsed.username}:${parsed.password}@` : '';
  const query = parsed.search;
  return {
    tls,
    host,
    port,
    db,
    username: decode(parsed.username),
    password: decode(parsed.password),
    servername: parsed.searchParams.get('servername') ?? undefined,
    ca: parsed.searchParams.get('ca') ?? undefined,
    display: maskUrl(`${scheme}://${userinfo}${displayHost}:${port}/${db}${query}`),
  };
}

/** A `redis-cluster://` or `rediss-cluster://` URL, checked: the seed nodes and what they share. */
export interface RedisClusterUrl extends Omit<RedisUrl, 'host' | 'port' | 'db'> {
  /** The seed nodes: any reachable node of the cluster tells the others. */
  readonly nodes: readonly { readonly host: string; readonly port: number }[];
}

/** Whether a URL names a Redis Cluster (`redis-cluster://`, `rediss-cluster://`). */
export function isRedisClusterUrl(url: string): boolean {
  return /^rediss?-cluster:/i.test(url);
}

/**
 * Parses and checks a `redis-cluster://HOST:PORT,HOST:PORT` (or `rediss-cluster://`) URL: each
 * node as a `redis://` URL would be, database 0 only. Throws ERR_INVALID_OPTION with one line
 * that names the URL (password masked) and what is wrong with it.
 */
export function parseRedisClusterUrl(url: string, entryPoint = 'redis'): RedisClusterUrl {
  const shown = typeof url === 'string' ? maskUrl(url) : String(url);
  const fail = (why: string): never => {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `${entryPoint}: ${JSON.stringify(shown)} is not a usable Redis Cluster URL: ${why}`,
    );
  };
  if (typeof url !== 'string') return fail('expected a string');
  const shape = /^(rediss?)-cluster:\/\/(?:([^@/?#]*)@)?([^/?#]*)(.*)$/i;
  const match = shape.exec(url);
  if (match === null) return fail('expected redis-cluster://HOST:PORT,HOST:PORT or rediss-cluster://…');
  // A password with a raw `/`, `?` or `#` ends the nodes early: refused before a node (a piece of
  // the password) is quoted.
  if (shape.exec(shown)?.[3] !== match[3])
    return fail("the user name or password holds '/', '?', '#' or '@': %-encode it");
  const [, base, userinfo, hosts, rest] = match as unknown as [string, string, string | undefined, string, string];
  if (hosts === '') return fail('no node given: expected HOST:PORT[,HOST:PORT…]');
  const nodes = hosts.split(',').map((node) => {
    if (node === '') return fail('an empty node between commas');
    try {
      return parseRedisUrl(
        `${base.toLowerCase()}://${userinfo === undefined ? '' : `${userinfo}@`}${node}${rest}`,
        entryPoint,
      );
    } catch (error) {
      const why = (error as Error).message.replace(/^.*?is not a usable Redis URL: /, '');
      return fail(`node ${JSON.stringify(node)}: ${why}`);
    }
  });
  const first = nodes[0]!;
  if (first.db !== 0) fail(`a cluster has database 0 only, got /${first.db}`);
  const scheme = `${base.toLowerCase()}-cluster`;
  const credentials = first.display.match(/^[a-z]+:\/\/([^@/]*@)?/)?.[1] ?? '';
  const query = rest.includes('?') ? rest.slice(rest.indexOf('?')) : '';
  return {
    tls: first.tls,
    nodes: nodes.map(({ host, port }) => ({ host, port })),
    username: first.username,
    password: first.password,
    servername: first.servername,
    ca: first.ca,
    display: `${scheme}://${credentials}${nodes.map((n) => `${n.host.includes(':') ? `[${n.host}]` : n.host}:${n.port}`).join(',')}${query}`,
  };
}
