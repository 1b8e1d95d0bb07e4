// Summarises a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) as shares of the CPU time:
// by module (a politely package and its folder, a dependency, a part of Node) and by function.
// Pure: it takes the parsed profile and returns figures. Used by cost-per-page.bench.js.
//
// Self time: each sample belongs to the node V8 stopped in; its time is the delta to the next
// sample (V8's timeDeltas[i + 1]; the last sample gets the mean interval). `(idle)` samples are
// the event loop waiting for I/O, not CPU, and are left out of the total. `(program)` is time in
// V8 and native code that no JavaScript frame owns; `(garbage collector)` is GC on the main thread.

/**
 * The module a frame's script belongs to:
 * - `@politely/<package>/<folder>` for politely's built code (packages/<package>/dist/<folder>/…);
 * - the package name for a dependency (…/node_modules/<name>/… or …/node_modules/@scope/name/…);
 * - `node:<area>` for Node's own code (node:internal/streams/… → node:streams);
 * - `(program)`, `(garbage collector)`, `(root)` as V8 names them, `(native)` for native
 *   functions; else the file's name.
 */
export function moduleOf(callFrame) {
  const url = callFrame.url ?? '';
  // V8's own entries are named in parentheses; other frames without a script are native
  // functions (JSON.parse, the URL parser, string writes), grouped together.
  if (url === '') return callFrame.functionName.startsWith('(') ? callFrame.functionName : '(native)';
  if (url.startsWith('node:')) {
    const parts = url.slice('node:'.length).split('/');
    return `node:${parts[0] === 'internal' && parts.length > 2 ? parts[1] : parts[parts.length > 1 ? 1 : 0]}`;
  }
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const ownPackage = /\/packages\/([^/]+)\/dist\/(?:([^/]+)\/)?/.exec(path);
  const lastNodeModules = path.lastIndexOf('/node_modules/');
  if (lastNodeModules >= 0) {
    const rest = path.slice(lastNodeModules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (ownPackage !== null) {
    const folder = ownPackage[2] === undefined || ownPackage[2].endsWith('.js') ? '' : `/${ownPackage[2]}`;
    return `@politely/${ownPackage[1]}${folder}`;
  }
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A function's name as a person reads it: `name (file:line)`. */
function functionOf(callFrame) {
  const name = callFrame.functionName || '(anonymous)';
  if (!callFrame.url) return name;
  const file = callFrame.url.slice(callFrame.url.lastIndexOf('/') + 1);
  return `${name} (${file}:${callFrame.lineNumber + 1})`;
}

/**
 * `{ cpuMs, idleMs, byModule, byFunction }`: `cpuMs` is the sampled CPU time (idle left out);
 * `byModule` and `byFunction` are `[{ name, module?, ms, share }]`, largest first, the first `top`
 * of each (default 15).
 */
export function summariseCpuProfile(profile, { top = 15 } = {}) {
  const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  const { samples, timeDeltas } = profile;
  const meanUs = samples.length === 0 ? 0 : (profile.endTime - profile.startTime) / samples.length;
  for (let i = 0; i < samples.length; i++) {
    const us = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : meanUs;
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + Math.max(0, us));
  }
  let cpuUs = 0;
  let idleUs = 0;
  const modules = new Map();
  const functions = new Map();
  for (const [id, us] of selfUs) {
    const { callFrame } = nodeById.get(id);
    if (callFrame.functionName === '(idle)' && callFrame.url === '') {
      idleUs += us;
      continue;
    }
    cpuUs += us;
    const module = moduleOf(callFrame);
    modules.set(module, (modules.get(module) ?? 0) + us);
    const name = functionOf(callFrame);
    const entry = functions.get(name) ?? { module, us: 0 };
    entry.us += us;
    functions.set(name, entry);
  }
  const ranked = (entries) =>
    entries
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map(({ us, ...rest }) => ({ ...rest, ms: us / 1000, share: cpuUs === 0 ? 0 : us / cpuUs }));
  return {
    cpuMs: cpuUs / 1000,
    idleMs: idleUs / 1000,
    byModule: ranked([...modules].map(([name, us]) => ({ name, us }))),
    byFunction: ranked([...functions].map(([name, { module, us }]) => ({ name, module, us }))),
  };
}

/** Shares by a coarser grouping: politely, its dependencies, Node, native functions, GC, V8 (`(program)`). */
export function shareByOwner(byModuleAll) {
  const owners = { politely: 0, dependencies: 0, node: 0, native: 0, gc: 0, v8: 0 };
  for (const { name, share } of byModuleAll) {
    if (name.startsWith('@politely/')) owners.politely += share;
    else if (name.startsWith('node:')) owners.node += share;
    else if (name === '(garbage collector)') owners.gc += share;
    else if (name === '(native)') owners.native += share;
    else if (name.startsWith('(')) owners.v8 += share;
    else owners.dependencies += share;
  }
  return owners;
}
