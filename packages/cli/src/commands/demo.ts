// `politely demo`: starts the bundled demo web (eight sites on loopback addresses) and the usage
// web (five sites stating how their content may be used: Content-Signal and Content-Usage lines,
// headers, TDMRep), crawls them politely with the defaults, writes the pages (JSON lines, with
// their usage verdicts) and the HTML report, checks the servers' own logs for any request
// robots.txt disallowed and any gap shorter than a host's crawl-delay, explains a few robots.txt
// decisions, stops the webs and prints where it all is.

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ChromiumRenderer, findChromium } from '@politely/browser';
import { parseRobotsTxt } from '@politely/core';
import { type LocalWeb, startDemoWeb, startRenderWeb, startUsageWeb } from '@politely/demo-web';
import { sitemaps } from '@politely/sitemap';
import { CliError } from '../cli-error.js';
import { LOG_FORMATS, type LogFormat } from '../crawl/crawl-options.js';
import { runCrawlSession, type SessionCrawlerOptions } from '../crawl/crawl-session.js';
import { pageOutputs, warcOutput } from '../crawl/output-files.js';
import { openStore } from '../crawl/store-option.js';
import { EXIT_FAILURE, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { escapeControls, quoteInput, toSafeJson } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { DEMO_USAGE } from '../usage.js';
import { type ServerChecks, serverChecks } from './demo-checks.js';
import { describeBasis, verdictOf } from './format-explanation.js';

export const DEMO_USER_AGENT = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
export const DEFAULT_DEMO_DIR = 'politely-demo';

/**
 * The demo crawl's settings: the sites' own Crawl-delay lines decide the pace (0.2–0.25 s; the
 * floor is lower), and depth and per-host caps keep the crawler out of the endless calendar.
 */
export function demoCrawlerOptions(
  web: LocalWeb,
  usageWeb?: LocalWeb,
  rendering?: DemoRendering,
): SessionCrawlerOptions {
  // Every site's front page: the scope is derived from the seeds. The usage web's hub links every
  // page of its sites. No `purposes`: usage verdicts are recorded (pages, report), nothing skipped.
  const seeds = [...web.hosts, ...(usageWeb?.hosts ?? [])].map((host) => `${host.origin}/`);
  // The render web's app is a JavaScript shop: its pages are rendered in Chromium, and every
  // request they make (its scripts, API, pictures, the third-party widget) goes through the crawler.
  const renderApp = rendering === undefined ? undefined : `${rendering.web.host('app').origin}/`;
  if (rendering !== undefined) seeds.push(rendering.web.entryUrl);
  return {
    ...(rendering === undefined || renderApp === undefined
      ? {}
      : {
          render: (request: { readonly url: string }) => request.url.startsWith(renderApp),
          renderer: new ChromiumRenderer({ executablePath: rendering.chromium }),
          // The pictures too, so that the demo shows the whole site; media and fonts are never needed.
          renderBlockResourceTypes: ['media', 'font'],
        }),
    userAgent: DEMO_USER_AGENT,
    seeds,
    // The demo webs are on loopback (127.0.0.2–9, .90–94), which the SSRF guard refuses unless allowed.
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 100,
    concurrency: 16,
    perHostConcurrency: 1,
    maxDepth: 8,
    maxPagesPerHost: 150,
    // The status host's robots.txt answers 503: retry it a few times, soon, then give up on it.
    backoffBaseMs: 400,
    maxRobotsRetries: 3,
    requestTimeoutMs: 10_000,
    plugins: [sitemaps({ origins: web.hosts.filter((host) => host.sitemaps.length > 0).map((host) => host.origin) })],
  };
}

/** The demo's JavaScript site and the Chromium that renders it (when one is installed). */
export interface DemoRendering {
  readonly web: LocalWeb;
  readonly chromium: string;
}

const OPTIONS = {
  'out-dir': { type: 'string' },
  log: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runDemo(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values } = parseOptions(args, { command: 'demo', usage: DEMO_USAGE, options: OPTIONS }, (checked) =>
    parseArgs({ args: checked, options: OPTIONS, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, DEMO_USAGE);
    return EXIT_OK;
  }
  const log = values.log;
  if (log !== undefined && !(LOG_FORMATS as readonly string[]).includes(log))
    throw new CliError(`demo: --log: expected one of ${LOG_FORMATS.join(', ')}, got ${quoteInput(log)}`);
  const dir = resolve(values['out-dir'] ?? DEFAULT_DEMO_DIR);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new CliError(
      `demo: --out-dir ${quoteInput(dir)}: cannot create it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const pagesFile = join(dir, 'pages.jsonl');
  const reportFile = join(dir, 'report.html');
  const warcFile = join(dir, 'crawl.warc.gz');
  // The demo's own folder: each run starts afresh.
  const outputs = [
    ...pageOutputs([pagesFile], { resume: false, overwrite: true }),
    warcOutput(warcFile, { resume: false, overwrite: true, cdx: true, maxFileBytes: undefined }),
  ];
  const web = await startDemoWeb();
  const usageWeb = await startUsageWeb().catch(async (error: unknown) => {
    await web.close();
    throw error;
  });
  const webs = [web, usageWeb];
  // The JavaScript site needs a browser: without Chromium (apt-get install chromium) the demo goes on without it.
  const chromium = findChromium();
  const renderWeb = chromium === undefined ? undefined : await startRenderWeb().catch(() => undefined);
  if (renderWeb !== undefined) webs.push(renderWeb);
  try {
    const display =
      (log as LogFormat | undefined) ?? ((io.stdout as { isTTY?: boolean }).isTTY === true ? 'progress' : 'plain');
    if (display !== 'json') await write(io.stdout, introText(webs, chromium));
    const options = demoCrawlerOptions(
      web,
      usageWeb,
      renderWeb === undefined || chromium === undefined ? undefined : { web: renderWeb, chromium },
    );
    const result = await runCrawlSession({
      io,
      crawler: options,
      store: await openStore(
        { kind: 'memory' },
        { minDelayMs: options.minDelayMs, perHostConcurrency: 1, crawlId: undefined },
      ),
      outputs,
      reportFile,
      report: {
        title: 'politely demo: a polite crawl of the demo web',
        labels: new Map(webs.flatMap((w) => w.hosts).map((host) => [host.address, host.name])),
        settings: [
          ['user agent', DEMO_USER_AGENT],
          ['minimum delay', `${options.minDelayMs} ms (each site's Crawl-delay decides)`],
          ['max depth', String(options.maxDepth)],
          ['max pages per host', String(options.maxPagesPerHost)],
          ['sitemaps', 'on'],
          ['usage preferences', 'recorded, nothing skipped (no --purpose)'],
          [
            'rendering',
            renderWeb === undefined
              ? 'off (no Chromium on the PATH)'
              : `the app's pages in Chromium (${chromium ?? ''}); every sub-request through the crawler`,
          ],
        ],
      },
      display,
      statusIntervalMs: 2000,
    });
    if (result.interrupted) return result.exitCode;
    const archive = result.outputs.find((output) => output.format === 'warc');
    const archiveFiles =
      archive?.format === 'warc' ? { files: archive.files, index: archive.cdx } : { files: [], index: undefined };
    const checks = serverChecks(webs, DEMO_USER_AGENT, options.minDelayMs);
    if (display === 'json')
      await write(
        io.stdout,
        `${toSafeJson({ level: 'info', time: new Date().toISOString(), event: 'demo', dir, pages: pagesFile, report: reportFile, archive: archiveFiles, ...checksJson(checks) })}\n`,
      );
    else
      await write(
        io.stdout,
        `${checksText(checks)}\n${explainText(web)}\n${escapeControls(whereText(dir, pagesFile, reportFile, archiveFiles), { keepNewlines: true })}`,
      );
    return checks.violations.length === 0 && checks.tooClose.length === 0 ? result.exitCode : EXIT_FAILURE;
  } finally {
    await Promise.all(webs.map((w) => w.close()));
  }
}

