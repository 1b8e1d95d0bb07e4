// No secret in any output: the real bin crawls a loopback site with a password-bearing Redis URL
// (a Redis of the test's own that requires the password), a proxy URL with credentials (a real
// loopback proxy the crawl goes through) and credential headers, and none of the secrets appears
// in stdout, stderr, --print-config, the report, the log file, the page records or the WARC
// archive. Usage errors of crawl, control and seeds given a password URL mask it too.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackProxy, startLoopbackProxy } from '../../../test/support/loopback-proxy.js';
import { redisCommand, redisToolsMissing } from '../../../test/support/redis-launch.js';
import { type OwnRedis, startOwnRedis } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { startServer, type TestServer } from '../../../test/support/site-server.js';
import { type CliResult, runCli } from './run-cli.js';

const UA = 'SecretBot/1.0 (+https://example.invalid/bot)';
const REDIS_PASSWORD = 's3cret-PW';
const PROXY_PASSWORD = 'proxy-SECRET';
const TOKEN = 'tok-SECRET';
const COOKIE = 'cookie-SECRET';
/** Every secret given, and the proxy's Basic credentials as they go on the wire. */
const SECRETS = [
  REDIS_PASSWORD,
  PROXY_PASSWORD,
  TOKEN,
  COOKIE,
  Buffer.from(`proxyuser:${PROXY_PASSWORD}`).toString('base64'),
];

const serverMissing = redisToolsMissing(['redis-server', 'redis-cli']);
if (serverMissing !== null) console.warn(`[cli] secrets-masked: SKIPPED: ${serverMissing}`);

/** The secrets found in `text`, for a message that names them. */
function secretsIn(text: string): string[] {
  return SECRETS.filter((secret) => text.includes(secret));
}

function expectNoSecret(where: string, text: string): void {
  expect(secretsIn(text), where).toEqual([]);
}

function expectNoSecretIn(result: CliResult): void {
  expectNoSecret('stdout', result.stdout);
  expectNoSecret('stderr', result.stderr);
}

