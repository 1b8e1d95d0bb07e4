// The machinery every local web shares: bind the hosts, build their content once their origins
// are known, serve it (with validators, 304 to a client that holds it already, revised pages once
// changed), log every request, and describe the result (the manifest).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalWebError } from './errors.js';
import { type HostSpec, resourceAt } from './host-spec.js';
import { type BoundHost, closeHosts, listenHosts } from './listen.js';
import { canRevise, pageLocator, revisedResource } from './page-changes.js';
import { sendResource, statusResource } from './resource.js';
import { type RobotsFacts, robotsFacts } from './robots-facts.js';
import type { HostInfo, LocalWeb, LoggedRequest, Mutable } from './types.js';
import { type Validators, validatorsAt, wholeSecond } from './validators.js';

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
  /** `Cache-Control` on every 200 and 304; `undefined` sends none, so a recrawl revalidates every page. */
  readonly cacheControl?: string | undefined;
  /** Builds every host's content once the origins (in address order) are known. */
  build(origins: readonly string[]): BuiltHosts;
  /** The link-graph part of the manifest, host by host. */
  paths(built: BuiltHosts, origins: readonly string[], facts: readonly RobotsFacts[]): readonly HostPaths[];
}

/** A page changed by `changePages`: its revision and its own Last-Modified. */
interface PageChange {
  readonly revision: number;
  readonly validators: Validators;
}

export async function startLocalWeb(setup: LocalWebSetup): Promise<LocalWeb> {
  let specs: readonly HostSpec[] = [];
  let bound: readonly BoundHost[] = [];
  let log: LoggedRequest[] = [];
  // Every page was last modified when the web started (to the second), until it changes.
  const startValidators = validatorsAt(wholeSecond(Date.now()), setup.cacheControl);
  // Per host, by path and query exactly as requested.
  const changes: Map<string, PageChange>[] = [];
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
    let resource = isRead
      ? ((path === '/robots.txt' ? undefined : spec.answer?.(path, req.headers)) ?? resourceAt(spec, path))
      : statusResource(405, 'Method not allowed.\n', { allow: 'GET, HEAD' });
    let validators = startValidators;
    const change = isRead ? changes[index]?.get(path) : undefined;
    if (change !== undefined) {
      resource = revisedResource(resource, path, change.revision);
      validators = change.validators;
    }
    const bodyBytes = sendResource(req, res, resource, setup.gzip, validators);
    const {
      'user-agent': userAgent,
      cookie,
      'if-none-match': ifNoneMatch,
      'if-modified-since': ifModifiedSince,
    } = req.headers;
    const entry: Mutable<LoggedRequest> = {
      origin: host.origin,
      host: spec.name,
      method: req.method ?? 'GET',
      path,
      userAgent,
      status: res.statusCode,
      bodyBytes,
      atMs,
      dateMs,
    };
    if (cookie !== undefined) entry.cookie = cookie;
    if (ifNoneMatch !== undefined) entry.ifNoneMatch = ifNoneMatch;
    if (ifModifiedSince !== undefined) entry.ifModifiedSince = ifModifiedSince;
    log.push(entry);
  };

  bound = await listenHosts(setup.hostCount, setup.firstAddress, setup.port, serve);
  try {
    const origins = bound.map((host) => host.origin);
    const built = setup.build(origins);
    const facts = built.specs.map((spec) => robotsFacts(spec.robotsStatus, spec.robotsTxt, setup.userAgent));
    const paths = setup.paths(built, origins, facts);
    const hosts = built.specs.map((spec, i) => hostInfo(spec, bound[i], facts[i], paths[i]));
    specs = built.specs;
    for (let i = 0; i < specs.length; i++) changes.push(new Map());
    const locate = pageLocator(origins, built.entryUrl);
    const pages: PageAccess = {
      change(urlsOrPaths) {
        const found = new Map<string, { index: number; path: string }>();
        for (const urlOrPath of urlsOrPaths) {
          const page = locate(urlOrPath);
          const spec = specs[page.index];
          const resource = spec === undefined ? undefined : resourceAt(spec, page.path);
          if (resource === undefined || resource.status !== 200) {
            const answer = resource === undefined ? '' : ` (it answers ${resource.status})`;
            throw new LocalWebError('ERR_UNKNOWN_PAGE', `local web: ${page.url} is no page of this web${answer}`);
          }
          if (!canRevise(resource, page.path)) {
            throw new LocalWebError(
              'ERR_UNCHANGEABLE_PAGE',
              `local web: ${page.url} (${resource.headers['content-type'] ?? 'no type'}) cannot change: only HTML pages, XML files and robots.txt can`,
            );
          }
          found.set(page.url, page);
        }
        const nowMs = wholeSecond(Date.now());
        for (const { index, path } of found.values()) {
          const byPath = changes[index];
          if (byPath === undefined) continue;
          const before = byPath.get(path);
          // Strictly later than before, even for two changes within one second: If-Modified-Since must see it.
          const previousMs = (before?.validators ?? startValidators).lastModifiedMs;
          const lastModifiedMs = Math.max(nowMs, previousMs + 1000);
          byPath.set(path, {
            revision: (before?.revision ?? 0) + 1,
            validators: validatorsAt(lastModifiedMs, setup.cacheControl),
          });
        }
      },
      revisionOf(urlOrPath) {
        const page = locate(urlOrPath);
        return changes[page.index]?.get(page.path)?.revision ?? 0;
      },
    };
    return createHandle(
      hosts,
      built.entryUrl,
      setup.userAgent,
      bound,
      {
        read: () => log,
        reset: () => {
          log = [];
        },
      },
      pages,
    );
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

interface PageAccess {
  change(urlsOrPaths: readonly string[]): void;
  revisionOf(urlOrPath: string): number;
}

function createHandle(
  hosts: readonly HostInfo[],
  entryUrl: string,
  userAgent: string,
  bound: readonly BoundHost[],
  log: LogAccess,
  pages: PageAccess,
): LocalWeb {
  const byName = new Map(hosts.map((host) => [host.name, host]));
  let closing: Promise<void> | undefined;
  const host = (name: string): HostInfo => {
    const found = byName.get(name);
    if (found === undefined) {
      const known = [...byName.keys()].slice(0, 12).join(', ');
      throw new LocalWebError(
        'ERR_UNKNOWN_HOST',
        `local web: no host named ${JSON.stringify(name)} (hosts: ${known}…)`,
      );
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
    changePages: (urlsOrPaths) => pages.change(urlsOrPaths),
    revisionOf: (urlOrPath) => pages.revisionOf(urlOrPath),
    close: () => (closing ??= closeHosts(bound)),
  };
}
