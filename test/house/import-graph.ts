// The repository's structure read from its own imports, for the house tests. TypeScript's own
// pre-processor finds the imports, re-exports and `import('…')` calls with a literal specifier.
// Relative specifiers are resolved to files; a `.js` specifier names its `.ts` source.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files.sort();
}

export function specifiersOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map((imported) => imported.fileName);
}

/** The file a relative specifier names, or undefined when none exists. */
export function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** File → the files it imports by relative path. */
export function fileGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const specifier of specifiersOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file, specifier);
      if (target !== undefined) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The folder-level graph of one source root: each sub-folder of `root` is one node (its files and
 * everything under it), and each file directly in `root` is a node of its own.
 */
export function folderGraph(root: string, graph: ReadonlyMap<string, readonly string[]>): Map<string, Set<string>> {
  const nodeOf = (file: string): string => {
    const [first, ...rest] = relative(root, file).split(sep);
    return rest.length === 0 ? (first as string) : `${first}/`;
  };
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = nodeOf(file);
    const edges = folders.get(from) ?? new Set<string>();
    for (const target of targets) {
      if (!target.startsWith(root + sep)) continue;
      const to = nodeOf(target);
      if (to !== from) edges.add(to);
    }
    folders.set(from, edges);
  }
  return folders;
}

/** Every cycle's members (strongly connected components of more than one node, or a self-loop). */
export function cyclesOf<T>(graph: ReadonlyMap<T, Iterable<T>>): T[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  let next = 0;
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const onStack = new Set<T>();
  const stack: T[] = [];
  const cycles: T[][] = [];
  const edges = (node: T): T[] => [...(graph.get(node) ?? [])];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: T; pending: T[] }[] = [];
    const enter = (node: T): void => {
      index.set(node, next);
      low.set(node, next);
      next++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, pending: edges(node) });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const target = frame.pending.pop();
      if (target !== undefined) {
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: T[] = [];
      let member: T;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges(frame.node).includes(frame.node)) cycles.push(component);
    }
  }
  return cycles;
}
