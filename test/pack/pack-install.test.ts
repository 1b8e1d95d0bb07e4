// Issue 12 item 7: every public package installs as users install it. Each public package is
// packed (`pnpm pack`: workspace:* becomes the real version, only `files` go in), the tarballs
// are installed with npm into an empty project in a temporary directory, and that project runs
// a crawl script and the `politely` command with nothing of the repository on its resolution
// path.
//
// Tests reach loopback only, so npm never talks to the npm registry: a tiny registry on
// 127.0.0.1 serves our tarballs and, for every third-party package, a tarball made from the copy
// pnpm installed in this repository (node_modules/.pnpm/<name>@<version>/node_modules/<name>),
// for exactly the production dependency closure of the public packages. npm gets an empty user
// and global config, so no .npmrc can send it elsewhere, and the lockfile it writes must name
// only that registry.
//
// The packages must be built (`pnpm test` builds before vitest; or `pnpm run build`).

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackage } from './packing.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES_DIR = join(REPO, 'packages');
/** The packages users install; every other workspace package must stay private. */
const EXPECTED_PUBLIC = [
  '@politely/browser',
  '@politely/cli',
  '@politely/content',
  '@politely/core',
  '@politely/crawler',
  '@politely/demo-web',
  '@politely/frontier',
  '@politely/sitemap',
  '@politely/store-redis',
  '@politely/store-sqlite',
];
const SETUP_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = 120_000;
const USER_AGENT = 'PackCheck/1.0 (+https://example.invalid/bot)';

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly files?: readonly string[];
  readonly bin?: string | Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  readonly devDependencies?: Record<string, string>;
  readonly engines?: Record<string, string>;
  readonly os?: readonly string[];
  readonly cpu?: readonly string[];
  readonly exports?: unknown;
}

interface RunResult {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program to its end (killed after `timeoutMs`); never rejects for a non-zero exit. */
function run(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error === null) return resolvePromise({ code: 0, signal: null, stdout, stderr });
        const failure = error as NodeJS.ErrnoException & { code?: number | string; signal?: string | null };
        if (typeof failure.code === 'string') return reject(error); // could not start (ENOENT, …)
        resolvePromise({ code: failure.code ?? null, signal: failure.signal ?? null, stdout, stderr });
      },
    );
  });
}

