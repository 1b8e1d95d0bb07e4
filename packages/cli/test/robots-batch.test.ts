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
      line({ id: 4.5, robots: ROBOTS, ua: 'Bot', url: 'http://h' }),
      line({ id: 'e', robots: 'User-agent: *\nDisallow: /', ua: 'Bot', url: 'HTTP://H/' }),
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
    ]);
  });

  it('robots_b64 carries the exact bytes: a Latin-1 rule disallows its percent-encoded byte', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('User-agent: *\r\nDisallow: /caf'),
      Buffer.from([0xe9]),
      Buffer.from('\r\n'),
    ]);
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

  it('a url that is not an absolute http(s) URL is an error line naming it, never a verdict; the batch goes on', async () => {
    const check = (id: number, url: unknown): string => line({ id, robots: 'User-agent: *\nAllow: /', ua: 'Bot', url });
    const input = [
      check(1, 'not a url'),
      check(2, ''),
      check(3, '/private/relative'),
      check(4, 'ftp://h/x'),
      check(5, 'javascript:alert(1)'),
      check(6, 'http://'),
      check(7, 42),
      check(8, null),
      check(9, ['http://h/']),
      check(10, 'http://h/fine'),
      check(11, 'h/no-scheme'),
    ].join('\n');
    const result = await runCli(['robots', 'batch'], input);
    expect(result.code).toBe(1);
    expect(jsonLines(result.stdout)).toEqual([
      { id: 1, line: 1, error: '"url" must be an absolute http(s) URL, got "not a url"' },
      { id: 2, line: 2, error: '"url" must be an absolute http(s) URL, got ""' },
      { id: 3, line: 3, error: '"url" must be an absolute http(s) URL, got "/private/relative"' },
      { id: 4, line: 4, error: '"url" must be an absolute http(s) URL, got "ftp://h/x"' },
      { id: 5, line: 5, error: '"url" must be an absolute http(s) URL, got "javascript:alert(1)"' },
      { id: 6, line: 6, error: '"url" must be an absolute http(s) URL, got "http://"' },
      { id: 7, line: 7, error: '"url" must be a string, got a number' },
      { id: 8, line: 8, error: '"url" must be a string, got null' },
      { id: 9, line: 9, error: '"url" must be a string, got an array' },
      { id: 10, allowed: true },
      { id: 11, line: 11, error: '"url" must be an absolute http(s) URL, got "h/no-scheme"' },
    ]);
    const stderr = result.stderr.trimEnd().split('\n');
    expect(stderr).toHaveLength(10);
    expect(stderr[0]).toBe(
      'politely: robots batch: line 1 (id 1): "url" must be an absolute http(s) URL, got "not a url"',
    );
    expect(stderr[9]).toBe(
      'politely: robots batch: line 11 (id 11): "url" must be an absolute http(s) URL, got "h/no-scheme"',
    );
  });

  it('no control character from the input reaches the terminal raw, in errors or answers', async () => {
    const hostile = '\u001b[2J\u0007\r\u009b31m\u202eevil\u2066\u007f';
    const input = [
      line({ id: hostile, robots: ROBOTS, ua: 'Bot', url: 'http://h/' }),
      line({ id: 2, robots: ROBOTS, ua: 'Bot', url: hostile }),
      line({ id: hostile, robots: ROBOTS, url: 'http://h/' }),
      `\u001b[2J\u0007{"id": 4`,
      line({ id: 5, robots: ROBOTS, ua: 'Bot', url: `http://h/${'x'.repeat(500)}\u001b[2J` }),
    ].join('\n');
    const result = await runCli(['robots', 'batch'], input);
    expect(result.code).toBe(1);
    const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    expect(result.stdout).not.toMatch(RAW);
    expect(result.stderr).not.toMatch(RAW);
    // JSON lines still carry the exact values.
    const out = jsonLines(result.stdout) as Record<string, unknown>[];
    expect(out[0]).toEqual({ id: hostile, allowed: true });
    expect(out[1]).toEqual({
      id: 2,
      line: 2,
      error: `"url" must be an absolute http(s) URL, got "\\u001b[2J\\u0007\\r\\u009b31m\\u202eevil\\u2066\\u007f"`,
    });
    expect(out[2]).toMatchObject({ id: hostile, line: 3, error: 'missing "ua"' });
    expect(out[3]).toMatchObject({ id: null, line: 4 });
    expect(out[4]).toEqual({ id: 5, allowed: true });
    const stderr = result.stderr.trimEnd().split('\n');
    expect(stderr).toHaveLength(3);
    expect(stderr[0]).toBe(
      'politely: robots batch: line 2 (id 2): "url" must be an absolute http(s) URL, got "\\u001b[2J\\u0007\\r\\u009b31m\\u202eevil\\u2066\\u007f"',
    );
    expect(stderr[1]).toBe(
      'politely: robots batch: line 3 (id "\\u001b[2J\\u0007\\r\\u009b31m\\u202eevil\\u2066\\u007f"): missing "ua"',
    );
    expect(stderr[2]).toMatch(/^politely: robots batch: line 4: invalid JSON: .*\\u001b/);
  });

  it('completes a 20,000-line batch over a few shared files', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => `User-agent: *\nDisallow: /p${i}/\nAllow: /p${i}/ok\n`);
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const path = i % 4 === 0 ? 'ok' : 'no';
      lines.push(
        line({
          id: i,
          robots: bodies[i % bodies.length],
          ua: 'Bot/1.0',
          url: `http://h/p${i % bodies.length}/${path}`,
        }),
      );
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
