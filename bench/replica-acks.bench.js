// What `replicaAcks` costs per page (issue 31): the same politely crawl of realistic pages with
// the Redis store on a primary that has one replica, without replicaAcks and with `replicaAcks:
// 1` (every state change waits for the replica's WAIT acknowledgement). Both Redis servers are
// started here from the redis-server binary on free loopback ports (test/support/redis-launch.js), and stopped afterwards; the
// crawler runs in its own process (crawler-contestant.js), the fleet in another.
//
//   node bench/replica-acks.bench.js        (after `pnpm build`; about a minute)
//
// Per setting: pages/s, the crawler's CPU per page, Redis commands per page (WAIT among them),
// and the redis-server primary's own CPU per page; then the ratios with/without.
// Environment: BENCH_ACKS_HOSTS × BENCH_ACKS_PAGES (default 20 × 150), BENCH_ACKS_REPS (default 1;
// the settings alternate, medians reported). Writes bench/results/replica-acks.json.

import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisLink, deleteRedisCrawl } from '@politely/store-redis';
import { startRedisServer } from '../test/support/redis-launch.js';
import { formatFixed, formatInteger, formatTable, median } from './harness.js';
import { crawlJob, runContestant, startFleetServer } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = join(HERE, 'results', 'replica-acks.json');
const USER_AGENT = 'PolitelyBench/1.0 (+https://github.com/politely/politely)';
const FLEET = {
  hosts: Number(process.env.BENCH_ACKS_HOSTS ?? 20),
  pagesPerHost: Number(process.env.BENCH_ACKS_PAGES ?? 150),
  pageProfile: 'realistic',
};
const REPS = Math.max(1, Number(process.env.BENCH_ACKS_REPS ?? 1));
const CONCURRENCY = 64;
const RUN_TIMEOUT_MS = 300_000;
const SETTINGS = [0, 1];

