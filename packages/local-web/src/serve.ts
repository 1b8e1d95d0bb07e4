// A script entry: starts the demo web (or a fleet) and prints where its hosts are.
//   node packages/local-web/dist/serve.js [--port 8080] [--first-address 2] [--json]
//   node packages/local-web/dist/serve.js --fleet 50x200 [--crawl-delay 0.5] [--sitemaps]
//   node packages/local-web/dist/serve.js --hostile [--first-address 60] [--json]
//   node packages/local-web/dist/serve.js --consent [--first-address 70] [--json]
//   node packages/local-web/dist/serve.js --usage [--first-address 90] [--json]
//   node packages/local-web/dist/serve.js --render [--first-address 100] [--json]
// --usage starts the usage web (127.0.0.90–94 by default); its --json adds `usagePages` and `tdmrepFiles`.
// --render starts the render web (127.0.0.100–101 by default); its --json adds `manifest` (renderManifest).
// --hostile starts the hostile web instead (127.0.0.60–67 by default); its --json adds `cases` and
// `goodPageUrls`, and leaves out robots.txt bodies over 64 KiB (`robotsTxt: null`, `robotsTxtBytes`).
// --port defaults to 8080 for friendly URLs and falls back to a free port if 8080 is taken.
// Ctrl-C (or SIGTERM) closes every server.

import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type HostInfo,
  type LocalWeb,
  LocalWebError,
  RENDER_SHELL_TITLE,
  type RenderWeb,
  renderManifest,
  startDemoWeb,
  startRenderWeb,
  startUsageWeb,
  type UsageWeb,
} from '@politely/demo-web';
import { startConsentWeb } from './consent/consent-web.js';
import { startFleet } from './fleet/fleet.js';
import { type HostileWeb, startHostileWeb } from './hostile/hostile-web.js';

const PREFERRED_PORT = 8080;
// The big-robots host's 10 MB robots.txt has no place in a manifest printed to a terminal.
const MAX_PRINTED_ROBOTS_TXT_CHARS = 64 * 1024;

/** Starts the web that `argv` asks for, prints its hosts, and closes it on SIGINT/SIGTERM. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<LocalWeb> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      'first-address': { type: 'string' },
      fleet: { type: 'string' },
      'crawl-delay': { type: 'string' },
      sitemaps: { type: 'boolean' },
      hostile: { type: 'boolean' },
      consent: { type: 'boolean' },
      usage: { type: 'boolean' },
      render: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    strict: true,
  });
  const hostile = values.hostile === true;
  const consent = values.consent === true;
  const usage = values.usage === true;
  const render = values.render === true;
  if ([hostile, consent, usage, render, values.fleet !== undefined].filter(Boolean).length > 1) {
    throw new LocalWebError(
      'ERR_INVALID_OPTION',
      'serve: --hostile, --consent, --usage, --render and --fleet start different webs; choose one',
    );
  }
  const firstAddress =
    values['first-address'] === undefined
      ? hostile
        ? 60
        : consent
          ? 70
          : usage
            ? 90
            : render
              ? 100
              : 2
      : Number(values['first-address']);
  const start = (port: number): Promise<LocalWeb> => {
    if (hostile) return startHostileWeb({ port, firstAddress });
    if (consent) return startConsentWeb({ port, firstAddress });
    if (usage) return startUsageWeb({ port, firstAddress });
    if (render) return startRenderWeb({ port, firstAddress });
    if (values.fleet === undefined) return startDemoWeb({ port, firstAddress });
    const [hosts, pages] = values.fleet.split('x').map(Number);
    const delay = values['crawl-delay'];
    return startFleet({
      hosts: hosts ?? 0,
      pagesPerHost: pages ?? 0,
      port,
      firstAddress,
      sitemaps: values.sitemaps === true,
      ...(delay === undefined ? {} : { crawlDelaySeconds: Number(delay) }),
    });
  };
  const web = await startWithFallback(start, values.port === undefined ? undefined : Number(values.port));
  process.stdout.write(values.json === true ? `${toJson(web)}\n` : describe(web));
  const stop = (): void => {
    void web.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return web;
}

/** An explicit port is used as given; without one, 8080 is tried first, then any free port. */
async function startWithFallback(
  start: (port: number) => Promise<LocalWeb>,
  port: number | undefined,
): Promise<LocalWeb> {
  if (port !== undefined) return start(port);
  try {
    return await start(PREFERRED_PORT);
  } catch (error) {
    if (error instanceof LocalWebError && error.code === 'ERR_ADDRESS_IN_USE') return start(0);
    throw error;
  }
}

