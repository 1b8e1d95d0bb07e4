// The house drawn from the imports: packages lean only on the packages below them, no package
// reaches into another's folders, and no source folder or file sits in an import cycle.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, fileGraph, folderGraph, resolveRelative, sourceFiles, specifiersOf } from './import-graph.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = join(REPO, 'packages');

interface PackageJson {
  readonly name: string;
  readonly private?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
  readonly exports?: Record<string, unknown>;
}

const packages = readdirSync(PACKAGES).map((folder) => ({
  folder,
  json: JSON.parse(readFileSync(join(PACKAGES, folder, 'package.json'), 'utf8')) as PackageJson,
}));
const byName = new Map(packages.map((pkg) => [pkg.json.name, pkg]));
const runtimeDeps = (json: PackageJson): string[] =>
  Object.keys({ ...json.dependencies, ...json.peerDependencies }).filter((name) => byName.has(name));

/**
 * The floors of the published packages: a package depends only on packages on lower floors.
 * core ← frontier (the store contract) ← stores and crawler ← sitemap, browser ← cli; content
 * (page → main content) stands on core alone.
 */
const FLOOR: Record<string, number> = {
  '@politely/core': 0,
  '@politely/content': 1,
  '@politely/frontier': 1,
  '@politely/demo-web': 1,
  '@politely/crawler': 2,
  '@politely/store-sqlite': 2,
  '@politely/store-redis': 2,
  '@politely/sitemap': 3,
  '@politely/browser': 3,
  '@politely/cli': 4,
};

describe('package seams', () => {
  it('every published package has a floor, and depends only on packages below it', () => {
    const published = packages.filter((pkg) => pkg.json.private !== true).map((pkg) => pkg.json.name);
    expect(published.sort()).toEqual(Object.keys(FLOOR).sort());
    const upward: string[] = [];
    for (const name of published) {
      for (const dep of runtimeDeps(byName.get(name)!.json)) {
        if (!(FLOOR[dep]! < FLOOR[name]!)) upward.push(`${name} → ${dep}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('the stores and the crawler depend on the frontier contract, and the stores not on the crawler', () => {
    for (const name of ['@politely/crawler', '@politely/store-sqlite', '@politely/store-redis']) {
      expect(runtimeDeps(byName.get(name)!.json), name).toContain('@politely/frontier');
    }
    for (const name of ['@politely/store-sqlite', '@politely/store-redis']) {
      expect(runtimeDeps(byName.get(name)!.json), name).not.toContain('@politely/crawler');
    }
  });

  it('the CLI ships the demo webs, not the test webs', () => {
    const cli = byName.get('@politely/cli')!.json;
    expect(runtimeDeps(cli)).toContain('@politely/demo-web');
    expect(Object.keys(cli.dependencies ?? {})).not.toContain('@politely/local-web');
    expect(byName.get('@politely/local-web')!.json.private).toBe(true);
  });

  it("the contract suite's test runner is an optional peer, not a dependency", () => {
    const frontier = byName.get('@politely/frontier')!.json;
    expect(Object.keys(frontier.exports ?? {})).toContain('./testing');
    expect(frontier.dependencies?.vitest).toBeUndefined();
    expect(frontier.peerDependencies?.vitest).toBeDefined();
    expect(frontier.peerDependenciesMeta?.vitest?.optional).toBe(true);
  });

  it("no package reaches into another package's folders by a relative path", () => {
    // The repository's shared test helpers (test/support) are for every package's tests.
    const shared = join(REPO, 'test', 'support') + sep;
    const reaches: string[] = [];
    for (const { folder } of packages) {
      const root = join(PACKAGES, folder);
      for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'test'))]) {
        for (const specifier of specifiersOf(file)) {
          if (!specifier.startsWith('.')) continue;
          const target = resolveRelative(file, specifier) ?? '';
          if (target === '' || target.startsWith(root + sep) || target.startsWith(shared)) continue;
          reaches.push(`${relative(REPO, file)} → ${specifier}`);
        }
      }
    }
    expect(reaches).toEqual([]);
  });

  it('every import of a workspace package names one the importing package declares', () => {
    const undeclared: string[] = [];
    for (const { folder, json } of packages) {
      const declared = new Set([json.name, ...Object.keys({ ...json.dependencies, ...json.peerDependencies })]);
      for (const file of sourceFiles(join(PACKAGES, folder, 'src'))) {
        for (const specifier of specifiersOf(file)) {
          const name = specifier.split('/').slice(0, 2).join('/');
          if (byName.has(name) && !declared.has(name)) undeclared.push(`${relative(REPO, file)} → ${name}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });
});

describe('source folders', () => {
  const roots = packages.map(({ folder }) => join(PACKAGES, folder, 'src'));

  it('no source file of any package is in an import cycle', () => {
    const cycles = roots.flatMap((root) => cyclesOf(fileGraph(sourceFiles(root))));
    expect(cycles.map((cycle) => cycle.map((file) => relative(REPO, file)))).toEqual([]);
  });

  it("no two folders of a package's src import each other, even through others", () => {
    const cycles = roots.flatMap((root) =>
      cyclesOf(folderGraph(root, fileGraph(sourceFiles(root)))).map(
        (cycle) => `${relative(REPO, root)}: ${cycle.join(' ⇄ ')}`,
      ),
    );
    expect(cycles).toEqual([]);
  });
});
