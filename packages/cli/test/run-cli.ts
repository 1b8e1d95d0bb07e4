// Runs the real `politely` bin in a child process, as a user would.

import { spawn } from 'node:child_process';
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
export function runCli(args: readonly string[], input = ''): Promise<CliResult> {
  if (!existsSync(DIST_MAIN)) throw new Error('packages/cli/dist is missing: run `pnpm build` first');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
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
