// A Redis Cluster of a test's own on loopback: 3 primaries and 3 replicas (one each), free
// ports, no persistence, a short cluster-node-timeout so that a killed primary's replica takes
// over within a few seconds. Every wait is bounded; `stop()` (in afterAll) SIGKILLs every node
// and removes their directory, whatever state they are in.

import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answersPing, freePort } from './redis-server.js';

export interface ClusterNode {
  readonly port: number;
  readonly process: ChildProcess;
}

export interface OwnRedisCluster {
  /** `redis-cluster://127.0.0.1:P1,…` of every node (any of them is a seed). */
  readonly url: string;
  readonly nodes: readonly ClusterNode[];
  /** The ports of the nodes that are primaries now (CLUSTER NODES of a live node). */
  primaries(): Promise<number[]>;
  /** The ports of the primaries that have a live replica (a failover can replace them). */
  primariesWithReplicas(): Promise<number[]>;
  /** SIGKILLs a node (a crash). */
  kill(port: number): void;
  /**
   * Resolves once every live node says cluster_state:ok and `primaries` primaries serve the slots;
   * throws after `timeoutMs`. (`startRedisCluster` also waits for a replica per primary.)
   */
  waitUntilOk(timeoutMs: number, primaries?: number): Promise<void>;
  /** Kills every node and removes their directory. */
  stop(): Promise<void>;
}

/** Whether redis-server and redis-cli are on the PATH (null) or why not. */
export function redisClusterToolsMissing(): string | null {
  for (const tool of ['redis-server', 'redis-cli']) {
    const probe = spawnSync(tool, ['--version'], { encoding: 'utf8', timeout: 5000 });
    if (probe.status !== 0) return `${tool} is not available (${probe.error?.message ?? probe.stderr.trim()})`;
  }
  return null;
}

export async function startRedisCluster(options: { readonly nodeTimeoutMs?: number } = {}): Promise<OwnRedisCluster> {
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 2000;
  const dir = mkdtempSync(join(tmpdir(), 'politely-cluster-'));
  const nodes: ClusterNode[] = [];
  const stop = async (): Promise<void> => {
    for (const node of nodes)
      if (node.process.exitCode === null && node.process.signalCode === null) node.process.kill('SIGKILL');
    await Promise.all(
      nodes.map(
        (node) =>
          new Promise<void>((resolve) => {
            if (node.process.exitCode !== null || node.process.signalCode !== null) resolve();
            else node.process.once('exit', () => resolve());
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 6; i++) nodes.push(await startNode(dir, await freePort(), nodeTimeoutMs));
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  } catch (error) {
    await stop();
    throw error;
  }
  const live = (): ClusterNode[] => nodes.filter((n) => n.process.exitCode === null && n.process.signalCode === null);
  const cluster: OwnRedisCluster = {
    url: `redis-cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    nodes,
    primaries: async () => {
      const lines = (await command(live()[0]!.port, ['CLUSTER', 'NODES'])).split('\n');
      // <id> <ip:port@bus> <flags> <primary> <ping> <pong> <epoch> <link> <slots…>: primaries that serve slots.
      return lines
        .map((line) => line.trim().split(' '))
        .filter((fields) => {
          const flags = fields[2]?.split(',') ?? [];
          return fields.length > 8 && flags.includes('master') && !flags.includes('fail') && !flags.includes('fail?');
        })
        .map((fields) => Number(fields[1]!.split('@')[0]!.split(':').pop()));
    },
    primariesWithReplicas: async () => {
      const rows = (await command(live()[0]!.port, ['CLUSTER', 'NODES']))
        .split('\n')
        .map((line) => line.trim().split(' '))
        .filter((fields) => fields.length >= 8);
      const healthy = (fields: string[]): boolean => !fields[2]!.split(',').some((f) => f === 'fail' || f === 'fail?');
      const servedBy = new Set(
        rows.filter((f) => f[2]!.split(',').includes('slave') && healthy(f)).map((fields) => fields[3]!),
      );
      const primaries = new Set(await cluster.primaries());
      return rows
        .filter((fields) => servedBy.has(fields[0]!))
        .map((fields) => Number(fields[1]!.split('@')[0]!.split(':').pop()))
        .filter((port) => primaries.has(port));
    },
    kill: (port) => nodes.find((n) => n.port === port)?.process.kill('SIGKILL'),
    waitUntilOk: async (timeoutMs, primaries = 3) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const states = await Promise.all(live().map((n) => command(n.port, ['CLUSTER', 'INFO']).catch(() => '')));
        const served = await cluster.primaries().catch(() => []);
        if (states.every((info) => info.includes('cluster_state:ok')) && served.length === primaries) return;
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
    await cluster.waitUntilOk(30_000);
    // cluster_state:ok comes before the replicas have attached: wait for one per primary too.
    const deadline = Date.now() + 30_000;
    const synced = async (): Promise<boolean> => {
      // A replica that has not finished its first sync cannot take over (its data counts as too old).
      const links = await Promise.all(live().map((n) => command(n.port, ['INFO', 'replication']).catch(() => '')));
      return links.filter((info) => info.includes('role:slave') && info.includes('master_link_status:up')).length === 3;
    };
    while ((await cluster.primariesWithReplicas()).length < 3 || !(await synced())) {
      if (Date.now() > deadline) throw new Error('the replicas did not attach to their primaries within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return cluster;
}

async function startNode(dir: string, port: number, nodeTimeoutMs: number): Promise<ClusterNode> {
  const nodeDir = join(dir, String(port));
  mkdirSync(nodeDir);
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-node-timeout',
      String(nodeTimeoutMs),
      '--cluster-config-file',
      join(nodeDir, 'nodes.conf'),
      '--dir',
      nodeDir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server (cluster node) on port ${port} did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, process: child };
}

/** One command to one node (redis-cli, bounded to 5 s); its reply as text. */
function command(port: number, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 5000 }, (error, stdout) =>
      error === null ? resolve(stdout) : reject(error),
    );
  });
}
