// One egress proxy for the HTTP client (undici's ProxyAgent). The SSRF guard still judges every
// target (the client checks the target's name before it sends, see http-client.ts), and the
// proxy's own address is judged like any other: a proxy on a private network must be allowed
// explicitly with allowNet, as a target there would have to be.

import { isIP } from 'node:net';
import type { Dispatcher, ProxyAgent as UndiciProxyAgent } from 'undici';
import { PolitelyError } from '../errors.js';
import { maskUrl } from '../secrets/mask-secrets.js';
import { type AddressPolicy, createGuardedLookup, describeAddress } from './address-guard.js';
import { ProxyAgent } from './undici-dispatchers.js';

/**
 * Checks a proxy URL: `http://host:port`, with optional `user:password@` (sent as Basic
 * `Proxy-Authorization`, to the proxy only). Returns it parsed.
 * @throws PolitelyError `ERR_INVALID_OPTION` naming `where` and the URL (its password masked)
 */
export function parseProxyUrl(value: unknown, where: string): URL {
  const fail = (why: string): never => {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `${where}: ${why}, got ${typeof value === 'string' ? JSON.stringify(maskUrl(value)) : String(value)}`,
    );
  };
  if (typeof value !== 'string') return fail('proxy must be an http:// URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('proxy must be an absolute http:// URL such as http://proxy.example:3128');
  }
  if (url.protocol !== 'http:') fail('proxy must be an http:// URL (one forward proxy that speaks CONNECT)');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '')
    fail('proxy must be an origin (http://host:port), without a path, query or fragment');
  return url;
}

/** The proxy URL as it may be shown, without its trailing `/`: its password replaced by `***` (see maskUrl). */
export function displayProxyUrl(url: URL): string {
  return maskUrl(url.href.replace(/\/$/, ''));
}

export interface ProxyAgentSettings {
  readonly proxy: URL;
  /** The SSRF guard's policy, or undefined when the guard is off. */
  readonly policy: AddressPolicy | undefined;
  readonly connectTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxHeaderBytes: number;
  readonly connectionsPerOrigin: number;
}

/**
 * A ProxyAgent that tunnels every request through `proxy` (CONNECT, for http and https targets
 * alike). A proxy given as an IP literal is judged now; a proxy given by name when it is
 * connected to, through the guarded lookup.
 * @throws PolitelyError `ERR_INVALID_OPTION` when the guard refuses the proxy's address
 */
export function createProxyAgent(settings: ProxyAgentSettings): Dispatcher {
  const { proxy, policy } = settings;
  const literal = proxy.hostname.replace(/^\[|\]$/g, '');
  if (policy !== undefined && isIP(literal) !== 0 && !policy.allows(literal)) {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `proxy ${displayProxyUrl(proxy)}: ${literal} is ${describeAddress(literal).description}, not a globally reachable address; a proxy on a private network must be allowed explicitly: add it to allowNet (--allow-net ${literal})`,
    );
  }
  return new ProxyAgent({
    uri: proxy.href,
    // Options of the socket to the proxy (net.connect's, despite the name): the connect deadline
    // and the guarded lookup. The type wants a port, which the proxy URL gives.
    proxyTls: {
      timeout: settings.connectTimeoutMs,
      ...(policy === undefined ? {} : { lookup: proxyLookup(policy, proxy) }),
    } as NonNullable<UndiciProxyAgent.Options['proxyTls']>,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    maxHeaderSize: settings.maxHeaderBytes,
    connections: settings.connectionsPerOrigin,
  });
}

/** The guarded lookup, with a refusal that says it was the proxy's address. */
function proxyLookup(policy: AddressPolicy, proxy: URL): ReturnType<typeof createGuardedLookup> {
  const lookup = createGuardedLookup(policy);
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      if (error instanceof PolitelyError) {
        const refusal = new PolitelyError(
          'ERR_ADDRESS_BLOCKED',
          `proxy ${displayProxyUrl(proxy)}: ${error.message}; a proxy on a private network must be allowed explicitly`,
        );
        return callback(refusal as unknown as NodeJS.ErrnoException, []);
      }
      callback(error, address, family);
    });
}
