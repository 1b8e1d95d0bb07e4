// The scale benchmark's workload and one measured run (one store at one size, in its own node
// process: see scale.bench.js). Links as the crawler adds them: a page of host h yields 40 links
// of about 80 characters on h, with the page as their (same-host) referrer, a depth, priority 0,
// no label; one `add` per page. Pages go round the 10,000 hosts, and paths come in no particular
// order, so the dedupe structures are written all over, not appended to.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { infoFields } from '../test/support/redis-launch.js';
import { countRedisWrites } from './redis-wire-count.js';

export const HOSTS = 10_000;
export const LINKS_PER_PAGE = 40;

function hostOf(page) {
  return `www.host-${page % HOSTS}.example`;
}

/** The links of page number `page`: fresh strings each time, as a crawler's extraction makes them. */
export function pageLinks(page) {
  const host = hostOf(page);
  const referrer = `https://${host}/section/${(page >>> 4).toString(36)}/index.html`;
  const links = new Array(LINKS_PER_PAGE);
  for (let k = 0; k < LINKS_PER_PAGE; k++) {
    const i = page * LINKS_PER_PAGE + k;
    const scrambled = (Math.imul(i, 2654435761) >>> 0).toString(36).padStart(7, '0');
    links[k] = {
      url: `https://${host}/articles/2026/${scrambled}/story-${i.toString(36)}.html?ref=nav${k % 9}`,
      hostKey: host,
      depth: 1 + (page % 5),
      priority: 0,
      referrer,
    };
  }
  return links;
}

export function averageUrlChars() {
  let sum = 0;
  let n = 0;
  for (let page = 0; page < 1000; page += 37) {
    for (const link of pageLinks(page * 977)) {
      sum += link.url.length;
      n++;
    }
  }
  return sum / n;
}

/** redis-cli against one node; its output as text. */
export function redisCli(node, ...args) {
  const [host, port] = node.split(':');
  const out = spawnSync('redis-cli', ['-h', host, '-p', port, ...args], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`redis-cli ${args.join(' ')} at ${node}: ${out.stderr}`);
  return out.stdout;
}

/** The primaries among `nodes` (every node when not a cluster). */
function primaries(nodes) {
  return nodes.filter((node) => infoFields(redisCli(node, 'INFO', 'replication')).get('role') === 'master');
}

/** used_memory summed over the primaries. */
function usedMemory(nodes) {
  return primaries(nodes).reduce(
    (sum, node) => sum + Number(infoFields(redisCli(node, 'INFO', 'memory')).get('used_memory')),
    0,
  );
}

/** Commands run so far, summed over the primaries, INFO itself left out. */
function commandsRun(nodes) {
  let calls = 0;
  for (const node of primaries(nodes)) {
    for (const [name, value] of infoFields(redisCli(node, 'INFO', 'commandstats'))) {
      if (!name.startsWith('cmdstat_') || name === 'cmdstat_info') continue;
      calls += Number(/calls=(\d+)/.exec(value)?.[1] ?? 0);
    }
  }
  return calls;
}

const gc = () => globalThis.gc?.();

/**
 * A store to fill and how to weigh it: `bytes()` what it holds now, `commands()` the commands
 * Redis has run (Redis only), `close()`.
 */
async function openStore(kind, config, packages) {
  if (kind === 'memory') {
    gc();
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const store = packages.createMemoryFrontierStore();
    return {
      store,
      bytes: () => {
        gc();
        gc();
        return process.memoryUsage().heapUsed - heap0;
      },
      close: () => {},
    };
  }
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(config.tmpDir ?? os.tmpdir(), 'politely-scale-'));
    const path = join(dir, 'frontier.db');
    const store = packages.createSqliteFrontierStore({ path });
    const size = (file) => (existsSync(file) ? statSync(file).size : 0);
    return {
      store,
      bytes: () => {
        store.db.pragma('wal_checkpoint(TRUNCATE)');
        return size(path) + size(`${path}-wal`);
      },
      // Bytes of the file's pages in use (dbstat): what a shrunk row frees shows here at once,
      // where the file keeps its size until later rows fill the space.
      liveBytes: () => store.db.prepare('SELECT sum(pgsize - unused) FROM dbstat').pluck().get(),
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const nodes = config.nodes;
  for (const node of primaries(nodes)) redisCli(node, 'FLUSHALL');
  // Round trips: the commands the store's client writes (redis-wire-count.js), one Redis or every
  // node of the cluster alike (there is no pipelining here: a command is a round trip).
  let roundTrips = 0;
  countRedisWrites(() => roundTrips++);
  const redis = kind === 'redis' ? `redis://${nodes[0]}` : `redis-cluster://${nodes.join(',')}`;
  const store = packages.createRedisFrontierStore({ redis, crawlId: `scale-${process.pid}` });
  // The crawl's marker and scripts are in place before the first weighing.
  await store.counts();
  const memory0 = usedMemory(nodes);
  return {
    store,
    bytes: () => usedMemory(nodes) - memory0,
    commands: () => commandsRun(nodes),
    roundTrips: () => roundTrips,
    close: async () => {
      await store.close();
    },
  };
}