function introText(webs: readonly LocalWeb[], chromium: string | undefined): string {
  const rows = webs
    .flatMap((w) => w.hosts)
    .map((host) => {
      const delay = host.crawlDelaySeconds === undefined ? '' : `, Crawl-delay ${host.crawlDelaySeconds} s`;
      return `  ${host.name.padEnd(7)} ${host.origin.padEnd(24)} robots.txt ${host.robotsStatus}${delay}`;
    });
  const rendering =
    chromium === undefined
      ? '(no Chromium on the PATH: the JavaScript site is left out; apt-get install chromium to add it)'
      : `(app: a JavaScript shop, its pages rendered in ${chromium}, every request they make through the crawler)`;
  return `politely demo: a polite crawl of the demo web, the usage web and the render web, as ${DEMO_USER_AGENT}\n${rows.join('\n')}\n${rendering}\n\n`;
}

function checksText(checks: ServerChecks): string {
  const robots =
    checks.violations.length === 0
      ? `✓ robots.txt: none of the ${checks.requests} requests the servers logged went to a path their robots.txt disallows`
      : `✗ robots.txt: ${checks.violations.length} requests to disallowed paths:\n${checks.violations.map((v) => `    ${v.origin}${v.path}`).join('\n')}`;
  const pace =
    checks.tooClose.length === 0
      ? `✓ pace: at every host, requests arrived at least its crawl-delay apart (tightest: ${checks.tightest})`
      : `✗ pace: requests closer than the crawl-delay at ${checks.tooClose.join(', ')}`;
  return `\nChecked against the servers' own request logs:\n  ${robots}\n  ${pace}\n  ✓ coverage: ${checks.found} of the ${checks.expected} pages a complete polite crawl finds were fetched\n`;
}

function checksJson(checks: ServerChecks): Record<string, unknown> {
  return {
    requests: checks.requests,
    violations: checks.violations.length,
    tooClose: checks.tooClose,
    expectedPages: checks.expected,
    foundPages: checks.found,
  };
}

/** A robots.txt explanation, the engine's other half: why a few shop URLs are allowed or not. */
function explainText(web: LocalWeb): string {
  const shop = web.host('shop');
  const robots = parseRobotsTxt(shop.robotsTxt ?? '');
  const paths = [
    '/account/help',
    '/account/orders',
    '/category/garden?sort=price',
    '/api/public/catalog.json',
    '/api/stock.json',
  ];
  const rows = paths.map((path) => {
    const explanation = robots.explain(shop.origin + path, DEMO_USER_AGENT);
    return `  ${verdictOf(explanation).padEnd(10)} ${path.padEnd(28)} ${describeBasis(explanation)}`;
  });
  return `How the shop's robots.txt decides for PolitelyDemo (politely robots explain does this for any URL):\n${rows.join('\n')}\n`;
}

function whereText(
  dir: string,
  pagesFile: string,
  reportFile: string,
  archive: { readonly files: readonly string[]; readonly index: string | undefined },
): string {
  const warc =
    archive.files.length === 0
      ? ''
      : `  archive ${archive.files.join(', ')} (WARC: every request and response${archive.index === undefined ? '' : `; index ${archive.index}`})\n`;
  return `\nResults in ${dir}:\n  pages   ${pagesFile}\n  report  ${reportFile}\n${warc}  open    ${pathToFileURL(reportFile).href}\n`;
}
