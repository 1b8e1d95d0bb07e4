import { FLEET_URL_PATTERN, frontPages, runContestant, startFleetServer } from './processes.js';
const server = await startFleetServer([{ hosts: 50, pagesPerHost: 200, pageProfile: 'realistic' }]);
const execArgv = process.env.ARGS ? process.env.ARGS.split(' ') : [];
try {
  const r = await runContestant({ contestant: process.env.WHO ?? 'politely', userAgent: 'PolitelyBench/1.0', productToken: 'PolitelyBench', scopePattern: FLEET_URL_PATTERN,
    seeds: frontPages(server.fleets[0]), concurrency: 64, perHostConcurrency: 4, sameDomainDelaySecs: 0 }, 600000, { execArgv });
  const mb = (b) => (b / 1e6).toFixed(1);
  console.log('handled', r.handled, 'cpu/page', (r.cpuMs / r.handled).toFixed(3), 'peak', mb(r.peakRssBytes), 'sampled', mb(r.sampledPeakRssBytes), 'baseline', mb(r.baselineRssBytes));
  console.log('atPeak', Object.fromEntries(Object.entries(r.atPeakBytes ?? {}).map(([k, v]) => [k, mb(v)])), 'gc', r.gc.pauses, r.gc.ms.toFixed(0));
} finally { await server.close(); }
