// Runs the real `politely` bin in a child process, as a user would.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../bin/politely.js', import.meta.url));
export const DEMO_ROBOTS = fileURLToPath(new URL('../assets/demo-robots.txt', import.meta.url));
const DIST_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/politely.js ...args`, feeding `input` to stdin, and collects the outcome. */
export function runCli(args: readonly string[], input = '', options: { cwd?: string } = {}): Promise<CliResult> {
  if (!existsSync(DIST_MAIN)) throw new Error('packages/cli/dist is missing: run `pnpm build` first');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Parses JSON lines. */
export function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** A `politely` run still going: its output so far, a way to wait for some, and its end. */
export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout (or `stream`) matches `pattern` (rejects if the process ends first or after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number, stream?: 'stdout' | 'stderr'): Promise<void>;
  readonly done: Promise<CliResult>;
}

/** Starts `node bin/politely.js ...args` and returns at once (for signals sent mid-run). */
export function startCli(args: readonly string[], options: { cwd?: string } = {}): RunningCli {
  if (!existsSync(DIST_MAIN)) throw new Error('packages/cli/dist is missing: run `pnpm build` first');
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const check of waiters) check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const check of waiters) check();
  });
  child.stdin.end();
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
      for (const check of waiters) check();
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern, timeoutMs = 20_000, stream = 'stdout') =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`timed out waiting for ${pattern} in:\n${stdout}\n${stderr}`)),
          timeoutMs,
        );
        const finish = (error?: Error): void => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error === undefined) resolve();
          else reject(error);
        };
        const check = (): void => {
          if (pattern.test(stream === 'stdout' ? stdout : stderr)) finish();
          else if (child.exitCode !== null || child.signalCode !== null)
            finish(new Error(`the process ended before ${pattern}:\n${stdout}\n${stderr}`));
        };
        waiters.add(check);
        check();
      }),
    done,
  };
}
