// A crawl worker in its own process (fixtures/crawl-worker.mjs), for the multi-worker tests: its
// JSON-line events as they arrive (each stamped with when the test got it), its stderr, its exit.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const WORKER = fileURLToPath(new URL('./fixtures/crawl-worker.mjs', import.meta.url));
/** The workers run the BUILT packages. */
const BUILT = ['../crawler/dist/index.js', '../core/dist/index.js', 'dist/index.js'].map(
  (path) => new URL(path, `file://${packageDir}`),
);

/** Throws, naming what is missing, unless the packages the workers import are built. */
export function assertWorkersBuilt(): void {
  const missing = BUILT.filter((url) => !existsSync(url));
  if (missing.length > 0)
    throw new Error(
      `the workers run the built packages: run \`pnpm build\` first (missing ${missing.map(String).join(', ')})`,
    );
}

/** The page URLs a worker requested (its `request` events of kind `page`). */
export function pageRequests(worker: {
  readonly events: readonly { readonly type?: unknown; readonly kind?: unknown; readonly url?: string }[];
}): string[] {
  return worker.events.filter((e) => e.type === 'request' && e.kind === 'page').map((e) => e.url ?? '');
}

export interface WorkerProcess<E> {
  readonly child: ChildProcess;
  /** Every event so far, with the time (Date.now()) the test received it. */
  readonly events: (E & { readonly receivedAt: number })[];
  readonly stderr: string[];
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  onEvent: ((event: E) => void) | undefined;
}

/**
 * Starts the fixture worker with `config` (JSON on its command line), under `wrapper` when given
 * (a command and its arguments that run node, as `faketime -f +0.4s`).
 */
export function startWorkerProcess<E extends object>(
  config: Record<string, unknown>,
  wrapper: readonly string[] = [],
): WorkerProcess<E> {
  const [command = process.execPath, ...args] = [...wrapper, process.execPath, WORKER, JSON.stringify(config)];
  const child = spawn(command, args, {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: WorkerProcess<E> = {
    child,
    events: [],
    stderr: [],
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    onEvent: undefined,
  };
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim() !== '')) {
      const event = JSON.parse(line) as E;
      worker.events.push({ ...event, receivedAt: Date.now() });
      worker.onEvent?.(event);
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => worker.stderr.push(chunk));
  return worker;
}

/** Kills every worker still running: a test's cleanup, whatever it ended with. */
export function killWorkers(workers: readonly { readonly child: ChildProcess }[]): void {
  for (const worker of workers)
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
}

/** Polls `condition` every 20 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function waitUntil(
  what: string,
  timeoutMs: number,
  condition: () => boolean | Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