/** A redis-server of our own (redis-launch.js) with a link to read its INFO. */
async function startRedisWithInfo(extraArgs = []) {
  const redis = await startRedisServer({ extraArgs });
  const link = createRedisLink(redis.url, { connectTimeoutMs: 10_000 });
  await link.ready();
  return {
    ...redis,
    async info(section) {
      const text = await link.client.info(section);
      return new Map(
        text
          .split('\r\n')
          .filter((line) => line.includes(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
      );
    },
    async stop() {
      await link.close().catch(() => {});
      await redis.stop();
    },
  };
}

/** The server's own CPU time so far (ms, user + system). */
async function serverCpuMs(redis) {
  const cpu = await redis.info('cpu');
  return (Number(cpu.get('used_cpu_user')) + Number(cpu.get('used_cpu_sys'))) * 1000;
}

async function waitForReplica(primary) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const replication = await primary.info('replication');
    if (Number(replication.get('connected_slaves')) >= 1 && /state=online/.test(replication.get('slave0') ?? ''))
      return;
    if (Date.now() > deadline) throw new Error('the replica did not come online within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function crawlWith(primary, replicaAcks) {
  const server = await startFleetServer([FLEET]);
  const crawlId = `politely-bench-acks-${randomUUID()}`;
  try {
    const cpuBefore = await serverCpuMs(primary);
    const store = { kind: 'redis', redisUrl: primary.url, crawlId, ...(replicaAcks > 0 ? { replicaAcks } : {}) };
    const job = crawlJob({ fleet: server.fleets[0], store, userAgent: USER_AGENT, concurrency: CONCURRENCY });
    const result = await runContestant(job, RUN_TIMEOUT_MS);
    const redisCpuMs = (await serverCpuMs(primary)) - cpuBefore;
    const { logs } = await server.report(USER_AGENT);
    const pages = logs[0].pagesOk;
    const commands = Object.entries(result.storeCalls)
      .filter(([name]) => name.startsWith('redis.'))
      .reduce((sum, [, calls]) => sum + calls, 0);
    return {
      replicaAcks,
      pages,
      pagesPerSecond: pages / (result.wallMs / 1000),
      cpuMsPerPage: result.cpuMs / pages,
      redisCommandsPerPage: commands / pages,
      waitsPerPage: (result.storeCalls['redis.wait'] ?? 0) / pages,
      redisCpuMsPerPage: redisCpuMs / pages,
      robotsViolations: logs[0].robotsViolations,
    };
  } finally {
    await server.close();
    await deleteRedisCrawl({ redis: primary.url, crawlId }).catch(() => {});
  }
}

const startedAt = performance.now();
const primary = await startRedisWithInfo();
const replica = await startRedisWithInfo(['--replicaof', '127.0.0.1', String(primary.port)]);
const runs = Object.fromEntries(SETTINGS.map((acks) => [acks, []]));
try {
  await waitForReplica(primary);
  console.log(
    `replicaAcks on realistic pages: ${FLEET.hosts} hosts × ${FLEET.pagesPerHost} pages, concurrency ${CONCURRENCY}, a primary with one replica, ${REPS} rep(s)`,
  );
  for (let rep = 0; rep < REPS; rep++) {
    for (const acks of rep % 2 === 0 ? SETTINGS : [...SETTINGS].reverse()) {
      const figures = await crawlWith(primary, acks);
      runs[acks].push(figures);
      console.log(
        `  replicaAcks ${acks} rep ${rep + 1}: ${figures.pages} pages, ${formatInteger(figures.pagesPerSecond)} pages/s, ` +
          `${formatFixed(figures.cpuMsPerPage, 3)} ms CPU/page, ${formatFixed(figures.redisCommandsPerPage, 2)} commands/page ` +
          `(${formatFixed(figures.waitsPerPage, 2)} WAIT), redis-server ${formatFixed(figures.redisCpuMsPerPage, 3)} ms CPU/page`,
      );
    }
  }
} finally {
  await replica.stop();
  await primary.stop();
}

const summary = Object.fromEntries(
  SETTINGS.map((acks) => {
    const list = runs[acks];
    const mid = (pick) => median(list.map(pick));
    return [
      acks,
      {
        pagesPerSecond: mid((r) => r.pagesPerSecond),
        cpuMsPerPage: mid((r) => r.cpuMsPerPage),
        redisCommandsPerPage: mid((r) => r.redisCommandsPerPage),
        waitsPerPage: mid((r) => r.waitsPerPage),
        redisCpuMsPerPage: mid((r) => r.redisCpuMsPerPage),
        robotsViolations: Math.max(...list.map((r) => r.robotsViolations)),
      },
    ];
  }),
);
const [without, withAcks] = [summary[0], summary[1]];
const ratios = {
  pagesPerSecond: withAcks.pagesPerSecond / without.pagesPerSecond,
  cpuMsPerPage: withAcks.cpuMsPerPage / without.cpuMsPerPage,
  redisCpuMsPerPage: withAcks.redisCpuMsPerPage / without.redisCpuMsPerPage,
};
const row = (label, s) => [
  label,
  formatInteger(s.pagesPerSecond),
  `${formatFixed(s.cpuMsPerPage, 3)} ms`,
  formatFixed(s.redisCommandsPerPage, 2),
  formatFixed(s.waitsPerPage, 2),
  `${formatFixed(s.redisCpuMsPerPage, 3)} ms`,
];
console.log(
  `\n${formatTable(
    ['setting', 'pages/s', 'crawler CPU/page', 'commands/page', 'WAIT/page', 'redis-server CPU/page'],
    [
      row('no replicaAcks', without),
      row('replicaAcks 1', withAcks),
      [
        'with / without',
        `${formatFixed(ratios.pagesPerSecond, 2)}×`,
        `${formatFixed(ratios.cpuMsPerPage, 2)}×`,
        '',
        '',
        `${formatFixed(ratios.redisCpuMsPerPage, 2)}×`,
      ],
    ],
  )}`,
);
mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(
  RESULTS_FILE,
  `${JSON.stringify(
    {
      benchmark: 'replica-acks',
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, loadavg: os.loadavg() },
      fleet: FLEET,
      concurrency: CONCURRENCY,
      reps: REPS,
      settings: summary,
      ratios,
      runs,
      totalSeconds: (performance.now() - startedAt) / 1000,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwritten to ${RESULTS_FILE}`);
