import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from './run-cli.js';

// One server per robots.txt behaviour: each is its own origin (its own port).
type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;
const behaviours: Record<string, Behaviour> = {
  rules: (req, res) => (req.url === '/robots.txt' ? res.end('User-agent: *\nDisallow: /private\n') : res.end('page')),
  notFound: (_req, res) => ((res.statusCode = 404), res.end()),
  unavailable403: (_req, res) => ((res.statusCode = 403), res.end()),
  serverError: (_req, res) => ((res.statusCode = 503), res.end()),
  tooMany: (_req, res) => ((res.statusCode = 429), res.end()),
  reset: (req) => req.socket.destroy(),
  stalled: (_req, res) => (res.writeHead(200), res.write('User-agent: *\n')),
  gzip: (_req, res) => (
    res.writeHead(200, { 'content-encoding': 'gzip' }), res.end(gzipSync('User-agent: *\nDisallow: /z\n'))
  ),
};
const servers: Server[] = [];
const origins: Record<string, string> = {};
let requestsSeen = 0;

beforeAll(async () => {
  for (const [name, behaviour] of Object.entries(behaviours)) {
    const server = createServer((req, res) => {
      requestsSeen++;
      behaviour(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    origins[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function explain(...urls: string[]): Promise<Record<string, unknown>[]> {
  const result = await runCli([
    'robots',
    'explain',
    '--ua',
    'LiveBot/1.0',
    '--timeout',
    '500',
    '--allow-net',
    '127.0.0.1',
    '--json',
    ...urls,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return jsonLines(result.stdout) as Record<string, unknown>[];
}

describe('politely robots explain (live robots.txt)', () => {
  it('rfc9309 2.3.1.1: a 2xx robots.txt decides by its rules, with the deciding line', async () => {
    const [disallowed, allowed] = await explain(`${origins.rules}/private/x`, `${origins.rules}/public`);
    expect(disallowed).toMatchObject({
      allowed: false,
      reason: 'rules',
      status: 200,
      rule: { line: 2, text: 'Disallow: /private' },
    });
    expect(allowed).toMatchObject({ allowed: true, reason: 'rules', status: 200, basis: 'no-matching-rule' });
  });

  it('rfc9309 2.3.1.3: 4xx means unavailable, everything allowed', async () => {
    const [notFound, forbidden] = await explain(`${origins.notFound}/x`, `${origins.unavailable403}/x`);
    expect(notFound).toMatchObject({ allowed: true, reason: 'unavailable', status: 404 });
    expect(forbidden).toMatchObject({ allowed: true, reason: 'unavailable', status: 403 });
  });

  it('rfc9309 2.3.1.4: 5xx, 429, a reset and a timeout mean unreachable, everything disallowed', async () => {
    const results = await explain(
      `${origins.serverError}/x`,
      `${origins.tooMany}/x`,
      `${origins.reset}/x`,
      `${origins.stalled}/x`,
    );
    expect(results.map((r) => [r.allowed, r.reason, r.status])).toEqual([
      [false, 'unreachable', 503],
      [false, 'unreachable', 429],
      [false, 'unreachable', null],
      [false, 'unreachable', null],
    ]);
  });

  it('reads a gzip-encoded robots.txt', async () => {
    const [result] = await explain(`${origins.gzip}/z/1`);
    expect(result).toMatchObject({ allowed: false, reason: 'rules', status: 200 });
  });

  it('prints the robots.txt outcome for a person', async () => {
    const result = await runCli([
      'robots',
      'explain',
      '--ua',
      'LiveBot',
      '--timeout',
      '500',
      '--allow-net',
      '127.0.0.0/8',
      `${origins.serverError}/x`,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('DISALLOWED');
    expect(result.stdout).toContain(`${origins.serverError}/robots.txt → 503 (unreachable)`);
  });

  it('refuses a loopback origin without --allow-net (the SSRF guard): a blocked address, said so, nothing requested', async () => {
    const before = requestsSeen;
    const result = await runCli([
      'robots',
      'explain',
      '--ua',
      'LiveBot',
      '--timeout',
      '500',
      '--json',
      `${origins.rules}/public`,
    ]);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toMatchObject([
      { allowed: false, reason: 'unreachable', status: null, addressBlocked: true },
    ]);
    expect(requestsSeen).toBe(before);
    // The readable form says what happened and how to allow it, not "unreachable".
    const text = await runCli(['robots', 'explain', '--ua', 'LiveBot', '--timeout', '500', `${origins.rules}/public`]);
    expect(text.stdout).toContain('→ not requested: blocked address');
    expect(text.stdout).toContain('decided by:    its host is on a loopback, private or link-local address');
    expect(text.stdout).toContain('--allow-net 127.0.0.0/8');
    expect(text.stdout).not.toContain('5xx, 429 or network error');
    expect(requestsSeen).toBe(before);
  });

  it('rejects a malformed --allow-net as a usage error naming it', async () => {
    const result = await runCli([
      'robots',
      'explain',
      '--ua',
      'LiveBot',
      '--allow-net',
      '300.1.1.1/8',
      `${origins.rules}/public`,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--allow-net: expected a network like 127.0.0.0/8 or an address, got "300.1.1.1/8"',
    );
  });
});