describe.concurrent('politely control, seeds, crawl: usage errors mask a password URL', () => {
  const store = `redis://:${REDIS_PASSWORD}@127.0.0.1:6379/0`;

  it('control: a bad crawl id, and a store that is not Redis', async () => {
    const badId = await runCli(['control', 'pause', '--store', store, '--crawl-id', 'no spaces {here}']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain(
      "politely: control: --crawl-id must be 1 to 100 letters, digits, '.', ':', '_' or '-'",
    );
    expectNoSecretIn(badId);
    const notRedis = await runCli(['control', 'pause', '--store', `postgres://app:${REDIS_PASSWORD}@127.0.0.1/db`]);
    expect(notRedis.code).toBe(2);
    expect(notRedis.stderr).toContain('postgres://app:***@127.0.0.1/db');
    expectNoSecretIn(notRedis);
  });

  it('seeds add: a bad crawl id, a missing one, and an unknown store', async () => {
    const badId = await runCli(['seeds', 'add', '--store', store, '--crawl-id', 'x/y', 'https://example.com/']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain(
      "politely: seeds add: --crawl-id must be 1 to 100 letters, digits, '.', ':', '_' or '-', got \"x/y\"",
    );
    expectNoSecretIn(badId);
    const noId = await runCli(['seeds', 'add', '--store', store, 'https://example.com/']);
    expect(noId.stderr).toContain('politely: seeds add: --store redis://… needs --crawl-id NAME');
    expectNoSecretIn(noId);
    const unknown = await runCli([
      'seeds',
      'add',
      '--store',
      `mysql://u:${REDIS_PASSWORD}@h/db`,
      'https://example.com/',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('mysql://u:***@h/db');
    expectNoSecretIn(unknown);
  });

  it('crawl: a Redis URL that does not parse (a password holding "/"), a bad crawl id, a proxy and a header', async () => {
    const broken = await runCli([
      'crawl',
      '--ua',
      UA,
      '--store',
      `redis://:s3c/${REDIS_PASSWORD}@127.0.0.1:6379/0`,
      '--crawl-id',
      'x',
      'http://127.0.0.1:9/',
    ]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).not.toContain('s3c');
    expectNoSecretIn(broken);
    const badId = await runCli(['crawl', '--ua', UA, '--store', store, '--crawl-id', 'a{b}', 'http://127.0.0.1:9/']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain(
      "politely: crawl: --crawl-id must be 1 to 100 letters, digits, '.', ':', '_' or '-'",
    );
    expectNoSecretIn(badId);
    const proxy = await runCli([
      'crawl',
      '--ua',
      UA,
      '--proxy',
      `https://u:${PROXY_PASSWORD}@127.0.0.1:1`,
      'http://127.0.0.1:9/',
    ]);
    expect(proxy.code).toBe(2);
    expect(proxy.stderr).toContain('https://u:***@127.0.0.1:1');
    expectNoSecretIn(proxy);
    const header = await runCli(['crawl', '--ua', UA, '--header', `Authorization ${TOKEN}`, 'http://127.0.0.1:9/']);
    expect(header.code).toBe(2);
    expectNoSecretIn(header);
  });
});

describe.skipIf(skipWithout('redis-server', serverMissing))(
  `politely crawl with secrets: none in any output${serverMissing === null ? '' : ` [SKIPPED: ${serverMissing}]`}`,
  () => {
    let redis: OwnRedis;
    let site: TestServer;
    let proxy: LoopbackProxy;
    let dir: string;
    let store: string;
    let proxyUrl: string;
    beforeAll(async () => {
      redis = await startOwnRedis({ persistent: false });
      // Set once it answers PING (the launcher's readiness check is a PING without a password).
      await redisCommand(redis.port, ['CONFIG', 'SET', 'requirepass', REDIS_PASSWORD]);
      store = `redis://:${REDIS_PASSWORD}@127.0.0.1:${redis.port}/0`;
      site = await startServer({
        '/robots.txt': 'User-agent: *\nAllow: /\n',
        '/': '<a href="/a">a</a> <a href="/b">b</a>',
        '/a': '<p>a</p>',
        '/b': '<p>b</p>',
      });
      proxy = await startLoopbackProxy('127.0.0.1');
      proxyUrl = `http://proxyuser:${PROXY_PASSWORD}@127.0.0.1:${proxy.port}`;
      dir = mkdtempSync(join(tmpdir(), 'politely-secrets-'));
    });
    afterAll(async () => {
      await Promise.all([redis?.stop(), site?.close(), proxy?.close()]);
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    const given = (): string[] => [
      '--ua',
      UA,
      '--store',
      store,
      '--crawl-id',
      `secrets-${process.pid}`,
      '--proxy',
      proxyUrl,
      '--header',
      `Authorization: Bearer ${TOKEN}`,
      '--header',
      `Cookie: sid=${COOKIE}`,
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '0',
    ];

    it('--print-config shows every setting with its secrets masked', async () => {
      const result = await runCli(['crawl', ...given(), '--print-config', `${site.base}/`]);
      expect(result.code).toBe(0);
      expectNoSecretIn(result);
      const config = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(config['store']).toBe(`redis://:***@127.0.0.1:${redis.port}/0`);
      expect(config['proxy']).toBe(`http://proxyuser:***@127.0.0.1:${proxy.port}`);
      expect(config['header']).toEqual(['Authorization: ***', 'Cookie: ***']);
    });

    it('a crawl through the proxy, with the headers: no secret in stdout, stderr, report, log, records or WARC', async () => {
      const result = await runCli([
        'crawl',
        ...given(),
        '--log',
        'json',
        '--log-file',
        join(dir, 'crawl.log'),
        '--report',
        join(dir, 'report.html'),
        '--out',
        join(dir, 'pages.jsonl'),
        '--out',
        join(dir, 'pages.csv'),
        '--warc',
        join(dir, 'archive.warc'),
        '--cdx',
        `${site.base}/`,
      ]);
      expect(result.code, result.stderr).toBe(0);
      // The secrets were used: the site got the headers, through the proxy, and Redis took the password.
      expect(site.paths().sort()).toEqual(['/', '/a', '/b', '/robots.txt']);
      for (const logged of site.log) {
        expect(logged.headers['authorization'], logged.path).toBe(`Bearer ${TOKEN}`);
        expect(logged.headers['cookie'], logged.path).toContain(COOKIE);
      }
      expect(proxy.log.map((entry) => `${entry.method} ${entry.target}`)).toContain(
        `CONNECT ${new URL(site.base).host}`,
      );
      expectNoSecretIn(result);
      const files = readdirSync(dir);
      for (const name of ['crawl.log', 'report.html', 'pages.jsonl', 'pages.csv']) expect(files).toContain(name);
      const warc = files.filter((name) => name.endsWith('.warc'));
      expect(warc.length).toBeGreaterThan(0);
      for (const name of files) expectNoSecret(name, readFileSync(join(dir, name), 'latin1'));
      // The report names the store, masked; the WARC keeps the request, its credentials masked.
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(`redis://:***@127.0.0.1:${redis.port}/0`);
      const archived = warc.map((name) => readFileSync(join(dir, name), 'latin1')).join('');
      expect(archived).toMatch(/\r\nauthorization: \*\*\*\r\n/i);
      expect(archived).toMatch(/\r\ncookie: \*\*\*\r\n/i);
    });

    it('a wrong password: the refusal names the store masked', async () => {
      const wrong = `redis://:wrong-${REDIS_PASSWORD}@127.0.0.1:${redis.port}/0`;
      const result = await runCli(['crawl', ...given().map((arg) => (arg === store ? wrong : arg)), `${site.base}/`]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`redis://:***@127.0.0.1:${redis.port}/0`);
      expectNoSecretIn(result);
    });
  },
);
