// Small HTTP helpers for the local web's own tests.
import { request } from 'node:http';

export const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** One request (a GET unless `method` says), no redirect following, no decoding: what the server sent, byte for byte. */
export function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { 'user-agent': UA, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function getText(url: string): Promise<{ status: number; text: string; headers: RawResponse['headers'] }> {
  const response = await rawGet(url);
  return { status: response.status, text: response.body.toString('utf8'), headers: response.headers };
}

/** The `href`s of `<a>` tags, resolved against `base`, fragments dropped. */
export function hrefs(html: string, base: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((m) => {
    const url = new URL((m[1] ?? '').replace(/&amp;/g, '&'), base);
    url.hash = '';
    return url.href;
  });
}

/**
 * Runs `serve.js` (the built one) with `args` until it has printed its first line (the JSON
 * manifest with `--json`), gives `check` that line parsed, and stops the server whatever happens.
 */
export async function withServeJson(args: readonly string[], check: (printed: unknown) => Promise<void> | void): Promise<void> {
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