/** `run`, expecting exit code 0. */
async function runOk(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<RunResult> {
  const result = await run(file, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${file} ${args.join(' ')} (in ${options.cwd}) ended with ${result.code ?? result.signal}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

/** Runs `task` over `items`, at most `limit` at a time. */
async function inBatches<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += limit) {
    results.push(...(await Promise.all(items.slice(start, start + limit).map(task))));
  }
  return results;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** The workspace packages under packages/, by name. */
function workspacePackages(): Map<string, { dir: string; pkg: PackageJson }> {
  const found = new Map<string, { dir: string; pkg: PackageJson }>();
  for (const entry of readdirSync(PACKAGES_DIR, { withFileTypes: true })) {
    const dir = join(PACKAGES_DIR, entry.name);
    if (!entry.isDirectory() || !existsSync(join(dir, 'package.json'))) continue;
    const pkg = readJson<PackageJson>(join(dir, 'package.json'));
    found.set(pkg.name, { dir, pkg });
  }
  return found;
}

/** One version the registry serves: its manifest (packument entry) and its tarball. */
interface Published {
  readonly manifest: PackageJson;
  readonly file: string;
  readonly urlPath: string;
  readonly integrity: string;
  readonly shasum: string;
}

/** A package's optional peer dependencies. */
function optionalPeers(pkg: PackageJson): string[] {
  return Object.keys(pkg.peerDependencies ?? {}).filter((name) => pkg.peerDependenciesMeta?.[name]?.optional === true);
}

/**
 * What npm asks the registry about and never installs: the optional peers of an optional peer of
 * ours (vitest's: jsdom, @vitest/ui, …). None is installed here, so the loopback registry has
 * none and answers 404, and npm carries on without them.
 */
function absentOptionalPeers(publicDirs: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const dir of publicDirs) {
    for (const peer of optionalPeers(readJson<PackageJson>(join(dir, 'package.json')))) {
      const file = join(dir, 'node_modules', peer, 'package.json');
      if (existsSync(file)) for (const name of optionalPeers(readJson<PackageJson>(file))) names.add(name);
    }
  }
  return names;
}

/**
 * The third-party packages the public packages need at run time, as pnpm installed them: the
 * closure of `dependencies`, `optionalDependencies` and `peerDependencies`, each dependency
 * resolved from the directory of the package that depends on it. In pnpm's layout a package at
 * .pnpm/X/node_modules/<name> finds its dependencies beside it, in .pnpm/X/node_modules/.
 * Returns one installed directory per name@version.
 */
function thirdPartyClosure(publicDirs: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  const visited = new Set<string>();
  const queue: { dir: string; pkg: PackageJson }[] = publicDirs.map((dir) => ({
    dir,
    pkg: readJson<PackageJson>(join(dir, 'package.json')),
  }));
  const locate = (dir: string, pkg: PackageJson, dependency: string): string | undefined => {
    const candidates = [join(dir, 'node_modules', dependency)];
    // The sibling in pnpm's layout: up one level per segment of the package's own name.
    const parent = resolve(dir, ...pkg.name.split('/').map(() => '..'));
    if (parent.endsWith(`${sep}node_modules`)) candidates.push(join(parent, dependency));
    for (const candidate of candidates) {
      if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    }
    return undefined;
  };
  // Bounded: each installed directory is visited once, and there are finitely many.
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { dir, pkg } = next;
    const wanted: [string, boolean][] = [
      ...Object.keys(pkg.dependencies ?? {}).map((name): [string, boolean] => [name, true]),
      ...Object.keys(pkg.optionalDependencies ?? {}).map((name): [string, boolean] => [name, false]),
      ...Object.keys(pkg.peerDependencies ?? {}).map((name): [string, boolean] => [
        name,
        pkg.peerDependenciesMeta?.[name]?.optional !== true,
      ]),
    ];
    // An optional peer of ours (vitest, for @politely/frontier/testing): npm reads its metadata
    // to check the range, but installs it only when the project asks for it, and this one does
    // not. So the package itself is mirrored, not what it depends on (see absentOptionalPeers).
    const metadataOnly = new Set(pkg.name.startsWith('@politely/') ? optionalPeers(pkg) : []);
    for (const [name, required] of wanted) {
      if (name.startsWith('@politely/')) continue; // ours: served from their packed tarballs
      const installed = locate(dir, pkg, name);
      if (installed === undefined) {
        // An optional dependency for another platform, or an optional peer nobody installed.
        if (required)
          throw new Error(`${pkg.name} needs ${name}, which is not installed beside it (${dir}): run pnpm install`);
        continue;
      }
      if (visited.has(installed)) continue;
      visited.add(installed);
      const dependencyPkg = readJson<PackageJson>(join(installed, 'package.json'));
      found.set(`${dependencyPkg.name}@${dependencyPkg.version}`, installed);
      if (!metadataOnly.has(name)) queue.push({ dir: installed, pkg: dependencyPkg });
    }
  }
  return found;
}

/** Integrity (sha512, SRI form) and shasum (sha1, hex) of a file, as a packument gives them. */
function digests(file: string): { integrity: string; shasum: string } {
  const bytes = readFileSync(file);
  return {
    integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
    shasum: createHash('sha1').update(bytes).digest('hex'),
  };
}

