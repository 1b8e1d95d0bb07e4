// A crawl worker in a child process (a fixture script on the built packages), for tests that
// kill it with SIGKILL mid-crawl and resume: its output so far, and its exit.

import { type ChildProcess, spawn } from 'node:child_process';

export interface WorkerRun {
  readonly child: ChildProcess;
  /** The exit code, or null when a signal ended it. */
  readonly exited: Promise<number | null>;
  stdout: string;
  stderr: string;
}

/** Runs `node script JSON(config)`. */
export function startWorker(script: string, config: Record<string, unknown>): WorkerRun {
  const child = spawn(process.execPath, [script, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run: WorkerRun = {
    child,
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    stdout: '',
    stderr: '',
  };
  child.stdout!.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return run;
}

/** Polls `condition` every 5 ms; rejects naming `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