/** Claims and completes `count` URLs (delay 0): claims+settles per second, and Redis commands per page. */
async function claimSample(opened, count) {
  const { store } = opened;
  const commands0 = opened.commands?.();
  const roundTrips0 = opened.roundTrips?.();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let now = Date.now();
  let done = 0;
  for (let attempts = 0; done < count && attempts < count * 4; attempts++) {
    const { lease, nextReadyAt } = await store.claim({ now, leaseMs: 600_000 });
    if (lease === null) {
      now = Math.max(now + 1, nextReadyAt ?? now + 1);
      continue;
    }
    await store.complete(lease.id);
    done++;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const perPage = (counter, start) => (counter === undefined ? null : (counter() - start) / done);
  return {
    done,
    claimsPerSecond: done / seconds,
    cpuMicrosPerClaim: (cpu.user + cpu.system) / done,
    commandsPerPage: perPage(opened.commands, commands0),
    roundTripsPerPage: perPage(opened.roundTrips, roundTrips0),
  };
}

/** Fills a store of `kind` with `urls` URLs and measures it (see scale.bench.js for the figures). */
export async function measure(kind, urls, config, packages) {
  const opened = await openStore(kind, config, packages);
  try {
    const pages = Math.ceil(urls / LINKS_PER_PAGE);
    const addCommands0 = opened.commands?.();
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    for (let page = 0; page < pages; page++) await opened.store.add(pageLinks(page));
    const addSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const addCommands = opened.commands === undefined ? null : opened.commands() - addCommands0;
    const filled = pages * LINKS_PER_PAGE;
    const queuedBytes = opened.bytes();
    const queuedLive = opened.liveBytes?.();
    const sample = Math.min(20_000, Math.floor(filled / 10));
    const claims = await claimSample(opened, sample);
    const afterDone = opened.bytes();
    const doneLive = opened.liveBytes?.();
    const counts = await opened.store.counts();
    const queuedPerUrl = queuedBytes / filled;
    return {
      store: kind,
      urls: filled,
      queued: counts.queued,
      done: counts.done,
      addSeconds: round(addSeconds, 1),
      addCpuSeconds: round((cpu.user + cpu.system) / 1e6, 1),
      addUrlsPerSecond: Math.round(filled / addSeconds),
      bytesPerQueuedUrl: round(queuedPerUrl, 1),
      // A done URL: what a queued one costs, plus what settling it changed, per settled URL
      // (SQLite: in pages' bytes in use, see liveBytes).
      // Memory: none. Claiming a sample shrinks the hosts' queue arrays, which moves the heap by
      // more than the sample's URLs weigh (a done URL keeps its key string in the seen set).
      bytesPerDoneUrl:
        kind === 'memory'
          ? null
          : queuedLive === undefined
            ? round(queuedPerUrl + (afterDone - queuedBytes) / claims.done, 1)
            : round(queuedPerUrl + (doneLive - queuedLive) / claims.done, 1),
      sqliteLiveBytesPerQueuedUrl: queuedLive === undefined ? null : round(queuedLive / filled, 1),
      sqliteFileBytesPerDoneUrl:
        queuedLive === undefined ? null : round(queuedPerUrl + (afterDone - queuedBytes) / claims.done, 1),
      claimSample: claims.done,
      claimsPerSecond: Math.round(claims.claimsPerSecond),
      // CPU of this process per claim + complete (Redis: the client's side only): steadier than
      // the rate on a busy machine.
      claimCpuMicros: round(claims.cpuMicrosPerClaim, 1),
      // Per claim + complete: commands Redis ran (INFO commandstats, those inside scripts
      // included), and the commands the store's client sent (round trips).
      redisCommandsPerPage: claims.commandsPerPage === null ? null : round(claims.commandsPerPage, 2),
      redisRoundTripsPerPage: claims.roundTripsPerPage === null ? null : round(claims.roundTripsPerPage, 2),
      // Per add of a page's links (one script call): the commands Redis ran.
      redisCommandsPerAdd: addCommands === null ? null : round(addCommands / pages, 1),
    };
  } finally {
    await opened.close();
  }
}

export function round(value, digits) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
