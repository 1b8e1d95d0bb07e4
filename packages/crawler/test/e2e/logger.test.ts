// The `logger` option with a real pino logger writing JSON lines to a stream of the test's own,
// crawling a real HTTP server on loopback: every event arrives as an entry with its level and
// fields, the warnings among them, and the crawler writes nothing to the console.
import { Writable } from 'node:stream';
import { createCrawler } from '@politely/crawler';
import { createMemoryFrontierStore } from '@politely/frontier';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'LogBot/1.0 (+http://example.invalid/bot)';

const servers: TestServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Entry = Record<string, unknown> & { level: string; event: string };

/** A pino logger writing to a stream the test reads; its entries parsed. */
function streamLogger(level = 'info'): { logger: pino.Logger; entries: () => Entry[] } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const logger = pino({ level, base: null, formatters: { level: (label) => ({ level: label }) } }, stream);
  return {
    logger,
    entries: () =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Entry),
  };
}

/** Counts every write to the console and the standard streams (each still goes through). */
function watchConsole(): () => number {
  const spies = [
    vi.spyOn(process.stdout, 'write'),
    vi.spyOn(process.stderr, 'write'),
    ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((name) => vi.spyOn(console, name)),
  ];
  return () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0);
}

describe('createCrawler({ logger })', () => {
  it('logs responses, skips with their reason, errors and warnings to a pino stream, and nothing to the console', async () => {
    const server = await startServer({
      '/robots.txt': 'User-agent: *\nDisallow: /private/\n',
      '/': '<a href="/a">a</a> <a href="/private/x">x</a> <a href="/broken">b</a> <a href="/reset">r</a>',
      '/a': '<p>a</p>',
      '/broken': (_req, res) => {
        res.statusCode = 500;
        res.end('no');
      },
      '/reset': (req) => req.socket.destroy(),
    });
    servers.push(server);
    const { logger, entries } = streamLogger();
    const store = createMemoryFrontierStore();
    const consoleWrites = watchConsole();
    const options = { userAgent: UA, allowNet: ['127.0.0.0/8'], minDelayMs: 0, maxRetries: 0, store, logger };
    const stats = await createCrawler({ ...options, seeds: [`${server.base}/`] }).run();
    // The same store again: finished, nothing to do (a warning).
    await createCrawler({ ...options, seeds: [] }).run();
    expect(consoleWrites()).toBe(0);

    const logged = entries();
    for (const entry of logged) {
      expect(['debug', 'info', 'warn', 'error']).toContain(entry.level);
      expect(typeof entry['time']).toBe('number');
      expect(typeof entry.event).toBe('string');
    }
    const responses = logged.filter((e) => e.event === 'response');
    expect(responses.map((e) => e['url']).sort()).toEqual(
      [`${server.base}/`, `${server.base}/a`, `${server.base}/broken`].sort(),
    );
    expect(responses.find((e) => e['url'] === `${server.base}/a`)).toMatchObject({
      level: 'info',
      kind: 'page',
      status: 200,
      host: new URL(server.base).host,
      durationMs: expect.any(Number),
      bytes: expect.any(Number),
    });
    expect(logged.find((e) => e.event === 'robots')).toMatchObject({ level: 'info', status: 200 });
    // Every skip the stats count, with its reason.
    const skips = logged.filter((e) => e.event === 'skip');
    expect(skips).toContainEqual(
      expect.objectContaining({ level: 'info', reason: 'robots', url: `${server.base}/private/x` }),
    );
    expect(skips.length).toBe(Object.values(stats.skipped).reduce((a, b) => a + (b ?? 0), 0));
    // A request that got no response: an error, for good (no retries).
    expect(logged.filter((e) => e.event === 'error')).toEqual([
      expect.objectContaining({
        level: 'error',
        url: `${server.base}/reset`,
        stage: 'fetch',
        willRetry: false,
        error: expect.any(String),
      }),
    ]);
    expect(stats.errors).toBe(1);
    // No request at debug: the logger's level is info.
    expect(logged.some((e) => e.event === 'request')).toBe(false);
    expect(logged.filter((e) => e.event === 'done')).toHaveLength(2);
    // The warning of the second run.
    expect(logged.filter((e) => e.level === 'warn' && e.event === 'warning')).toEqual([
      expect.objectContaining({
        kind: 'nothing-to-do',
        done: expect.any(Number),
        msg: expect.stringContaining('nothing to do'),
      }),
    ]);
    expect(server.paths().filter((p) => p === '/private/x')).toEqual([]);
  });

  it('at debug, logs every request and every duplicate link too', async () => {
    const server = await startServer({
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/': '<a href="/a">a</a> <a href="/a">again</a>',
      '/a': '<a href="/">home</a>',
    });
    servers.push(server);
    const { logger, entries } = streamLogger('debug');
    await createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      seeds: [`${server.base}/`],
      logger,
    }).run();
    const logged = entries();
    expect(logged.filter((e) => e.event === 'request').map((e) => e['url'])).toEqual([
      `${server.base}/`,
      `${server.base}/a`,
    ]);
    expect(logged.some((e) => e.event === 'skip' && e['reason'] === 'duplicate' && e.level === 'debug')).toBe(true);
  });

  it('refuses a logger without its level methods, naming what is missing', () => {
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, logger: { info: () => {} } as never }),
      'logger must have the methods debug, info, warn and error',
      'missing: debug, warn, error',
    );
    expectInvalidOption(() => createCrawler({ userAgent: UA, loger: {} } as never), 'logger');
  });
});