const tarballName = (name: string, version: string): string =>
  `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;

// Build intermediates of native modules (better-sqlite3's object files): not needed at run time,
// and not in the published tarball either. The built addon (build/Release/*.node) stays.
const TAR_EXCLUDES = ['build/Release/obj', 'build/Release/obj.target', 'build/Release/.deps', 'build/Release/*.a'];

/** A .tgz of an installed package directory, its files under `package/` as in npm's tarballs. */
async function packInstalled(dir: string, out: string): Promise<void> {
  const entries = readdirSync(dir).filter((entry) => entry !== 'node_modules');
  await runOk(
    'tar',
    [
      '-czf',
      out,
      '--dereference',
      '--hard-dereference', // pnpm hard-links files from its store: write them as files
      ...TAR_EXCLUDES.map((pattern) => `--exclude=${pattern}`),
      '--transform',
      's,^,package/,',
      '-C',
      dir,
      '--',
      ...entries,
    ],
    { cwd: dir, timeoutMs: 60_000 },
  );
}

/** The npm registry, in little: packuments at /<name>, tarballs at /-/tarballs/<file>. */
class LoopbackRegistry {
  readonly packages = new Map<string, Map<string, Published>>();
  readonly tarballs = new Map<string, string>();
  readonly requests: { method: string; url: string; status: number }[] = [];
  private server: Server | undefined;
  base = '';

  async listen(): Promise<void> {
    const server = createServer((req, res) => this.answer(req, res));
    this.server = server;
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolveListen());
    });
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  add(manifest: PackageJson, file: string): void {
    const urlPath = `/-/tarballs/${tarballName(manifest.name, manifest.version)}`;
    const versions = this.packages.get(manifest.name) ?? new Map<string, Published>();
    versions.set(manifest.version, { manifest, file, urlPath, ...digests(file) });
    this.packages.set(manifest.name, versions);
    this.tarballs.set(urlPath, file);
  }

  private packument(name: string): unknown {
    const versions = this.packages.get(name);
    if (versions === undefined) return undefined;
    const entries = [...versions.values()].map(({ manifest, urlPath, integrity, shasum }) => {
      const fields = [
        'dependencies',
        'optionalDependencies',
        'peerDependencies',
        'peerDependenciesMeta',
        'bin',
        'engines',
        'os',
        'cpu',
      ] as const;
      const entry: Record<string, unknown> = { name: manifest.name, version: manifest.version, _hasShrinkwrap: false };
      for (const field of fields) if (manifest[field] !== undefined) entry[field] = manifest[field];
      entry.dist = { tarball: `${this.base}${urlPath}`, integrity, shasum };
      return [manifest.version, entry] as const;
    });
    // The highest version is `latest` (numeric compare of major.minor.patch; enough for a tag).
    const numbers = (version: string): number[] => version.split(/[.+-]/).slice(0, 3).map(Number);
    const latest = [...versions.keys()]
      .sort((a, b) => {
        const [x, y] = [numbers(a), numbers(b)];
        return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
      })
      .at(-1)!;
    return { name, 'dist-tags': { latest }, versions: Object.fromEntries(entries) };
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://registry.invalid').pathname;
    const reply = (status: number, type: string, body: Buffer | string): void => {
      this.requests.push({ method: req.method ?? '', url: req.url ?? '', status });
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      reply(405, 'text/plain', 'read-only registry\n');
      return;
    }
    const tarball = this.tarballs.get(path);
    if (tarball !== undefined) {
      reply(200, 'application/octet-stream', readFileSync(tarball));
      return;
    }
    // Scoped names arrive as /@scope%2fname.
    let name: string;
    try {
      name = decodeURIComponent(path.slice(1));
    } catch {
      reply(400, 'text/plain', 'bad name\n');
      return;
    }
    const packument = this.packument(name);
    if (packument === undefined) {
      reply(404, 'application/json', JSON.stringify({ error: 'Not found' }));
      return;
    }
    reply(200, 'application/json', JSON.stringify(packument));
  }

  notFound(): string[] {
    return this.requests
      .filter((request) => request.status !== 200)
      .map((request) => `${request.status} ${request.method} ${request.url}`);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
  }
}

/** A small site on 127.0.0.1 for the CLI: robots.txt disallows /private/, which pages link to. */
function startSite(): Promise<{ url: string; paths: string[]; close: () => Promise<void> }> {
  const paths: string[] = [];
  const page = (title: string, links: string[]): string =>
    `<!doctype html><html><head><title>${title}</title></head><body>${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</body></html>`;
  const pages: Record<string, string> = {
    '/': page('home', ['/a', '/b', '/private/secret']),
    '/a': page('a', ['/', '/b', '/private/other']),
    '/b': page('b', ['/a']),
  };
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    paths.push(path);
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /private/\n');
      return;
    }
    const body = pages[path];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? page('not found', []));
  });
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolveStart({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        paths,
        close: () => {
          server.closeAllConnections();
          return new Promise<void>((resolveClose) => server.close(() => resolveClose()));
        },
      });
    });
  });
}

// The crawl script of (a): everything it imports comes from the installed tarballs. It starts the
// demo web of @politely/demo-web and crawls one of its sites, news (a text sitemap and a feed in
// robots.txt, print pages that robots.txt disallows, linked from every article), with the sitemap
// plugin into a SQLite crawl file, reopens that file, and prints the stats and the servers' log.
// One site of the demo web, not all: its crawl-delay (0.25 s) keeps the script at about 10 s.
const CRAWL_SCRIPT = `
import { createCrawler } from '@politely/crawler';
import { sitemaps } from '@politely/sitemap';
import { startDemoWeb, violations } from '@politely/demo-web';
import { createSqliteFrontierStore, createSqliteRobotsCache } from '@politely/store-sqlite';

const dbFile = process.argv[2];
const web = await startDemoWeb({ firstAddress: 160, userAgent: 'PackCheck' });
try {
  const store = createSqliteFrontierStore({ path: dbFile });
  const news = web.host('news');
  const crawler = createCrawler({
    userAgent: ${JSON.stringify(USER_AGENT)},
    seeds: [news.origin + '/'], // the scope, and the origin whose sitemaps the plugin reads
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 50,
    maxPages: 100,
    store,
    robotsCache: createSqliteRobotsCache(store),
    plugins: [sitemaps()],
    handler: () => {},
  });
  const stats = await crawler.run();
  await store.close();
  const reopened = createSqliteFrontierStore({ path: dbFile });
  const counts = await reopened.counts();
  await reopened.close();
  console.log(JSON.stringify({
    stats,
    counts,
    violations: violations(web, 'PackCheck').map((entry) => entry.origin + entry.path),
    hosts: [news].map((host) => ({
      origin: host.origin,
      sitemaps: host.sitemaps,
      expectedAllowedPaths: host.expectedAllowedPaths,
      disallowedKnownPaths: host.disallowedKnownPaths,
    })),
    log: web.requestLog().map((entry) => ({ origin: entry.origin, path: entry.path, userAgent: entry.userAgent })),
  }));
} finally {
  await web.close();
}
`;

// (c): each package's main entry, imported by name from the project, where it resolved to, and
// what it exports; and the subpath export of frontier (only resolved: importing it needs vitest,
// an optional peer this project does not install).
const IMPORT_SCRIPT = `
const names = JSON.parse(process.argv[2]);
const out = {};
for (const name of names) {
  const module = await import(name);
  out[name] = { url: import.meta.resolve(name), exports: Object.keys(module).sort() };
}
out['@politely/frontier/testing'] = { url: import.meta.resolve('@politely/frontier/testing'), exports: [] };
console.log(JSON.stringify(out));
`;

let work: string;
let project: string;
let registry: LoopbackRegistry | undefined;
let site: Awaited<ReturnType<typeof startSite>> | undefined;
let publicNames: string[] = [];
let absentPeers = new Set<string>();
const packedVersions = new Map<string, string>();
/** The environment of every command run in the project: nothing of the repo, no user npm config. */
let projectEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'politely-pack-'));
  const packDir = join(work, 'packed');
  const mirrorDir = join(work, 'mirror');
  project = join(work, 'project');
  for (const dir of [packDir, mirrorDir, project]) mkdirSync(dir);

  const workspace = workspacePackages();
  const publicPackages = [...workspace.values()].filter(({ pkg }) => pkg.private !== true);
  publicNames = publicPackages.map(({ pkg }) => pkg.name).sort();
  expect(publicNames).toEqual(EXPECTED_PUBLIC);
  for (const { dir, pkg } of publicPackages) {
    for (const file of ['dist/index.js', 'dist/index.d.ts']) {
      if (!existsSync(join(dir, file)))
        throw new Error(`${relative(REPO, join(dir, file))} is missing: run \`pnpm run build\` first`);
    }
    // No public package may depend on a private one: users could not install it.
    for (const dependency of Object.keys({
      ...pkg.dependencies,
      ...pkg.optionalDependencies,
      ...pkg.peerDependencies,
    })) {
      const target = workspace.get(dependency);
      if (target !== undefined)
        expect(target.pkg.private, `${pkg.name} depends on the private ${dependency}`).not.toBe(true);
    }
  }

  // Pack each public package as it would be published.
  const packed = await Promise.all(
    publicPackages.map(async ({ dir, pkg }) => {
      const file = await packPackage(dir, packDir);
      const manifest = JSON.parse(
        (await runOk('tar', ['-xOzf', file, 'package/package.json'], { cwd: work, timeoutMs: 30_000 })).stdout,
      ) as PackageJson;
      expect(manifest.name).toBe(pkg.name);
      packedVersions.set(manifest.name, manifest.version);
      return { manifest, file };
    }),
  );

  registry = new LoopbackRegistry();
  await registry.listen();
  for (const { manifest, file } of packed) registry.add(manifest, file);

  // Mirror the third-party closure. better-sqlite3 is a native module: its install script would
  // download a prebuilt binary or compile one (about a minute). The tarball made from the
  // installed directory already holds build/Release/better_sqlite3.node, so npm installs with
  // --ignore-scripts below: nothing is downloaded or compiled, and the addon still loads.
  const closure = [...thirdPartyClosure(publicPackages.map(({ dir }) => dir))];
  absentPeers = absentOptionalPeers(publicPackages.map(({ dir }) => dir));
  const mirrored = await inBatches(closure, 8, async ([, dir]) => {
    const manifest = readJson<PackageJson>(join(dir, 'package.json'));
    const file = join(mirrorDir, tarballName(manifest.name, manifest.version));
    await packInstalled(dir, file);
    return { manifest, file };
  });
  for (const { manifest, file } of mirrored) registry.add(manifest, file);

  // The project: an empty directory outside the repo, its own npm cache, an empty npm config
  // (user and global), the registry on loopback, and no PATH entry inside the repo.
  const emptyNpmrc = join(work, 'empty-npmrc');
  const emptyGlobalNpmrc = join(work, 'empty-global-npmrc'); // npm refuses one file as both
  writeFileSync(emptyNpmrc, '');
  writeFileSync(emptyGlobalNpmrc, '');
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => entry !== '' && !resolve(entry).startsWith(REPO))
    .join(delimiter);
  projectEnv = {
    PATH: path,
    HOME: process.env.HOME ?? work,
    npm_config_registry: `${registry.base}/`,
    npm_config_userconfig: emptyNpmrc,
    npm_config_globalconfig: emptyGlobalNpmrc,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
  };
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'pack-check', private: true, type: 'module' }, null, 2)}\n`,
  );
  await runOk(
    'npm',
    [
      'install',
      '--registry',
      `${registry.base}/`,
      '--userconfig',
      emptyNpmrc,
      '--cache',
      join(work, 'npm-cache'),
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      ...publicNames,
    ],
    { cwd: project, env: projectEnv, timeoutMs: 180_000 },
  );

  site = await startSite();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await site?.close();
  await registry?.close();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('every public package installs from its packed tarball', () => {
  it('installs every dependency from the loopback registry, ours from the packed tarballs', () => {
    const absent = (line: string): boolean => absentPeers.has(decodeURIComponent(line.replace(/^404 GET \//, '')));
    expect(registry!.notFound().filter((line) => !absent(line))).toEqual([]);
    const lock = readJson<{ packages: Record<string, { version?: string; resolved?: string; link?: boolean }> }>(
      join(project, 'package-lock.json'),
    );
    const installed = Object.entries(lock.packages).filter(([location]) => location !== '');
    expect(installed.length).toBeGreaterThan(publicNames.length);
    for (const [location, entry] of installed) {
      expect(entry.link, location).toBeUndefined();
      expect(entry.resolved, location).toMatch(new RegExp(`^${registry!.base}/-/tarballs/`));
    }
    for (const name of publicNames) {
      expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(packedVersions.get(name));
    }
  });

  it('installs package.json files that name real versions, with the sources their source maps point at', () => {
    for (const name of publicNames) {
      const dir = join(project, 'node_modules', ...name.split('/'));
      const text = readFileSync(join(dir, 'package.json'), 'utf8');
      const pkg = JSON.parse(text) as PackageJson;
      expect(text, name).not.toContain('workspace:');
      expect(pkg.private, name).toBeUndefined();
      expect(pkg.files, name).toContain('dist');
      for (const [dependency, range] of Object.entries(pkg.dependencies ?? {})) {
        if (dependency.startsWith('@politely/'))
          expect(range, `${name} → ${dependency}`).toBe(packedVersions.get(dependency));
      }
      expect(existsSync(join(dir, 'dist', 'index.js')), name).toBe(true);
      // dist's source maps (and declaration maps: go-to-definition) name ../src: it ships.
      const map = JSON.parse(readFileSync(join(dir, 'dist', 'index.js.map'), 'utf8')) as { sources: string[] };
      for (const source of map.sources) expect(existsSync(join(dir, 'dist', source)), `${name}: ${source}`).toBe(true);
    }
    expect(existsSync(join(project, 'node_modules', '@politely', 'cli', 'bin', 'politely.js'))).toBe(true);
  });

  it(
    'imports each package by name from the project, resolved into its node_modules with the default conditions',
    async () => {
      writeFileSync(join(project, 'imports.mjs'), IMPORT_SCRIPT);
      const result = await runOk(process.execPath, ['imports.mjs', JSON.stringify(publicNames)], {
        cwd: project,
        env: projectEnv,
        timeoutMs: 30_000,
      });
      const found = JSON.parse(result.stdout) as Record<string, { url: string; exports: string[] }>;
      const nodeModules = realpathSync(join(project, 'node_modules'));
      for (const name of publicNames) {
        const file = realpathSync(fileURLToPath(found[name]!.url));
        expect(file, name).toBe(join(nodeModules, ...name.split('/'), 'dist', 'index.js'));
      }
      const testingEntry = realpathSync(fileURLToPath(found['@politely/frontier/testing']!.url));
      expect(testingEntry).toBe(join(nodeModules, '@politely', 'frontier', 'dist', 'testing', 'index.js'));
      const expectExports = (name: string, names: string[]): void => {
        expect(found[name]!.exports, name).toEqual(expect.arrayContaining(names));
      };
      expectExports('@politely/core', ['parseRobotsTxt', 'lintRobotsTxt', 'createRobotsGate', 'PolitelyError']);
      expectExports('@politely/crawler', ['createCrawler', 'addSeeds', 'isFatalCrawlError']);
      // The frontier contract has one import path: the crawler does not re-export it.
      expect(found['@politely/crawler']!.exports).not.toContain('createMemoryFrontierStore');
      expectExports('@politely/frontier', ['createMemoryFrontierStore', 'dedupeKeyOf', 'lastFetchAfterHints']);
      expectExports('@politely/sitemap', ['sitemaps', 'readSitemap']);
      expectExports('@politely/content', ['extractContent']);
      expectExports('@politely/store-sqlite', ['createSqliteFrontierStore', 'createSqliteRobotsCache']);
      expectExports('@politely/store-redis', ['createRedisFrontierStore', 'createRedisRobotsCache', 'createRedisLink']);
      expectExports('@politely/cli', ['main']);
      expectExports('@politely/browser', ['ChromiumRenderer', 'findChromium']);
      expectExports('@politely/demo-web', [
        'startDemoWeb',
        'startRenderWeb',
        'startUsageWeb',
        'violations',
        'minGapMs',
      ]);
      // The test webs (fleet, hostile, consent) stay in the private @politely/local-web.
      expect(found['@politely/demo-web']!.exports).not.toContain('startFleet');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'runs a crawl script: a site of the demo web, the sitemap plugin, a SQLite crawl file',
    async () => {
      writeFileSync(join(project, 'crawl.mjs'), CRAWL_SCRIPT);
      const dbFile = join(project, 'crawl.db');
      const result = await runOk(process.execPath, ['crawl.mjs', dbFile], {
        cwd: project,
        env: projectEnv,
        timeoutMs: 90_000,
      });
      const report = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as {
        stats: { pages: number; robotsRequests: number; errors: number; skipped: Record<string, number> };
        counts: { queued: number; inFlight: number; done: number };
        violations: string[];
        hosts: { origin: string; sitemaps: string[]; expectedAllowedPaths: string[]; disallowedKnownPaths: string[] }[];
        log: { origin: string; path: string; userAgent: string | undefined }[];
      };
      expect(report.stats.pages).toBeGreaterThan(0);
      expect(report.stats.errors).toBe(0);
      expect(report.stats.robotsRequests).toBe(report.hosts.length);
      // The servers' own log: every expected page fetched, nothing robots.txt disallows, the sitemaps read.
      expect(report.violations).toEqual([]);
      for (const host of report.hosts) {
        const fetched = new Set(report.log.filter((entry) => entry.origin === host.origin).map((entry) => entry.path));
        expect(host.disallowedKnownPaths.length, host.origin).toBeGreaterThan(0);
        for (const path of host.expectedAllowedPaths)
          expect(fetched.has(path), `${host.origin}${path} fetched`).toBe(true);
        for (const path of host.disallowedKnownPaths)
          expect(fetched.has(path), `${host.origin}${path} not fetched`).toBe(false);
        expect(fetched.has('/robots.txt')).toBe(true);
        expect(host.sitemaps.length, host.origin).toBeGreaterThan(0);
        for (const sitemap of host.sitemaps)
          expect(fetched.has(new URL(sitemap).pathname), `${sitemap} read`).toBe(true);
      }
      expect(report.log.every((entry) => entry.userAgent === USER_AGENT)).toBe(true);
      expect(report.stats.skipped.robots ?? 0).toBeGreaterThan(0);
      // The SQLite file (better-sqlite3's native addon loaded from the installed tarball) kept the crawl.
      expect(readFileSync(dbFile).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
      expect(report.counts).toMatchObject({ queued: 0, inFlight: 0 });
      expect(report.counts.done).toBeGreaterThanOrEqual(report.stats.pages);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'runs the politely command from node_modules/.bin: --help, --version, crawl, robots explain',
    async () => {
      const politely = join(project, 'node_modules', '.bin', 'politely');
      const options = { cwd: project, env: projectEnv, timeoutMs: 60_000 };

      const help = await run(politely, ['--help'], options);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain('politely crawl --ua UA');
      const version = await run(politely, ['--version'], options);
      expect(version.code, version.stderr).toBe(0);
      expect(version.stdout.trim()).toBe(packedVersions.get('@politely/cli'));

      const out = join(project, 'pages.jsonl');
      site!.paths.length = 0;
      const crawl = await run(
        politely,
        [
          'crawl',
          '--ua',
          USER_AGENT,
          '--allow-net',
          '127.0.0.0/8',
          '--max-pages',
          '5',
          '--delay',
          '50',
          '--log',
          'json',
          '--out',
          out,
          site!.url,
        ],
        options,
      );
      expect(crawl.code, crawl.stdout + crawl.stderr).toBe(0);
      const records = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { url: string; status: number });
      expect(records.map((record) => new URL(record.url).pathname).sort()).toEqual(['/', '/a', '/b']);
      expect(records.every((record) => record.status === 200)).toBe(true);
      expect(site!.paths).toContain('/robots.txt');
      expect(site!.paths.filter((path) => path.startsWith('/private/'))).toEqual([]);

      const explain = await run(
        politely,
        [
          'robots',
          'explain',
          '--ua',
          USER_AGENT,
          '--allow-net',
          '127.0.0.0/8',
          '--json',
          `${site!.url}private/secret`,
          `${site!.url}a`,
        ],
        options,
      );
      expect(explain.code, explain.stderr).toBe(0);
      const verdicts = explain.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { allowed: boolean; status: number | null });
      expect(verdicts.map((verdict) => verdict.allowed)).toEqual([false, true]);
      expect(verdicts[0]!.status).toBe(200);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'runs `politely demo` from the installed packages: demo-web, without the private local-web',
    async () => {
      expect(existsSync(join(project, 'node_modules', '@politely', 'local-web'))).toBe(false);
      const outDir = join(project, 'demo');
      const demo = await run(
        join(project, 'node_modules', '.bin', 'politely'),
        ['demo', '--out-dir', outDir, '--log', 'json'],
        {
          cwd: project,
          env: projectEnv,
          timeoutMs: 90_000,
        },
      );
      expect(demo.code, demo.stdout.slice(-4000) + demo.stderr).toBe(0);
      expect(readFileSync(join(outDir, 'report.html'), 'utf8')).toContain('<html');
      expect(readFileSync(join(outDir, 'pages.jsonl'), 'utf8').trim().split('\n').length).toBeGreaterThan(50);
    },
    TEST_TIMEOUT_MS,
  );
});
