// The `politely` command: picks the subcommand, turns expected failures into a one-line
// message and an exit code, and never calls process.exit (the bin sets process.exitCode).

import { readFileSync } from 'node:fs';
import { maskSecrets } from '@politely/core';
import { CliError } from './cli-error.js';
import { runRobotsBatch } from './commands/robots-batch.js';
import { runRobotsExplain } from './commands/robots-explain.js';
import { runRobotsLint } from './commands/robots-lint.js';
import { EXIT_INTERNAL, EXIT_OK, type ExitCode } from './exit-codes.js';
import { escapeControls, quoteInput } from './input/quote-input.js';
import { type Io, processIo, write } from './io.js';
import { ROBOTS_USAGE, USAGE } from './usage.js';

type Command = (args: readonly string[], io: Io) => Promise<ExitCode>;

const ROBOTS_COMMANDS: Readonly<Record<string, Command>> = {
  batch: runRobotsBatch,
  explain: runRobotsExplain,
  lint: runRobotsLint,
};

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

/**
 * Runs the `politely` command line.
 * @param args The arguments after the program name (`process.argv.slice(2)`).
 * @param io The streams to use; the process's own by default.
 * @returns The exit code: 0 done, 1 done with failures, 2 usage or input error, 70 internal error,
 *   130 a crawl stopped by Ctrl-C.
 */
export async function main(args: readonly string[], io: Io = processIo()): Promise<ExitCode> {
  try {
    return await dispatch(args, io);
  } catch (error) {
    // Messages quote input with quoteInput; escaping the whole line again is the net for any
    // that does not: no control character from the input reaches the terminal. Secrets are
    // masked where a value is quoted (maskUrl); masking the whole line is the net for any not.
    if (error instanceof CliError) {
      await write(
        io.stderr,
        `politely: ${escapeControls(maskSecrets(error.message))}\n${error.usage === undefined ? '' : `\n${error.usage}`}`,
      );
      return error.exitCode;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    await write(
      io.stderr,
      `politely: internal error (please report it): ${escapeControls(maskSecrets(detail), { keepNewlines: true })}\n`,
    );
    return EXIT_INTERNAL;
  }
}

async function dispatch(args: readonly string[], io: Io): Promise<ExitCode> {
  const [command, ...rest] = args;
  if (command === undefined) throw new CliError('missing command', { usage: USAGE });
  if (HELP_FLAGS.has(command)) {
    await write(io.stdout, USAGE);
    return EXIT_OK;
  }
  if (command === '--version' || command === '-v') {
    await write(io.stdout, `${readVersion()}\n`);
    return EXIT_OK;
  }
  if (command === 'robots') return dispatchRobots(rest, io);
  // Loaded on demand: the crawler, the stores and the demo webs stay off the robots commands' start-up.
  if (command === 'crawl') return (await import('./commands/crawl.js')).runCrawl(rest, io);
  if (command === 'demo') return (await import('./commands/demo.js')).runDemo(rest, io);
  // Loaded on demand: the crawler and the sitemap parser stay off the robots commands' start-up.
  if (command === 'sitemap') return (await import('./commands/sitemap-list.js')).runSitemap(rest, io);
  if (command === 'control') return (await import('./commands/control.js')).runControl(rest, io);
  if (command === 'seeds') return (await import('./commands/seeds.js')).runSeeds(rest, io);
  if (command === 'keys') return (await import('./commands/keys.js')).runKeys(rest, io);
  if (command === 'sign') return (await import('./commands/sign-explain.js')).runSign(rest, io);
  if (command === 'outputs') return (await import('./commands/outputs-merge.js')).runOutputs(rest, io);
  throw new CliError(`unknown command ${quoteInput(command)}`, { usage: USAGE });
}

async function dispatchRobots(args: readonly string[], io: Io): Promise<ExitCode> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined)
    throw new CliError('robots: missing command (batch, explain or lint)', { usage: ROBOTS_USAGE });
  if (HELP_FLAGS.has(subcommand)) {
    await write(io.stdout, ROBOTS_USAGE);
    return EXIT_OK;
  }
  const command = Object.hasOwn(ROBOTS_COMMANDS, subcommand) ? ROBOTS_COMMANDS[subcommand] : undefined;
  if (command === undefined)
    throw new CliError(`robots: unknown command ${quoteInput(subcommand)}`, { usage: ROBOTS_USAGE });
  return command(rest, io);
}

function readVersion(): string {
  const packageJson = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(packageJson) as { version: string }).version;
}
