// Small HTTP helpers for the tests of the loopback webs (@politely/demo-web, @politely/local-web):
// what a server sent, byte for byte.
import { request } from 'node:http';

export const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/**
 * One request (a GET unless `method` says), no redirect following, no decoding: what the server sent, byte
 * for byte.
 */
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
