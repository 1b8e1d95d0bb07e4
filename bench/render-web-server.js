// The render web of render.bench.js, served from its own process so that neither the crawler's
// CPU and memory nor the parent's /proc sampling touch it (a server stalled by a sampler would
// stamp requests late and could make a gap look short). Started with `fork` (IPC):
//
//   argv[2]: JSON { firstAddress, productToken }: startRenderWeb on 127.0.0.(firstAddress) and the
//            next address (app, cdn), one port the OS picks; the truth is computed for productToken.
//   → sends { type: 'ready', entryUrl, hosts: [{ name, origin, crawlDelaySeconds }],
//             truth: { pages: [{ url, path, title }], requested, neverRequested } }
//   ← { type: 'report' }  → sends { type: 'report', log, violations, server }: every request the
//                           servers saw (web.requestLog(), by arrival), the ones robots.txt
//                           disallows for productToken (violations()), and this process's CPU
//                           time since 'ready'
//   ← { type: 'close' }   → closes both servers and exits.
//
// Everything render.bench.js reports about requests comes from these logs, never from a crawler.

import { renderManifest, startRenderWeb, violations } from '@politely/demo-web';

const { firstAddress, productToken } = JSON.parse(process.argv[2] ?? '{}');
const web = await startRenderWeb({ firstAddress, userAgent: productToken });
const truth = renderManifest(web, productToken);
const cpuAtReady = process.cpuUsage();
const readyAt = performance.now();

process.send({
  type: 'ready',
  entryUrl: web.entryUrl,
  hosts: web.hosts.map((host) => ({
    name: host.name,
    origin: host.origin,
    crawlDelaySeconds: host.crawlDelaySeconds ?? null,
  })),
  truth: {
    pages: truth.pages.map((page) => ({ url: page.url, path: page.path, title: page.title })),
    requested: truth.requested,
    neverRequested: truth.neverRequested.map(({ url, type, reason }) => ({ url, type, reason })),
  },
});

process.on('message', async (message) => {
  if (message.type === 'report') {
    const cpu = process.cpuUsage(cpuAtReady);
    process.send({
      type: 'report',
      log: web.requestLog().sort((a, b) => a.atMs - b.atMs),
      violations: violations(web, productToken),
      server: { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - readyAt },
    });
  } else if (message.type === 'close') {
    await web.close();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
