// One Chromium process: launched headless with no network of its own, its process id learnt, and
// stopped for sure (a close that hangs ends in SIGKILL of its whole process group), so no
// Chromium outlives the crawl that started it.

import { readFileSync } from 'node:fs';
import { PolitelyError } from '@politely/core';
import { type Browser, chromium } from 'playwright-core';

/**
 * Always passed before the user's `args`. Playwright adds its own quiet defaults (no background
 * networking, no component updates, no extensions, …); these repeat the ones that matter and add
 * the rest. `--host-resolver-rules=MAP * ~NOTFOUND` is the guarantee behind them all: every host
 * name and address fails to resolve inside Chromium, so nothing the routes do not answer can
 * reach the network (Chromium's own update checks, preconnects, a WebSocket from a worker, which
 * `routeWebSocket` does not see). Routed requests are fulfilled before any lookup.
 */
export const BASE_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-client-side-phishing-detection',
  '--disable-domain-reliability',
  '--safebrowsing-disable-auto-update',
  '--dns-prefetch-disable',
  '--no-pings',
  '--no-first-run',
  '--disable-default-apps',
  '--disable-sync',
  '--metrics-recording-only',
  '--mute-audio',
  '--host-resolver-rules=MAP * ~NOTFOUND',
];

export interface LaunchSettings {
  readonly executablePath: string;
  readonly args: readonly string[];
  readonly launchTimeoutMs: number;
}

/** A running Chromium and what it takes to kill it without Playwright. */
export interface LaunchedChromium {
  readonly browser: Browser;
  /** The browser process, as Chromium reports it; undefined if it would not say. */
  readonly pid: number | undefined;
  /** Its process group (Playwright starts Chromium as a group leader), to kill its helpers too. */
  readonly group: number | undefined;
}

export async function launchChromium(settings: LaunchSettings): Promise<LaunchedChromium> {
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: settings.executablePath,
      headless: true,
      args: [...BASE_ARGS, ...settings.args],
      // Playwright's SIGINT handler would exit the whole process on Ctrl-C; the crawler handles
      // signals and closes the session itself (stopChromium). Playwright's 'exit' handler stays:
      // it kills Chromium if this process exits without closing, and Chromium exits on its own
      // when its pipe closes (this process killed).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: settings.launchTimeoutMs,
    });
  } catch (error) {
    throw new PolitelyError(
      'ERR_RENDER_FAILED',
      `could not launch Chromium (${settings.executablePath}): ${firstLine(error)}`,
      { cause: error },
    );
  }
  const pid = await browserPid(browser);
  return { browser, pid, group: pid === undefined ? undefined : (processGroupOf(pid) ?? pid) };
}

/**
 * Closes the browser and waits for its process to exit; if closing takes longer than `graceMs`,
 * kills the process group and waits again. Never rejects.
 */
export async function stopChromium(launched: LaunchedChromium, graceMs = 5_000): Promise<void> {
  const closing = launched.browser.close().catch(() => undefined);
  if (!(await settlesWithin(closing, graceMs))) {
    killChromium(launched);
    await settlesWithin(closing, graceMs);
  }
  if (launched.pid !== undefined && !(await exitsWithin(launched.pid, graceMs))) {
    killChromium(launched);
    await exitsWithin(launched.pid, graceMs);
  }
}

/** SIGKILL to the browser's process group (its renderers and helpers too); never to our own group. */
export function killChromium(launched: LaunchedChromium): void {
  const { pid, group } = launched;
  if (pid === undefined) return;
  const own = processGroupOf(process.pid);
  try {
    if (group !== undefined && group > 1 && group !== own) process.kill(-group, 'SIGKILL');
    else process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** The browser process id, from Chromium itself (Playwright does not expose it for `launch`). */
async function browserPid(browser: Browser): Promise<number | undefined> {
  try {
    const cdp = await browser.newBrowserCDPSession();
    try {
      const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
      return processInfo.find((info) => info.type === 'browser')?.id;
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  } catch {
    return undefined;
  }
}

/** The process group of `pid` from /proc (Linux); undefined elsewhere or if it is gone. */
function processGroupOf(pid: number): number | undefined {
  const stat = procStat(pid);
  const group = stat === undefined ? NaN : Number(stat[2]);
  return Number.isInteger(group) ? group : undefined;
}

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, …]; undefined once gone. */
export function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** True while the process runs (a zombie has exited). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie has exited; only its parent's wait is missing.
  return procStat(pid)?.[0] !== 'Z';
}

async function exitsWithin(pid: number, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (isAlive(pid)) {
    if (performance.now() >= until) return false;
    await delay(50);
  }
  return true;
}

/** True if `promise` settles (either way) within `ms`. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    const settled = promise.then(
      () => true,
      () => true,
    );
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
