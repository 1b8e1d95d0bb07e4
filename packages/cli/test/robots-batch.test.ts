import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN, jsonLines, runCli } from './run-cli.js';

const ROBOTS = 'User-agent: *\nDisallow: /private/\nAllow: /private/ok\n';
const line = (value: unknown): string => JSON.stringify(value);

describe('politely robots batch', () => {
  it('answers every line in input order and echoes ids with their JSON type', async () => {
    const input = [
      line({ id: 'a', robots: ROBOTS, ua: 'Bot', url: 'http://h/private/x' }),
      line({ id: 2, robots: ROBOTS, ua: 'Bot/1.0', url: 'http://h/private/ok' }),
      '',
      '   ',
      line({ id: 'c', robots: 'User-agent: Bot\nDisallow: /', ua: 'Bot/2 (+x)', url: 'https://h/' }),
      line({ id: 4.5, robots: ROBOTS, ua: 'Bot', url: '' }),
      line({ id: 'e', robots: 'User-agent: *\nDisallow: /', ua: 'Bot', url: '' }),
      line({ id: 'f', robots: ROBOTS, ua: 'Bot', url: '/private/relative' }),
    ].join('\n');
    const result = await runCli(['robots', 'batch'], input);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(jsonLines(result.stdout)).toEqual([
      { id: 'a', allowed: false },
      { id: 2, allowed: true },
      { id: 'c', allowed: false },
      { id: 4.5, allowed: true },
      { id: 'e', allowed: false },
      { id: 'f', allowed: false },
    ]);
  });

  it('robots_b64 carries the exact bytes: a Latin-1 rule disallows its percent-encoded byte', async () => {
    const latin1 = Buffer.concat([Buffer.from('User-agent: *\r\nDisallow: /caf'), Buffer.from([0xe9]), Buffer.from('\r\n')]);
    const b64 = latin1.toString('base64');
    const input = [
      line({ id: 1, robots_b64: b64, ua: 'Bot', url: 'http://x/caf%E9' }),
      line({ id: 2, robots_b64: b64, ua: 'Bot', url: 'http://x/caf%e9/menu' }),
      line({ id: 3, robots_b64: b64, ua: 'Bot', url: 'http://x/café' }), // UTF-8 é is %C3%A9, another path
      line({ id: 4, robots_b64: b64, ua: 'Bot', url: 'http://x/cafe' }),
    ].join('\n');
    const result = await runCli(['robots', 'batch'], input);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([
      { id: 1, allowed: false },
      { id: 2, allowed: false },
      { id: 3, allowed: true },
      { id: 4, allowed: true },
    ]);
  });

  it('a malformed line yields an error line in its place, the rest is processed, and the exit code is 1', async () => {
    const good = (id: number): string => line({ id, robots: ROBOTS, ua: 'Bot', url: 'http://h/private/x' });
    const input = [
      good(1),
      '{"id": 2, "robots": ', // line 2: invalid JSON
      line({ id: 3, robots: ROBOTS, url: 'http://h/' }), // line 3: no ua
      line({ id: 4, robots_b64: 'not base64!', ua: 'Bot', url: 'http://h/' }), // line 4
      line({ id: 5, robots: 42, ua: 'Bot', url: 'http://h/' }), // line 5
      line([1, 2]), // line 6
      good(7),
    ].join('\n');
    const result = await runCli(['robots', 'batch'], input);
    expect(result.code).toBe(1);
    const out = jsonLines(result.stdout) as Record<string, unknown>[];
    expect(out.map((o) => [o['id'], o['line'] ?? null, 'error' in o])).toEqual([
      [1, null, false],
      [null, 2, true],
      [3, 3, true],
      [4, 4, true],
      [5, 5, true],
      [null, 6, true],
      [7, null, false],
    ]);
    expect(out[2]?.['error']).toBe('missing "ua"');
    expect(out[3]?.['error']).toBe('"robots_b64" is not valid base64');
    const stderr = result.stderr.trimEnd().split('\n');
    expect(stderr).toHaveLength(5);
    expect(stderr[0]).toMatch(/^politely: robots batch: line 2: invalid JSON: /);
    expect(stderr[1]).toBe('politely: robots batch: line 3 (id 3): missing "ua"');
  });

  it('completes a 20,000-line batch over a few shared files', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => `User-agent: *\nDisallow: /p${i}/\nAllow: /p${i}/ok\n`);
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const path = i % 4 === 0 ? 'ok' : 'no';
      lines.push(line({ id: i, robots: bodies[i % bodies.length], ua: 'Bot/1.0', url: `http://h/p${i % bodies.length}/${path}` }));
    }
    const result = await runCli(['robots', 'batch'], lines.join('\n'));
    expect(result.code).toBe(0);
    const out = jsonLines(result.stdout) as { id: number; allowed: boolean }[];
    expect(out).toHaveLength(20_000);
    expect(out.every((o, i) => o.id === i)).toBe(true);
    expect(out.filter((o) => o.allowed)).toHaveLength(5_000);
  });

  it('streams: answers a line before stdin is closed', async () => {
    const child = spawn(process.execPath, [BIN, 'robots', 'batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    child.stdin.write(`${line({ id: 'first', robots: ROBOTS, ua: 'Bot', url: 'http://h/private/x' })}\n`);
    const first = await answers.next();
    expect(JSON.parse(String(first.value))).toEqual({ id: 'first', allowed: false });
    child.stdin.end(`${line({ id: 'second', robots: ROBOTS, ua: 'Bot', url: 'http://h/' })}\n`);
    const second = await answers.next();
    expect(JSON.parse(String(second.value))).toEqual({ id: 'second', allowed: true });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
  });
});
