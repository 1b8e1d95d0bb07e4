// A redis-server of a test's own, on a free loopback port: with or without persistence
// (appendonly, in a temporary directory), and restartable on the same port and directory, to
// see what a crawl does when its Redis goes away and comes back, empty or not.
// Every wait is bounded; `stop()` (in afterAll) kills the process whatever state it is in.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM: it saves its append-only file) and starts it again on the same port. */
  restart(options?: { readonly downMs?: number }): Promise<void>;
  /** Stops the server for good and removes its directory. */
  stop(): Promise<void>;
}

/** Whether a redis-server binary is on the PATH (null) or why not. */
export function redisServerMissing(): string | null {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8', timeout: 5000 });
  return probe.status === 0 ? null : `redis-server is not available (${probe.error?.message ?? probe.stderr.trim()})`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function startOwnRedis(options: {
  readonly persistent: boolean;
  readonly extraArgs?: readonly string[];
}): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'politely-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--loglevel',
    'warning',
  ];
  args.push(
    ...(options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    ...(options.extraArgs ?? []),
  );
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server on port ${port} did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const halt = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    restart: async ({ downMs = 0 } = {}) => {
      await halt();
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    stop: async () => {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether something on the port answers PING with PONG within a second. */
export function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1', () => socket.write('PING\r\n'));
    const done = (answer: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (data) => done(String(data).startsWith('+PONG')));
    socket.on('error', () => done(false));
    const timer = setTimeout(() => done(false), 1000);
  });
}
