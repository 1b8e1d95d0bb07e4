// The API reports of the public packages: one per public entry point, written by API Extractor
// from the built declarations (run `pnpm run build` first) to packages/<pkg>/etc/.
//
//   node scripts/api-report.mjs --update   writes every report (`pnpm api:update`)
//   node scripts/api-report.mjs            fails when a report differs from the code (`pnpm api:check`)
//
// A public package is one whose package.json is not private; its public entry points are its
// exports map's subpaths, except './package.json' and './internal' (outside semver,
// docs/releases.md). Settings shared by all are in api-extractor.json at the root.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BASE_CONFIG = join(ROOT, 'api-extractor.json');

/** Subpaths of an exports map that no report covers: the manifest, and the workspace's own helpers. */
export const UNREPORTED_SUBPATHS = ['./package.json', './internal'];

/** The public entry points of every public package, in a stable order. */
export function apiEntries() {
  const entries = [];
  for (const folder of readdirSync(join(ROOT, 'packages')).sort()) {
    const dir = join(ROOT, 'packages', folder);
    let pkg;
    try {
      pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (pkg.private === true) continue;
    const unscoped = pkg.name.replace(/^@[^/]+\//, '');
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      if (UNREPORTED_SUBPATHS.includes(subpath)) continue;
      const types = typeof target === 'object' && target !== null ? target.types : undefined;
      if (typeof types !== 'string') throw new Error(`${pkg.name}: exports['${subpath}'] has no types condition`);
      const suffix = subpath === '.' ? '' : `-${subpath.slice(2).replaceAll('/', '-')}`;
      const main = pkg.exports['.']?.types;
      entries.push({
        name: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
        dir,
        dts: join(dir, types),
        mainDts: subpath === '.' || typeof main !== 'string' ? undefined : join(dir, main),
        report: join(dir, 'etc', `${unscoped}${suffix}.api.md`),
      });
    }
  }
  return entries;
}

/**
 * Runs API Extractor on one entry point. `update` writes the report; otherwise the report is only
 * compared with the committed one. Returns whether it succeeded, whether the report changed, and
 * every message at warning level or above, as text.
 */
export function extractApi(entry, { update = false } = {}) {
  const base = ExtractorConfig.loadFile(BASE_CONFIG);
  if (update) mkdirSync(dirname(entry.report), { recursive: true });
  const temp = mkdtempSync(join(tmpdir(), 'politely-api-'));
  try {
    const config = ExtractorConfig.prepare({
      configObject: {
        ...base,
        projectFolder: entry.dir,
        mainEntryPointFilePath: entry.dts,
        apiReport: {
          ...base.apiReport,
          enabled: true,
          reportFileName: basename(entry.report).replace(/\.api\.md$/, ''),
          reportFolder: dirname(entry.report),
          reportTempFolder: temp,
        },
      },
      configObjectFullPath: BASE_CONFIG,
      packageJsonFullPath: join(entry.dir, 'package.json'),
    });
    // A subpath entry (frontier/testing) may use types that the package's main entry exports: users
    // name them from there. API Extractor reads one entry at a time, so it calls them forgotten.
    const fromMain = new Set(entry.mainDts === undefined ? [] : exportsOf(entry.mainDts).keys());
    const messages = [];
    const result = Extractor.invoke(config, {
      localBuild: update,
      showVerboseMessages: false,
      messageCallback: (message) => {
        const forgotten = message.messageId === 'ae-forgotten-export' && /The symbol "([^"]+)"/.exec(message.text)?.[1];
        if (forgotten && fromMain.has(forgotten)) message.logLevel = 'none';
        // The report file's own notices (created, copied, changed) are what `changed` says.
        const aboutReport = message.messageId.startsWith('console-api-report');
        if (!aboutReport && (message.logLevel === 'error' || message.logLevel === 'warning')) {
          const where = message.sourceFilePath ? ` (${relative(ROOT, message.sourceFilePath)})` : '';
          messages.push(`${message.logLevel} ${message.messageId}: ${message.text}${where}`);
        }
        message.handled = true;
      },
    });
    return { succeeded: result.succeeded, changed: result.apiReportChanged, messages };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The names a declaration file exports, each with the symbol it stands for. */
function exportsOf(dts) {
  const program = ts.createProgram([dts], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(dts);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`${dts}: not a module`);
  const names = new Map();
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    names.set(exported.name, exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported);
  }
  return names;
}

/**
 * The names an entry point exports whose declaration has no doc comment (a JSDoc summary, or at
 * least a tag such as @deprecated), read from the built declarations.
 */
export function undocumentedNames(entry) {
  const missing = [];
  for (const [name, symbol] of exportsOf(entry.dts)) {
    const documented = (symbol.declarations ?? []).some((declaration) => {
      const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
      return ts.getJSDocCommentsAndTags(node).length > 0;
    });
    if (!documented) missing.push(name);
  }
  return missing.sort();
}

/**
 * The names an entry point exports that are declared outside its own package: re-exports of
 * another package's names (or of a Node.js type), which would give one name two import paths.
 */
export function foreignNames(entry) {
  const own = join(entry.dir, 'dist') + sep;
  const foreign = [];
  for (const [name, symbol] of exportsOf(entry.dts)) {
    const files = (symbol.declarations ?? []).map((declaration) => declaration.getSourceFile().fileName);
    if (files.some((file) => !resolve(file).startsWith(own))) foreign.push(name);
  }
  return foreign.sort();
}

function main() {
  const update = process.argv.includes('--update');
  let failed = 0;
  for (const entry of apiEntries()) {
    const { succeeded, changed, messages } = extractApi(entry, { update });
    const status = update ? (changed ? 'updated' : 'unchanged') : changed ? 'DIFFERS' : 'ok';
    process.stdout.write(`${entry.name}: ${status} (${relative(ROOT, entry.report)})\n`);
    for (const message of messages) process.stdout.write(`  ${message}\n`);
    if (!succeeded || (changed && !update)) failed++;
  }
  if (failed > 0) {
    process.stderr.write(
      update
        ? `${failed} entry point(s) have API Extractor errors (above).\n`
        : `${failed} API report(s) differ from the code or have errors: review, then run \`pnpm api:update\` and commit the reports.\n`,
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
