// Starts redis-server processes of our own on free loopback ports: one server, or a Redis
// Cluster of primaries (and replicas, one per primary). Shared by the tests' helpers
// (redis-server.ts, redis-cluster.ts) and the benchmarks (bench/*.js), so it is plain JS with a
// .d.ts beside it. Every server gets its own temporary --dir (a replica's first sync writes an
// RDB file there, never in the repository), removed by stop(). Every wait is bounded.

import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether every one of `tools` (redis-server, redis-cli) is on the PATH (null) or why not. */
export function redisToolsMissing(tools = ['redis-server']) {
  for (const tool of tools) {
    const probe = spawnSync(tool, ['--version'], { encoding: 'utf8', timeout: 5000 });
    if (probe.status !== 0) return `${tool} is not available (${probe.error?.message ?? probe.stderr.trim()})`;
  }
  return null;
}

/** A TCP port free on 127.0.0.1 now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Whether something on the port answers PING with PONG within a second. */
export function answersPing(port) {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1', () => socket.write('PING\r\n'));
    const done = (answer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (data) => done(String(data).startsWith('+PONG')));
    socket.on('error', () => done(false));
    const timer = setTimeout(() => done(false), 1000);
  });
}

/** One command to the server on `port` (redis-cli, bounded to 5 s); its reply as text. */
export function redisCommand(port, args) {
  return new Promise((resolve, reject) => {
    execFile('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 5000 }, (error, stdout) =>
      error === null ? resolve(stdout) : reject(error),
    );
  });
}

/** The `name:value` lines of an INFO reply, as a Map. */
export function infoFields(text) {
  const fields = new Map();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

const exited = (child) => child.exitCode !== null || child.signalCode !== null;

/** Spawns redis-server with `args` and resolves once it answers PING (10 s at most). */
async function spawnServer(port, args, what) {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (exited(child) || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${what} on port ${port} did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

/** Resolves once `child` has exited; `signal` first, SIGKILL after `graceMs`. */
async function halt(child, signal, graceMs = 5000) {
  if (child === undefined || exited(child)) return;
  const gone = new Promise((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

/**
 * One redis-server on a free loopback port, its files in a temporary directory: no persistence,
 * or with `persistent` an append-only file synced on every write. `extraArgs` add to its
 * settings (`--replicaof 127.0.0.1 PORT`, say).
 */
export async function startRedisServer({ persistent = false, extraArgs = [] } = {}) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'politely-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, '--daemonize', 'no'];
  args.push('--loglevel', 'warning');
  args.push(...(persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
  args.push(...extraArgs);
  let child;
  const start = async () => {
    try {
      child = await spawnServer(port, args, 'redis-server');
    } catch (error) {
      child = undefined;
      throw error;
    }
  };
  try {
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const node = `127.0.0.1:${port}`;
  return {
    port,
    node,
    url: `redis://${node}/0`,
    get process() {
      return child;
    },
    restart: async ({ downMs = 0 } = {}) => {
      const running = child;
      child = undefined;
      // SIGTERM: a persistent server writes its append-only file before it exits.
      await halt(running, 'SIGTERM');
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    stop: async () => {
      const running = child;
      child = undefined;
      await halt(running, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The rows of a CLUSTER NODES reply: each node's id, port, flags, primary and whether it serves slots. */
function clusterRows(text) {
  // <id> <ip:port@bus> <flags> <primary> <ping> <pong> <epoch> <link> <slots…>
  return text
    .split('\n')
    .map((line) => line.trim().split(' '))
    .filter((fields) => fields.length >= 8)
    .map((fields) => ({
      id: fields[0],
      port: Number(fields[1].split('@')[0].split(':').pop()),
      flags: fields[2].split(','),
      primaryId: fields[3],
      servesSlots: fields.length > 8,
    }));
}

const healthy = (row) => !row.flags.includes('fail') && !row.flags.includes('fail?');

/**
 * A Redis Cluster on loopback: `primaries` primaries (at least 3) and `replicas` replicas of each
 * (0 or more), free ports, no persistence, a `nodeTimeoutMs` cluster-node-timeout (short, so a
 * killed primary's replica takes over within seconds). Resolves once every node says
 * cluster_state:ok and every replica has finished its first sync.
 */
export async function startRedisCluster({ primaries = 3, replicas = 0, nodeTimeoutMs = 2000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'politely-cluster-'));
  const nodes = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => halt(node.process, 'SIGKILL')));
    rmSync(dir, { recursive: true, force: true });
  };
  const live = () => nodes.filter((node) => !exited(node.process));
  const rows = async () => clusterRows(await redisCommand(live()[0].port, ['CLUSTER', 'NODES']));
  const cluster = {
    nodes,
    url: '',
    seeds: [],
    primaries: async () =>
      (await rows()).filter((r) => r.flags.includes('master') && healthy(r) && r.servesSlots).map((r) => r.port),
    primariesWithReplicas: async () => {
      const all = await rows();
      const served = new Set(all.filter((r) => r.flags.includes('slave') && healthy(r)).map((r) => r.primaryId));
      const serving = new Set(await cluster.primaries());
      return all.filter((r) => served.has(r.id) && serving.has(r.port)).map((r) => r.port);
    },
    kill: (port) => nodes.find((node) => node.port === port)?.process.kill('SIGKILL'),
    waitUntilOk: async (timeoutMs, expected = primaries) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const states = await Promise.all(
          live().map((node) => redisCommand(node.port, ['CLUSTER', 'INFO']).catch(() => '')),
        );
        const served = await cluster.primaries().catch(() => []);
        if (states.every((info) => info.includes('cluster_state:ok')) && served.length === expected) return;
        if (Date.now() > deadline)
          throw new Error(
            `the cluster is not ok after ${timeoutMs} ms: ${states.map((s) => s.split('\n')[0]).join('; ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop,
  };
  try {
    const count = primaries * (1 + replicas);
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const nodeDir = join(dir, String(port));
      mkdirSync(nodeDir);
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes'];
      args.push('--cluster-node-timeout', String(nodeTimeoutMs));
      args.push('--cluster-config-file', join(nodeDir, 'nodes.conf'), '--dir', nodeDir);
      args.push('--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning');
      nodes.push({ port, process: await spawnServer(port, args, 'redis-server (cluster node)') });
    }
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicas), '--cluster-yes'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    cluster.seeds = addresses;
    cluster.url = `redis-cluster://${addresses.join(',')}`;
    await cluster.waitUntilOk(30_000);
    // cluster_state:ok comes before the replicas have attached, and a replica that has not
    // finished its first sync cannot take over (its data counts as too old): wait for both.
    const deadline = Date.now() + 30_000;
    const synced = async () => {
      const links = await Promise.all(
        live().map((node) => redisCommand(node.port, ['INFO', 'replication']).catch(() => '')),
      );
      return links.filter((info) => info.includes('role:slave') && info.includes('master_link_status:up')).length;
    };
    while (
      replicas > 0 &&
      ((await cluster.primariesWithReplicas()).length < primaries || (await synced()) < primaries * replicas)
    ) {
      if (Date.now() > deadline) throw new Error('the replicas did not attach to their primaries within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return cluster;
}
