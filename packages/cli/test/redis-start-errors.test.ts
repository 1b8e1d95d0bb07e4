// `politely crawl --store redis://…` when the store cannot be used: one line on stderr, exit 2,
// in bounded time; never a stack trace, an ioredis "Unhandled error event", a hang, or a crawl
// silently kept in database 0.

import { describe, expect, it } from 'vitest';
import { freePort, redisServerMissing, startOwnRedis } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirements.js';
import { type CliResult, runCli } from './run-cli.js';

const UA = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const serverMissing = redisServerMissing();
if (serverMissing !== null) console.warn(`[cli] redis-start-errors: SKIPPED: ${serverMissing}`);

async function crawlWith(store: string): Promise<CliResult & { ms: number }> {
  const startedAt = Date.now();
  const result = await runCli([
    'crawl',
    '--ua',
    UA,
    '--allow-net',
    '127.0.0.0/8',
    '--store',
    store,
    '--crawl-id',
    'start-errors',
    'http://127.0.0.1:9/',
  ]);
  return { ...result, ms: Date.now() - startedAt };
}

function expectOneLine(result: CliResult, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).not.toMatch(/Unhandled error event|\n\s+at |internal error/);
  expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stdout).toBe('');
}

describe.skipIf(skipWithout('redis-server', serverMissing))(
  `politely crawl --store redis://… that cannot be used${serverMissing === null ? '' : ` [SKIPPED: ${serverMissing}]`}`,
  () => {
    it('says in one line, within the connect timeout, that nothing answers', async () => {
      const port = await freePort();
      const result = await crawlWith(`redis://:hunter2@127.0.0.1:${port}/0`);
      expectOneLine(
        result,
        new RegExp(
          `^politely: crawl: --store: cannot reach redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port}/0 within 5 s: connect ECONNREFUSED`,
        ),
      );
      expect(result.stderr).not.toContain('hunter2');
      // 5 s of retries, plus starting node on a machine that may be busy: far from a hang.
      expect(result.ms).toBeLessThan(12_000);
    }, 25_000);

    it('refuses a database that is not a number, and one the server does not have', async () => {
      const own = await startOwnRedis({ persistent: false });
      try {
        expectOneLine(
          await crawlWith(`redis://127.0.0.1:${own.port}/abc`),
          /^politely: crawl: --store "redis:\/\/127\.0\.0\.1:\d+\/abc" is not a usable Redis URL: the database \(the path\) must be a decimal integer such as \/0, got '\/abc'\n$/,
        );
        expectOneLine(
          await crawlWith(`redis://127.0.0.1:${own.port}/99`),
          /^politely: crawl: --store: redis:\/\/127\.0\.0\.1:\d+\/99: database 99 does not exist on this server \(it has 16: 0 to 15\)\n$/,
        );
        expectOneLine(
          await crawlWith(`redis://127.0.0.1:${own.port}/0?timeout=5`),
          /unknown query parameter 'timeout'/,
        );
        expectOneLine(
          await crawlWith(`redis://127.0.0.1:70000/0`),
          /the port must be an integer from 1 to 65535, got '70000'/,
        );
      } finally {
        await own.stop();
      }
    }, 20_000);

    it('gives up on rediss:// to a plain server within the connect timeout', async () => {
      const own = await startOwnRedis({ persistent: false });
      try {
        const result = await crawlWith(`rediss://127.0.0.1:${own.port}`);
        expectOneLine(
          result,
          new RegExp(`^politely: crawl: --store: cannot reach rediss://127\\.0\\.0\\.1:${own.port}/0 within 5 s: `),
        );
        expect(result.ms).toBeLessThan(12_000);
      } finally {
        await own.stop();
      }
    }, 25_000);
  },
);
