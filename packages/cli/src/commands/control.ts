// `politely control pause|resume|stop --store redis://… --crawl-id NAME`: a command to every
// worker of a running Redis crawl, through the store (see crawl/crawl-control.ts).

import { parseArgs } from 'node:util';
import { maskUrl } from '@politely/core';
import { CliError } from '../cli-error.js';
import { CONTROL_COMMANDS, CONTROL_KEY, CONTROL_POLL_MS, type ControlCommand } from '../crawl/crawl-control.js';
import { parseStore } from '../crawl/crawl-options.js';
import { openStore } from '../crawl/store-option.js';
import { EXIT_OK, type ExitCode } from '../exit-codes.js';
import { crawlIdOption } from '../input/crawl-id.js';
import { quoteInput } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { CONTROL_USAGE } from '../usage.js';

const OPTIONS = {
  store: { type: 'string' },
  'crawl-id': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const DONE: Readonly<Record<ControlCommand, string>> = {
  pause: 'paused: its workers claim nothing new (requests in flight finish)',
  resume: 'resumed',
  stop: 'stopping: its workers stop as on SIGTERM (requests in flight get their grace period)',
};

export async function runControl(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values, positionals } = parseOptions(
    args,
    { command: 'control', usage: CONTROL_USAGE, options: OPTIONS, allowPositionals: true },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, CONTROL_USAGE);
    return EXIT_OK;
  }
  const [command, ...extra] = positionals;
  if (command === undefined || !(CONTROL_COMMANDS as readonly string[]).includes(command) || extra.length > 0)
    throw new CliError(
      `control: expected one command, pause, resume or stop, got ${command === undefined ? 'none' : quoteInput(positionals.join(' '))}`,
      { usage: CONTROL_USAGE },
    );
  const store = parseStore(values.store);
  if (store.kind !== 'redis')
    throw new CliError(
      `control: give the crawl's --store redis://HOST:PORT/DB and --crawl-id NAME (a SQLite crawl has one process: signal it), got --store ${values.store === undefined ? 'none' : quoteInput(maskUrl(values.store))}`,
    );
  const crawlId = crawlIdOption('control', values['crawl-id']);
  const opened = await openStore(store, {
    minDelayMs: 0,
    perHostConcurrency: 1,
    crawlId,
    say: (line) => void write(io.stderr, line),
  });
  try {
    await opened.store!.saveMetadata!(CONTROL_KEY, { command, at: Date.now() });
  } finally {
    await opened.close();
  }
  await write(
    io.stdout,
    `crawl ${quoteInput(crawlId)} ${DONE[command as ControlCommand]}; every worker applies it within ${CONTROL_POLL_MS} ms\n`,
  );
  return EXIT_OK;
}
