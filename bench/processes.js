// Child processes of the crawl benchmarks: the fleet server (crawler-fleet-server.js) and one
// crawl (crawler-contestant.js), each in its own node process so that a crawler's CPU time and
// peak RSS are its own. Shared by crawler-run.js, store-crawl.bench.js, fleet-serve.bench.js and
// recrawl.bench.js.

import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Resolves with the first IPC message of `type` from `child`; rejects on exit or after `timeoutMs`. */
export function onMessage(child, type, timeoutMs, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
    const listener = (message) => {
      if (message?.type !== type) return;
      clearTimeout(timer);
      child.off('message', listener);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${signal ?? `code ${code}`}) before sending '${type}'`));
    };
    child.on('message', listener);
    child.once('exit', onExit);
  });
}

/** Resolves when `child` has exited (at once if it already has). */
export function exitOf(child) {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
}

/**
 * Starts crawler-fleet-server.js with `fleets` (startFleet options, one per fleet). Resolves
 * with { fleets, pageBytes, report(userAgent), cpuMs(), changePages(share), resetLogs(), close() }
 * once every host listens.
 */
export async function startFleetServer(fleets) {
  const child = fork(join(HERE, 'crawler-fleet-server.js'), [JSON.stringify(fleets)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
  const ready = await onMessage(child, 'ready', 60_000, 'fleet server');
  return {
    fleets: ready.fleets,
    pageBytes: ready.pageBytes,
    /** The servers' logs, fleet by fleet, and the server process's own CPU time. */
    async report(userAgent) {
      const answer = onMessage(child, 'report', 30_000, 'fleet server');
      child.send({ type: 'report', userAgent });
      const { fleets: logs, server } = await answer;
      return { logs, server };
    },
    /** The server process's CPU time (ms) since it was ready. */
    async cpuMs() {
      const answer = onMessage(child, 'cpu', 30_000, 'fleet server');
      child.send({ type: 'cpu' });
      return (await answer).cpuMs;
    },
    /** Changes about `share` of every fleet's public pages (the same ones for the same fleet); resolves with their URLs. */
    async changePages(share) {
      const answer = onMessage(child, 'changed', 30_000, 'fleet server');
      child.send({ type: 'change', share });
      return (await answer).urls;
    },
    /** Forgets the servers' request logs: the next report covers only what comes after. */
    async resetLogs() {
      const answer = onMessage(child, 'reset', 30_000, 'fleet server');
      child.send({ type: 'reset' });
      await answer;
    },
    close: () => {
      const exited = exitOf(child);
      if (child.connected) child.send({ type: 'close' });
      else child.kill();
      return exited;
    },
  };
}

/**
 * Runs one crawl in crawler-contestant.js and resolves with its result message. Crawlee gets a
 * fresh storage dir in the temp dir, removed afterwards. A crawl past `timeoutMs` is killed.
 */
export async function runContestant(job, timeoutMs) {
  const storageDir = job.contestant === 'crawlee' ? mkdtempSync(join(os.tmpdir(), 'politely-bench-crawlee-')) : undefined;
  const child = fork(join(HERE, 'crawler-contestant.js'), [JSON.stringify({ ...job, storageDir })], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
    cwd: storageDir ?? HERE,
  });
  try {
    const result = await onMessage(child, 'result', timeoutMs, `${job.contestant} crawl`);
    await exitOf(child);
    return result;
  } catch (error) {
    child.kill('SIGKILL');
    await exitOf(child);
    throw error;
  } finally {
    if (storageDir !== undefined) rmSync(storageDir, { recursive: true, force: true });
  }
}

/** Every fleet host's `/`: the seeds of a crawl that should reach the whole fleet. */
export const frontPages = (fleet) => fleet.hosts.map((host) => `${host.origin}/`);

/**
 * The scope both contestants crawl: the fleet's hosts (127.0.0.x, any port), nothing else. A
 * realistic page also links origins outside the fleet (`https://news.example.org/…`), and
 * `mailto:`/`tel:`/`javascript:` URLs; both crawlers leave them alone with this pattern.
 */
export const FLEET_URL_PATTERN = '^http://127\\.0\\.0\\.\\d{1,3}:\\d+/';
