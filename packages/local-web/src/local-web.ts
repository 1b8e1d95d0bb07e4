// The machinery every local web shares: bind the hosts, build their content once their origins
// are known, serve it, log every request, and describe the result (the manifest).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalWebError } from './errors.js';
import { resourceAt, type HostSpec } from './host-spec.js';
import { closeHosts, listenHosts, type BoundHost } from './listen.js';
import { sendResource, statusResource } from './resource.js';
import { robotsFacts, type RobotsFacts } from './robots-facts.js';
import type { HostInfo, LocalWeb, LoggedRequest } from './types.js';

/** The manifest fields that depend on the link graph, not on robots.txt alone. */
export type HostPaths = Pick<
  HostInfo,
  'expectedAllowedPaths' | 'disallowedKnownPaths' | 'nofollowPaths' | 'sitemapOnlyPaths'
>;

export interface BuiltHosts {
  readonly specs: readonly HostSpec[];
  readonly entryUrl: string;
}

export interface LocalWebSetup {
  readonly hostCount: number;
  readonly firstAddress: number;
  readonly port: number;
  readonly gzip: boolean;
  readonly userAgent: string;
  /** Builds every host's content once the origins (in address order) are known. */
  build(origins: readonly string[]): BuiltHosts;
  /** The link-graph part of the manifest, host by host. */
  paths(built: BuiltHosts, origins: readonly string[], facts: readonly RobotsFacts[]): readonly HostPaths[];
}

export async function startLocalWeb(setup: LocalWebSetup): Promise<LocalWeb> {
  let specs: readonly HostSpec[] = [];
  let bound: readonly BoundHost[] = [];
  let log: LoggedRequest[] = [];
  const serve = (index: number, req: IncomingMessage, res: ServerResponse): void => {
    const atMs = performance.now();
    const dateMs = Date.now();
    const spec = specs[index];
    const host = bound[index];
    const path = req.url ?? '/';
    if (spec === undefined || host === undefined) {
      sendResource(req, res, statusResource(503, 'The local web is starting.\n'), false);
      return;
    }
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    const resource = isRead
      ? ((path === '/robots.txt' ? undefined : spec.answer?.(path, req.headers)) ?? resourceAt(spec, path))
      : statusResource(405, 'Method not allowed.\n', { allow: 'GET, HEAD' });
    sendResource(req, res, resource, setup.gzip);
    const userAgent = req.headers['user-agent'];
    const method = req.method ?? 'GET';
    const cookie = req.headers.cookie;
    log.push({ origin: host.origin, host: spec.name, method, path, userAgent, status: res.statusCode, atMs, dateMs, ...(cookie === undefined ? {} : { cookie }) });
  };

  bound = await listenHosts(setup.hostCount, setup.firstAddress, setup.port, serve);
  try {
    const origins = bound.map((host) => host.origin);
    const built = setup.build(origins);
    const facts = built.specs.map((spec) => robotsFacts(spec.robotsStatus, spec.robotsTxt, setup.userAgent));
    const paths = setup.paths(built, origins, facts);
    const hosts = built.specs.map((spec, i) => hostInfo(spec, bound[i], facts[i], paths[i]));
    specs = built.specs;
    return createHandle(hosts, built.entryUrl, setup.userAgent, bound, {
      read: () => log,
      reset: () => {
        log = [];
      },
    });
  } catch (error) {
    await closeHosts(bound);
    throw error;
  }
}

function hostInfo(
  spec: HostSpec,
  host: BoundHost | undefined,
  facts: RobotsFacts | undefined,
  paths: HostPaths | undefined,
): HostInfo {
  if (host === undefined || facts === undefined || paths === undefined) {
    throw new Error(`local web: host ${spec.name} was built without an address`);
  }
  return {
    name: spec.name,
    description: spec.description,
    address: host.address,
    port: host.port,
    origin: host.origin,
    robotsStatus: spec.robotsStatus,
    robotsTxt: spec.robotsStatus === 200 ? spec.robotsTxt : null,
    crawlDelaySeconds: facts.crawlDelaySeconds,
    disallowedPrefixes: facts.disallowedPrefixes,
    sitemaps: facts.sitemaps,
    trapPrefixes: spec.trapPrefixes ?? [],
    ...paths,
  };
}

interface LogAccess {
  read(): readonly LoggedRequest[];
  reset(): void;
}

function createHandle(
  hosts: readonly HostInfo[],
  entryUrl: string,
  userAgent: string,
  bound: readonly BoundHost[],
  log: LogAccess,
): LocalWeb {
  const byName = new Map(hosts.map((host) => [host.name, host]));
  let closing: Promise<void> | undefined;
  const host = (name: string): HostInfo => {
    const found = byName.get(name);
    if (found === undefined) {
      const known = [...byName.keys()].slice(0, 12).join(', ');
      throw new LocalWebError('ERR_UNKNOWN_HOST', `local web: no host named ${JSON.stringify(name)} (hosts: ${known}…)`);
    }
    return found;
  };
  return {
    hosts,
    entryUrl,
    userAgent,
    host,
    url: (name, path) => new URL(path, host(name).origin + '/').href,
    requestLog: (origin) => {
      const wanted = origin === undefined ? undefined : new URL(origin).origin;
      return log.read().filter((entry) => wanted === undefined || entry.origin === wanted);
    },
    resetLogs: () => log.reset(),
    close: () => (closing ??= closeHosts(bound)),
  };
}
