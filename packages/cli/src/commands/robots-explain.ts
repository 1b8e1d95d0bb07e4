// `politely robots explain`: the verdict for each URL, with the group and the deciding line.

import { parseArgs } from 'node:util';
import { CliError } from '../cli-error.js';
import { EXIT_OK, EXIT_USAGE, type ExitCode } from '../exit-codes.js';
import { write, type Io } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { createFileRobotsSource, type LoadRobots } from '../robots-source.js';
import { ROBOTS_USAGE } from '../usage.js';
import { explanationToJson, formatExplanation } from './format-explanation.js';

const OPTIONS = {
  robots: { type: 'string' },
  ua: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface ExplainOptions {
  readonly robotsFile: string | undefined;
  readonly userAgent: string;
  readonly json: boolean;
  readonly urls: readonly string[];
}

export async function runRobotsExplain(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values, positionals } = parseOptions(
    () => parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true }),
    ROBOTS_USAGE,
  );
  if (values.help === true) {
    await write(io.stdout, ROBOTS_USAGE);
    return EXIT_OK;
  }
  if (values.ua === undefined) throw new CliError('robots explain: --ua UA is required (see politely robots --help)');
  if (positionals.length === 0) throw new CliError('robots explain: give at least one URL (see politely robots --help)');
  const options: ExplainOptions = { robotsFile: values.robots, userAgent: values.ua, json: values.json === true, urls: positionals };
  const loadRobots = await selectRobotsSource(options);
  let exitCode: ExitCode = EXIT_OK;
  for (const url of options.urls) {
    const parsed = parseHttpUrl(url);
    if (parsed === null) {
      // Report it and go on with the other URLs; the exit code says something was wrong.
      await write(io.stderr, `politely: invalid URL '${url}': not an absolute http(s) URL\n`);
      exitCode = EXIT_USAGE;
      continue;
    }
    const explanation = (await loadRobots(parsed)).explain(url, options.userAgent);
    const output = options.json
      ? `${JSON.stringify(explanationToJson(url, explanation))}\n`
      : `${formatExplanation(url, explanation)}\n`;
    await write(io.stdout, output);
  }
  return exitCode;
}

/** The robots.txt source: the --robots file for now; the robots gate will fetch live ones. */
async function selectRobotsSource(options: ExplainOptions): Promise<LoadRobots> {
  if (options.robotsFile === undefined) {
    throw new CliError('--robots FILE is required (live fetching comes with the robots gate)');
  }
  return createFileRobotsSource(options.robotsFile);
}

function parseHttpUrl(url: string): URL | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : null;
  } catch {
    return null;
  }
}
