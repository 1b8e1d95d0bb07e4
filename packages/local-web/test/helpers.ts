// Helpers for the local web's own tests: the raw HTTP helpers (shared with demo-web's tests) and
// a runner for the serve script.
export { getText, hrefs, type RawResponse, rawGet, UA } from '../../../test/support/raw-http.js';

/**
 * Runs `serve.js` (the built one) with `args` until it has printed its first line (the JSON
 * manifest with `--json`), gives `check` that line parsed, and stops the server whatever happens.
 */
export async function withServeJson(
  args: readonly string[],
  check: (printed: unknown) => Promise<void> | void,
): Promise<void> {
  const { spawn } = await import('node:child_process');
  const script = new URL('../dist/serve.js', import.meta.url);
  const child = spawn(process.execPath, [script.pathname, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no manifest within 10 s: ${out}`)), 10_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const end = out.indexOf('\n');
        if (end !== -1) {
          clearTimeout(timer);
          resolve(out.slice(0, end));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited with ${String(code)}`));
      });
    });
    await check(JSON.parse(line) as unknown);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}
