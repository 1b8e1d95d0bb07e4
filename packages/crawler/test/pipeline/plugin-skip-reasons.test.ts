// Plugins' own skip reasons, through real createCrawler runs against a loopback server: a declared
// reason is reported (event names the plugin, stats count it), an undeclared one throws, a bad
// declaration is refused when the crawler is created, and the crawler's own reasons stay open to plugins.

import { PolitelyError } from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type CrawlerPlugin,
  type CrawlStats,
  createCrawler,
  type ErrorEvent,
  type PluginContext,
  type SkipEvent,
} from '../../src/index.js';
import { expectInvalidOption } from '../expect-invalid-option.js';
import { LOOPBACK, type LoopbackServer, startLoopback, UA } from './pipeline-helpers.js';

let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopback();
});
afterAll(() => server.close());
afterEach(() => server.reset());

const KIND = 'widget';

/** A plugin that queues one resource of its kind at start and runs `onProcess` for it (no fetch). */
function widgetPlugin(
  name: string,
  skipReasons: Record<string, string>,
  onProcess: (context: PluginContext) => void,
  kind = KIND,
): CrawlerPlugin {
  return {
    name,
    skipReasons,
    processors: { [kind]: { fetch: false, process: async (context) => onProcess(context) } },
    start: async (context) =>
      void (await context.enqueue([{ url: `${server.base}/${kind}`, depth: 0, kind, skipScope: true }])),
  };
}

interface Run {
  readonly stats: CrawlStats;
  readonly skips: SkipEvent[];
  readonly errors: ErrorEvent[];
}

async function crawl(plugins: CrawlerPlugin[]): Promise<Run> {
  server.routes['/robots.txt'] = 'User-agent: *\nAllow: /\n';
  const crawler = createCrawler({ userAgent: UA, allowNet: LOOPBACK, minDelayMs: 0, plugins });
  const skips: SkipEvent[] = [];
  const errors: ErrorEvent[] = [];
  crawler.on('skip', (event) => skips.push(event));
  crawler.on('error', (event) => errors.push(event));
  const stats = await crawler.run();
  return { stats, skips, errors };
}

// Reported through the crawler's one reporter: the event names the plugin, the stats count the reason.
describe('a plugin reports its declared skip reason', () => {
  it('skip event with plugin = its name, counted in stats.skipped', async () => {
    const run = await crawl([
      widgetPlugin('my-plugin', { 'my-reason': 'a widget we do not want' }, (ctx) =>
        ctx.skip(`${server.base}/unwanted`, 'my-reason', 'too shiny'),
      ),
    ]);
    expect(run.skips).toEqual([
      { url: `${server.base}/unwanted`, reason: 'my-reason', detail: 'too shiny', plugin: 'my-plugin' },
    ]);
    expect(run.stats.skipped).toEqual({ 'my-reason': 1 });
    expect(run.errors).toEqual([]);
    // The resource was processed without a fetch: only robots.txt was requested.
    expect(server.paths()).toEqual(['/robots.txt']);
  });

  it('one of the crawler’s own reasons (invalid-url), from start() as well as a processor', async () => {
    const plugin: CrawlerPlugin = {
      ...widgetPlugin('my-plugin', {}, (ctx) => ctx.skip('not a url', 'invalid-url')),
      start: async (ctx) => {
        ctx.skip('http://[bad', 'invalid-url', 'listed in a feed');
        await ctx.enqueue([{ url: `${server.base}/${KIND}`, depth: 0, kind: KIND, skipScope: true }]);
      },
    };
    const run = await crawl([plugin]);
    expect(run.skips).toEqual([
      { url: 'http://[bad', reason: 'invalid-url', detail: 'listed in a feed', plugin: 'my-plugin' },
      { url: 'not a url', reason: 'invalid-url', plugin: 'my-plugin' },
    ]);
    expect(run.stats.skipped).toEqual({ 'invalid-url': 2 });
  });
});

// A reason neither declared by the plugin nor the crawler's own: ERR_INVALID_INPUT, nothing counted.
describe('a plugin reports a reason it did not declare', () => {
  it('throws ERR_INVALID_INPUT naming the plugin and the reason (reported as the processor’s error)', async () => {
    let thrown: unknown;
    const run = await crawl([
      widgetPlugin('my-plugin', { 'my-reason': 'declared' }, (ctx) => {
        try {
          ctx.skip(`${server.base}/x`, 'other-reason');
        } catch (error) {
          thrown = error;
          throw error;
        }
      }),
    ]);
    expect(thrown).toBeInstanceOf(PolitelyError);
    expect(thrown).toMatchObject({ code: 'ERR_INVALID_INPUT' });
    expect((thrown as Error).message).toContain("plugin 'my-plugin'");
    expect((thrown as Error).message).toContain("'other-reason'");
    expect(run.errors).toMatchObject([{ url: `${server.base}/${KIND}`, stage: 'processor', willRetry: false }]);
    expect(run.errors[0]!.error).toBe(thrown);
    expect(run.skips).toEqual([]);
    expect(run.stats.skipped).toEqual({});
  });

  it('another plugin’s reason is not this plugin’s to report', async () => {
    let thrown: unknown;
    const first = widgetPlugin('first', { 'first-reason': 'mine' }, () => {}, 'gadget');
    const second = widgetPlugin('second', { 'second-reason': 'mine' }, (ctx) => {
      try {
        ctx.skip(`${server.base}/x`, 'first-reason');
      } catch (error) {
        thrown = error;
      }
    });
    const run = await crawl([first, second]);
    expect(thrown).toMatchObject({ code: 'ERR_INVALID_INPUT' });
    expect((thrown as Error).message).toContain("plugin 'second' reported the skip reason 'first-reason'");
    expect(run.skips).toEqual([]);
  });
});

// Declarations are checked once, when the crawler is created.
describe('createCrawler checks the declared reasons', () => {
  const create =
    (...plugins: CrawlerPlugin[]) =>
    () =>
      createCrawler({ userAgent: UA, plugins });
  const declaring = (name: string, ...reasons: string[]): CrawlerPlugin => ({
    name,
    skipReasons: Object.fromEntries(reasons.map((r) => [r, 'why'])),
  });

  it('refuses one of the crawler’s own reasons', () => {
    expectInvalidOption(
      create(declaring('p', 'robots')),
      'createCrawler',
      "plugin 'p'",
      "'robots'",
      "the crawler's own",
    );
    expectInvalidOption(create(declaring('p', 'fine-reason', 'too-large')), "'too-large'");
  });

  it('refuses a reason another plugin declared', () => {
    expectInvalidOption(
      create(declaring('first', 'shared-reason'), declaring('second', 'shared-reason')),
      "plugin 'second'",
      "'shared-reason'",
      "plugin 'first'",
    );
  });

  it.each(['My-Reason', 'my_reason', 'my reason', 'reason-', '-reason', 'my--reason', '1reason', ''])(
    'refuses %j: not kebab-case',
    (reason) => {
      expectInvalidOption(create(declaring('p', reason)), "plugin 'p'", JSON.stringify(reason), 'kebab-case');
    },
  );

  it('accepts kebab-case reasons of its own, in several plugins (and runs)', async () => {
    const crawler = create(declaring('a', 'a-reason', 'x2-y3'), declaring('b', 'b-reason'))();
    expect((await crawler.run()).requests).toBe(0); // no seeds: closes its client and gate at once
  });
});
