// `politely robots explain`: the verdict for each URL, with the group and the deciding line.

import { parseArgs } from 'node:util';
import { CliError } from '../cli-error.js';
import { network, robotsTokenOption } from '../crawl/crawl-options.js';
import { EXIT_OK, EXIT_USAGE, type ExitCode } from '../exit-codes.js';
import { parseHttpUrl } from '../input/http-url.js';
import { durationOption } from '../input/parse-number.js';
import { escapeControls, quoteInput, toSafeJson } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { createFileRobotsSource, createLiveRobotsSource, type RobotsSource } from '../robots-source.js';
import { ROBOTS_USAGE } from '../usage.js';
import { decisionToJson, formatDecision } from './format-explanation.js';

const OPTIONS = {
  robots: { type: 'string' },
  ua: { type: 'string' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  'allow-net': { type: 'string', multiple: true },
  'robots-token': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

interface ExplainOptions {
  readonly robotsFile: string | undefined;
  readonly userAgent: string;
  readonly json: boolean;
  readonly timeoutMs: number;
  /** Networks the SSRF guard lets through when robots.txt is fetched live. */
  readonly allowNet: readonly string[];
  readonly urls: readonly string[];
  /** `--robots-token`: product tokens evaluated besides the user agent's. */
  readonly tokens: readonly string[];
}

export async function runRobotsExplain(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values, positionals } = parseOptions(
    args,
    { command: 'robots explain', usage: ROBOTS_USAGE, options: OPTIONS, allowPositionals: true, numeric: ['timeout'] },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, ROBOTS_USAGE);
    return EXIT_OK;
  }
  if (values.ua === undefined) throw new CliError('robots explain: --ua UA is required (see politely robots --help)');
  if (positionals.length === 0)
    throw new CliError('robots explain: give at least one URL (see politely robots --help)');
  const timeoutMs =
    values.timeout === undefined ? 10_000 : durationOption('robots explain', '--timeout', values.timeout, 1);
  const allowNet = (values['allow-net'] ?? []).map((cidr) => network('robots explain', '--allow-net', cidr));
  const tokens = (values['robots-token'] ?? []).map((token) => robotsTokenOption('robots explain', token));
  const options: ExplainOptions = {
    robotsFile: values.robots,
    userAgent: values.ua,
    json: values.json === true,
    timeoutMs,
    allowNet,
    urls: positionals,
    tokens,
  };
  const source = await selectRobotsSource(options);
  let exitCode: ExitCode = EXIT_OK;
  try {
    for (const url of options.urls) {
      const parsed = parseHttpUrl(url);
      if (parsed === null) {
        // Report it and go on with the other URLs; the exit code says something was wrong.
        await write(
          io.stderr,
          `politely: robots explain: invalid URL ${quoteInput(url)}: not an absolute http(s) URL\n`,
        );
        exitCode = EXIT_USAGE;
        continue;
      }
      const decision = await source.decide(parsed, options.userAgent, options.tokens);
      // The URL, the user agent and the robots.txt lines are input: nothing in them reaches the
      // terminal as a control character (JSON escapes C0; the rest is escaped here).
      const output = options.json
        ? `${toSafeJson(decisionToJson(url, options.userAgent, decision))}\n`
        : `${escapeControls(formatDecision(url, options.userAgent, decision), { keepNewlines: true })}\n`;
      await write(io.stdout, output);
    }
  } finally {
    await source.close();
  }
  return exitCode;
}

/** A --robots file decides every URL; without one, each origin's live robots.txt does. */
async function selectRobotsSource(options: ExplainOptions): Promise<RobotsSource> {
  if (options.robotsFile === undefined)
    return createLiveRobotsSource({
      timeoutMs: options.timeoutMs,
      userAgent: options.userAgent,
      allowNet: options.allowNet,
    });
  return createFileRobotsSource(options.robotsFile);
}
