// `politely demo`: the bundled demo robots.txt checked for a handful of URLs, then linted.
// (A later version turns this into a demo crawl of the local web.)

import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { lintRobotsTxt, parseRobotsTxt, type RobotsTxt } from '@politely/core';
import { EXIT_OK, type ExitCode } from '../exit-codes.js';
import { write, type Io } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { readRobotsFile } from '../read-robots-file.js';
import { USAGE } from '../usage.js';
import { describeBasis, verdictOf } from './format-explanation.js';
import { formatReport } from './robots-lint.js';

/** The demo file ships inside the package (`assets/`), so `npx politely demo` finds it too. */
export const DEMO_ROBOTS_FILE = fileURLToPath(new URL('../../assets/demo-robots.txt', import.meta.url));
export const DEMO_USER_AGENT = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';

const DEMO_URLS = [
  'https://shop.example/',
  'https://shop.example/private/invoices.html',
  'https://shop.example/private/press-kit/logo.png',
  'https://shop.example/products/42?sessionid=abc123',
  'https://shop.example/drafts/spring-sale',
  'https://shop.example/api/stock.json',
  'https://shop.example/api/stock.json?fields=id',
  'https://shop.example/api/public/catalog.json',
  'https://shop.example/checkout/',
  'https://shop.example/robots.txt',
] as const;

export async function runDemo(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values } = parseOptions(
    () => parseArgs({ args: [...args], options: { help: { type: 'boolean', short: 'h' } }, strict: true }),
    USAGE,
  );
  if (values.help === true) {
    await write(io.stdout, USAGE);
    return EXIT_OK;
  }
  const bytes = await readRobotsFile(DEMO_ROBOTS_FILE);
  const robots = parseRobotsTxt(bytes);
  await write(io.stdout, `${formatHeader(robots)}\n\n${formatTable(robots)}\n`);
  await write(io.stdout, `Lint of the same file:\n${formatReport('demo-robots.txt', lintRobotsTxt(bytes))}\n`);
  await write(io.stdout, `Try: politely robots explain --robots ${DEMO_ROBOTS_FILE} --ua PolitelyDemo ${DEMO_URLS[1]}\n`);
  return EXIT_OK;
}

function formatHeader(robots: RobotsTxt): string {
  const delay = robots.crawlDelay(DEMO_USER_AGENT);
  return [
    'politely demo: what robots.txt lets a polite crawler fetch',
    `robots.txt:  ${DEMO_ROBOTS_FILE} (${robots.totalBytes} bytes, ${robots.groups.length} groups, ${robots.sitemaps.length} sitemaps)`,
    `user agent:  ${DEMO_USER_AGENT}`,
    `crawl-delay: ${delay === undefined ? 'none' : `${delay} s between requests`}`,
  ].join('\n');
}

function formatTable(robots: RobotsTxt): string {
  const rows = DEMO_URLS.map((url) => {
    const explanation = robots.explain(url, DEMO_USER_AGENT);
    return [verdictOf(explanation), url, describeBasis(explanation)] as const;
  });
  const header = ['VERDICT', 'URL', 'DECIDED BY'] as const;
  const verdictWidth = Math.max(...[header, ...rows].map((row) => row[0].length));
  const urlWidth = Math.max(...[header, ...rows].map((row) => row[1].length));
  const format = (row: readonly [string, string, string]): string =>
    `${row[0].padEnd(verdictWidth)}  ${row[1].padEnd(urlWidth)}  ${row[2]}`;
  return `${[header, ...rows].map(format).join('\n')}\n`;
}
