// Child processes of the crawl benchmarks: the fleet server (crawler-fleet-server.js), the render
// web's server (render-web-server.js) and one crawl (crawler-contestant.js, render-contestant.js),
// each in its own node process so that a crawler's CPU time and peak RSS are its own; and a
// sampler of a process tree (a crawler and the browser it starts) from /proc. Shared by
// crawler-run.js, store-crawl.bench.js, fleet-serve.bench.js, recrawl.bench.js and render.bench.js.

import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', resolve));
}

/**
 * Starts crawler-fleet-server.js with `fleets` (startFleet options, one per fleet). Resolves
 * with { fleets, pageBytes, report(userAgent), cpuMs(), changePages(share), resetLogs(), close() }
 * once every host listens.
 */
export async function startFleetServer(fleets) {
  const child = fork(join(HERE, 'crawler-fleet-server.js'), [JSON.stringify(fleets)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
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
    /**
     * Changes about `share` of every fleet's public pages (the same ones for the same fleet); resolves with
     * their URLs.
     */
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
 * Starts render-web-server.js: a fresh render web (startRenderWeb) on 127.0.0.(firstAddress) and
 * the next address. Resolves with { entryUrl, hosts, truth, report(), close() } once it listens;
 * `report()` resolves with the servers' request log and the requests robots.txt disallows for
 * `productToken`.
 */
export async function startRenderWebServer({ firstAddress, productToken }) {
  const child = fork(join(HERE, 'render-web-server.js'), [JSON.stringify({ firstAddress, productToken })], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  const ready = await onMessage(child, 'ready', 60_000, 'render web server');
  return {
    entryUrl: ready.entryUrl,
    hosts: ready.hosts,
    truth: ready.truth,
    async report() {
      const answer = onMessage(child, 'report', 30_000, 'render web server');
      child.send({ type: 'report' });
      const { log, violations, server } = await answer;
      return { log, violations, server };
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
 * Runs one crawl in `script` (crawler-contestant.js by default) and resolves with its result
 * message. Crawlee gets a fresh storage dir in the temp dir, removed afterwards. A crawl past
 * `timeoutMs` is killed. `execArgv` are node's own flags for the crawler's process (`--cpu-prof`). With `watchTree`, the crawler's process and all its descendants (a
 * browser) are sampled from /proc every `watchTree` ms, and the result has `tree` (see
 * watchProcessTree).
 */
export async function runContestant(
  job,
  timeoutMs,
  { script = 'crawler-contestant.js', watchTree, execArgv = [] } = {},
) {
  const storageDir =
    job.contestant === 'crawlee' ? mkdtempSync(join(os.tmpdir(), 'politely-bench-crawlee-')) : undefined;
  const child = fork(join(HERE, script), [JSON.stringify({ ...job, storageDir })], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
    cwd: storageDir ?? HERE,
  });
  const watcher = watchTree === undefined ? undefined : watchProcessTree(child.pid, watchTree);
  try {
    const result = await onMessage(child, 'result', timeoutMs, `${job.contestant} crawl`);
    // The last sample before the crawler exits: every process of the tree has ended but the root.
    const tree = watcher?.stop();
    await exitOf(child);
    return tree === undefined ? result : { ...result, tree };
  } catch (error) {
    watcher?.stop();
    child.kill('SIGKILL');
    await exitOf(child);
    throw error;
  } finally {
    if (storageDir !== undefined) rmSync(storageDir, { recursive: true, force: true });
  }
}

const getconf = (name, fallback) => {
  try {
    return Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim()) || fallback;
  } catch {
    return fallback;
  }
};

/**
 * Samples the process `rootPid` and every descendant of it (by parent pid, from /proc/<pid>/stat)
 * every `everyMs` ms until `stop()`, which returns:
 *   peakRssBytes      the largest sum of the tree's RSS in one sample (shared pages, such as
 *                     Chromium's shared memory and libraries, count once per process: an upper bound)
 *   peakRootRssBytes  the root's own largest RSS
 *   peakProcesses     the most processes of the tree in one sample; processesSeen: all pids ever seen
 *   descendantsCpuMs  CPU time (user + system) of the descendants, each at its last sample (a
 *                     process loses what it used after its last sample); descendantsCpuMsByKind:
 *                     the same by kind of process (Chromium's --type=renderer, gpu-process,
 *                     utility, zygote…; 'browser' for one without --type; else the program's name)
 *   samples, meanSampleMs (what one sample cost the sampler, wall)
 * Linux only; elsewhere every figure is 0.
 */
const RELABEL = new Set(['browser', 'zygote', '?', 'sh', 'bash', 'dash']);

export function watchProcessTree(rootPid, everyMs = 100) {
  const pageSize = getconf('PAGESIZE', 4096);
  const ticksPerSecond = getconf('CLK_TCK', 100);
  const cpuTicks = new Map();
  const kinds = new Map();
  const seen = new Set();
  /** What a process is, from its command line. */
  const kindOf = (pid, comm) => {
    try {
      // Chromium rewrites its children's command line as one string: look for --type= anywhere.
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim();
      // A process that has ended and not been waited for yet shows no command line.
      if (cmdline === '') return `${comm} (ended)`;
      const type = /(?:^|\s)--type=(\S+)/.exec(cmdline);
      const subType = /(?:^|\s)--utility-sub-type=(\S+)/.exec(cmdline);
      const webUi = /(?:^|\s)--top-chrome-webui(?:\s|$)/.test(cmdline);
      if (type !== null)
        return `${type[1]}${subType === null ? '' : ` ${subType[1]}`}${webUi ? ' (top-chrome-webui)' : ''}`;
      const program = (cmdline.split(' ')[0] ?? '?').split('/').pop();
      return /chrom/i.test(program) ? 'browser' : program;
    } catch {
      return '?';
    }
  };
  let peakRssBytes = 0;
  let peakRootRssBytes = 0;
  let peakProcesses = 0;
  let samples = 0;
  let sampleMsTotal = 0;
  const sample = () => {
    const started = performance.now();
    let names;
    try {
      names = readdirSync('/proc');
    } catch {
      return;
    }
    const stats = new Map();
    const children = new Map();
    for (const name of names) {
      if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
      let stat;
      try {
        stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      } catch {
        continue; // gone meanwhile
      }
      // Fields after "(comm)": state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime
      // stime cutime cstime … rss (24th field overall).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(name);
      const ppid = Number(fields[1]);
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      stats.set(pid, { comm, utime: Number(fields[11]), stime: Number(fields[12]), rssPages: Number(fields[21]) });
      const list = children.get(ppid);
      if (list === undefined) children.set(ppid, [pid]);
      else list.push(pid);
    }
    if (!stats.has(rootPid)) return;
    let rss = 0;
    let count = 0;
    const queue = [rootPid];
    while (queue.length > 0) {
      const pid = queue.pop();
      const stat = stats.get(pid);
      if (stat === undefined) continue;
      count++;
      seen.add(pid);
      rss += stat.rssPages * pageSize;
      if (pid === rootPid) peakRootRssBytes = Math.max(peakRootRssBytes, stat.rssPages * pageSize);
      else {
        cpuTicks.set(pid, stat.utime + stat.stime);
        // Labelled again when the program changed, and while it looks like a shell (Debian's
        // /usr/bin/chromium is a script that execs the browser), a browser or a zygote (a child
        // the zygote just forked has the zygote's command line until it writes its own).
        const known = kinds.get(pid);
        if (known === undefined || known.comm !== stat.comm || RELABEL.has(known.kind)) {
          const kind = kindOf(pid, stat.comm);
          // An ended process keeps what it was known as.
          if (known === undefined || !kind.endsWith('(ended)')) kinds.set(pid, { comm: stat.comm, kind });
        }
      }
      for (const child of children.get(pid) ?? []) queue.push(child);
    }
    peakRssBytes = Math.max(peakRssBytes, rss);
    peakProcesses = Math.max(peakProcesses, count);
    samples++;
    sampleMsTotal += performance.now() - started;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  let result;
  return {
    stop() {
      if (result !== undefined) return result;
      clearInterval(timer);
      sample();
      let ticks = 0;
      const ticksByKind = {};
      for (const [pid, value] of cpuTicks) {
        ticks += value;
        const kind = kinds.get(pid)?.kind ?? '?';
        ticksByKind[kind] = (ticksByKind[kind] ?? 0) + value;
      }
      const processesByKind = {};
      for (const { kind } of kinds.values()) processesByKind[kind] = (processesByKind[kind] ?? 0) + 1;
      result = {
        everyMs,
        samples,
        meanSampleMs: samples === 0 ? 0 : sampleMsTotal / samples,
        peakRssBytes,
        peakRootRssBytes,
        peakProcesses,
        processesSeen: seen.size,
        descendantsCpuMs: (ticks * 1000) / ticksPerSecond,
        descendantsCpuMsByKind: Object.fromEntries(
          Object.entries(ticksByKind).map(([kind, value]) => [kind, (value * 1000) / ticksPerSecond]),
        ),
        processesByKind,
      };
      return result;
    },
  };
}

/**
 * The job of a politely crawl of `fleet` (a started fleet's, from startFleetServer) with the frontier
 * `store` (crawler-contestant.js's `store`): every host's / as seeds, the fleet's scope, `concurrency`
 * requests in flight with no per-host cap beyond it, and no delay. Shared by the store benchmarks.
 */
export function crawlJob({ fleet, store, userAgent, concurrency }) {
  return {
    contestant: 'politely',
    userAgent,
    scopePattern: FLEET_URL_PATTERN,
    seeds: frontPages(fleet),
    concurrency,
    perHostConcurrency: concurrency,
    sameDomainDelaySecs: 0,
    store,
  };
}

/** Every fleet host's `/`: the seeds of a crawl that should reach the whole fleet. */
export const frontPages = (fleet) => fleet.hosts.map((host) => `${host.origin}/`);

/**
 * The scope both contestants crawl: the fleet's hosts (127.0.0.x, any port), nothing else. A
 * realistic page also links origins outside the fleet (`https://news.example.org/…`), and
 * `mailto:`/`tel:`/`javascript:` URLs; both crawlers leave them alone with this pattern.
 */
export const FLEET_URL_PATTERN = '^http://127\\.0\\.0\\.\\d{1,3}:\\d+/';
