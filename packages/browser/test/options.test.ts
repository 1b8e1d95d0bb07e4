// Options: a missing or unusable executable fails start() with ERR_INVALID_OPTION naming
// `executablePath` and what was searched; findChromium searches PATH in its documented order.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChromiumRenderer, findChromium } from '../src/index.js';
import { BROWSER_UA, chromiumChildren } from './helpers.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'politely-browser-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function executable(path: string): string {
  writeFileSync(path, '#!/bin/sh\nexit 1\n');
  chmodSync(path, 0o755);
  return path;
}

const crawl = () => ({ userAgent: BROWSER_UA, maxOpenPages: 1, signal: new AbortController().signal });

describe('ChromiumRenderer options', () => {
  it('rejects a nonexistent executablePath with ERR_INVALID_OPTION naming the option, launching nothing', async () => {
    const start = new ChromiumRenderer({ executablePath: '/nonexistent/chromium' }).start(crawl());
    await expect(start).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message: expect.stringContaining('executablePath'),
    });
    await expect(start).rejects.toMatchObject({ message: expect.stringContaining('/nonexistent/chromium') });
    expect(chromiumChildren()).toEqual([]);
  });

  it('rejects a file that is not executable, and a directory', async () => {
    const plain = join(dir, 'not-executable');
    writeFileSync(plain, '');
    chmodSync(plain, 0o644);
    for (const path of [plain, dir]) {
      await expect(new ChromiumRenderer({ executablePath: path }).start(crawl())).rejects.toMatchObject({
        code: 'ERR_INVALID_OPTION',
        message: expect.stringContaining('executablePath'),
      });
    }
  });

  it('without executablePath and no Chromium on PATH, says what it looked for and where', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty, { recursive: true });
    const saved = process.env['PATH'];
    process.env['PATH'] = empty;
    try {
      const error = await new ChromiumRenderer().start(crawl()).then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(error?.code).toBe('ERR_INVALID_OPTION');
      for (const part of [
        'executablePath',
        'chromium',
        'chromium-browser',
        'google-chrome-stable',
        'google-chrome',
        empty,
      ])
        expect(error?.message).toContain(part);
    } finally {
      process.env['PATH'] = saved;
    }
  });

  it('findChromium takes the first name in order (chromium, chromium-browser, google-chrome-stable, google-chrome), then the first directory', () => {
    const first = join(dir, 'first');
    const second = join(dir, 'second');
    mkdirSync(first, { recursive: true });
    mkdirSync(second, { recursive: true });
    const searchPath = [first, second].join(delimiter);
    expect(findChromium(searchPath)).toBeUndefined();
    executable(join(second, 'google-chrome'));
    expect(findChromium(searchPath)).toBe(join(second, 'google-chrome'));
    executable(join(first, 'google-chrome-stable'));
    expect(findChromium(searchPath)).toBe(join(first, 'google-chrome-stable'));
    executable(join(second, 'chromium-browser'));
    expect(findChromium(searchPath)).toBe(join(second, 'chromium-browser'));
    // A directory or a file without the execute bit is not a browser.
    mkdirSync(join(first, 'chromium'));
    writeFileSync(join(second, 'chromium'), '');
    expect(findChromium(searchPath)).toBe(join(second, 'chromium-browser'));
    chmodSync(join(second, 'chromium'), 0o755);
    expect(findChromium(searchPath)).toBe(join(second, 'chromium'));
    expect(findChromium('')).toBeUndefined();
  });

  it('rejects bad numbers and switches at construction, and a bad maxOpenPages at start', async () => {
    expect(() => new ChromiumRenderer({ pagesPerContext: 0 })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringContaining('pagesPerContext') }),
    );
    expect(() => new ChromiumRenderer({ launchTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringContaining('launchTimeoutMs') }),
    );
    expect(() => new ChromiumRenderer({ args: ['about:blank'] })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringContaining('args') }),
    );
    await expect(
      new ChromiumRenderer({ executablePath: '/usr/bin/chromium' }).start({ ...crawl(), maxOpenPages: 0 }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
  });

  it('fails start with ERR_RENDER_FAILED when the executable is no browser', async () => {
    const fake = executable(join(dir, 'fake-chromium'));
    const start = new ChromiumRenderer({ executablePath: fake, launchTimeoutMs: 10_000 }).start(crawl());
    await expect(start).rejects.toMatchObject({ code: 'ERR_RENDER_FAILED', message: expect.stringContaining(fake) });
  });
});