function isHostile(web: LocalWeb): web is HostileWeb {
  return 'cases' in web && 'goodPageUrls' in web;
}

function isUsage(web: LocalWeb): web is UsageWeb {
  return 'usagePages' in web && 'tdmrepFiles' in web;
}

function isRender(web: LocalWeb): web is RenderWeb {
  return 'renderPages' in web;
}

function toJson(web: LocalWeb): string {
  if (isRender(web)) return JSON.stringify({ entryUrl: web.entryUrl, hosts: web.hosts, manifest: renderManifest(web) });
  if (isUsage(web)) {
    return JSON.stringify({
      entryUrl: web.entryUrl,
      hosts: web.hosts,
      usagePages: web.usagePages,
      tdmrepFiles: web.tdmrepFiles,
    });
  }
  if (!isHostile(web)) return JSON.stringify({ entryUrl: web.entryUrl, hosts: web.hosts });
  return JSON.stringify({
    entryUrl: web.entryUrl,
    hosts: web.hosts.map(printableHost),
    cases: web.cases,
    goodPageUrls: web.goodPageUrls,
  });
}

function printableHost(
  host: HostInfo,
): HostInfo | (Omit<HostInfo, 'robotsTxt'> & { robotsTxt: null; robotsTxtBytes: number }) {
  if (host.robotsTxt === null || host.robotsTxt.length <= MAX_PRINTED_ROBOTS_TXT_CHARS) return host;
  return { ...host, robotsTxt: null, robotsTxtBytes: Buffer.byteLength(host.robotsTxt) };
}

function describe(web: LocalWeb): string {
  const width = Math.max(...web.hosts.map((host) => host.name.length));
  const lines = web.hosts.slice(0, 20).map((host) => {
    const delay = host.crawlDelaySeconds === undefined ? '' : `  crawl-delay ${host.crawlDelaySeconds}s`;
    const robots = host.robotsStatus === 0 ? 'never answers' : String(host.robotsStatus);
    return `  ${host.name.padEnd(width)}  ${host.origin}/  robots ${robots}${delay}`;
  });
  if (web.hosts.length > 20) lines.push(`  … and ${web.hosts.length - 20} more hosts`);
  if (isHostile(web)) {
    const caseWidth = Math.max(...web.cases.map((c) => c.name.length));
    lines.push(`${web.cases.length} cases (expected outcome, entry URL):`);
    for (const c of web.cases) {
      const outcome = c.expect.kind === 'skip' ? `skip ${c.expect.reason}` : c.expect.kind;
      lines.push(`  ${c.name.padEnd(caseWidth)}  ${outcome.padEnd(24)}  ${c.entryUrl.slice(0, 100)}`);
    }
    lines.push(`${web.goodPageUrls.length} good pages must be fetched with status 200.`);
    // Its hosts are separate IP addresses, each its own site: a crawl must allow any scope.
    lines.push(
      `Crawl it: pnpm -s politely crawl --ua MyBot --allow-net 127.0.0.0/8 --scope any --out hostile.jsonl ${web.entryUrl}`,
    );
  }
  if (isUsage(web)) {
    const reserved = web.usagePages.filter((page) => page.verdicts['ai-train'].status === 'reserved').length;
    lines.push(
      `${web.usagePages.length} pages, ${reserved} of them reserved for AI training (see --json for every verdict).`,
    );
    lines.push(`Crawl it for AI training: node examples/usage-aware-crawl.mjs ${web.entryUrl}`);
  }
  if (isRender(web)) {
    const truth = renderManifest(web);
    lines.push(
      `${truth.pages.length} pages, each a shell titled "${RENDER_SHELL_TITLE}" until app.js renders it; ${truth.renderedOnlyLinks.length} links exist only after rendering.`,
    );
    lines.push(
      `${truth.requested.length} requests for a polite crawl with rendering, ${truth.neverRequested.length} it must never make (see --json).`,
    );
  }
  const kind = isHostile(web) ? 'hostile web' : isUsage(web) ? 'usage web' : isRender(web) ? 'render web' : 'local web';
  return `politely ${kind}: ${web.hosts.length} hosts, start at ${web.entryUrl}\n${lines.join('\n')}\nCtrl-C to stop.\n`;
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
