// `politely outputs merge --out FILE INPUT...`: the `--out` files of a crawl's workers (each
// worker writes files of its own) as one file, each page's record once: a page a killed worker
// had written, and another worker fetched again, is in two of them (the crawler's mergeOutputs).

import { parseArgs } from 'node:util';
import { PolitelyError } from '@politely/core';
import { mergeOutputs } from '@politely/crawler';
import { CliError } from '../cli-error.js';
import { EXIT_IO, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { quoteInput, toSafeJson } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { OUTPUTS_USAGE } from '../usage.js';

const OPTIONS = {
  out: { type: 'string' },
  overwrite: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runOutputs(args: readonly string[], io: Io): Promise<ExitCode> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined) throw new CliError('outputs: missing command (merge)', { usage: OUTPUTS_USAGE });
  if (subcommand === '--help' || subcommand === '-h' || subcommand === 'help') {
    await write(io.stdout, OUTPUTS_USAGE);
    return EXIT_OK;
  }
  if (subcommand !== 'merge')
    throw new CliError(`outputs: unknown command ${quoteInput(subcommand)}`, { usage: OUTPUTS_USAGE });
  const { values, positionals } = parseOptions(
    rest,
    { command: 'outputs merge', usage: OUTPUTS_USAGE, options: OPTIONS, allowPositionals: true },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, OUTPUTS_USAGE);
    return EXIT_OK;
  }
  if (values.out === undefined) throw new CliError('outputs merge: --out FILE is required', { usage: OUTPUTS_USAGE });
  if (positionals.length === 0)
    throw new CliError('outputs merge: give the files to merge (each with its .ledger)', { usage: OUTPUTS_USAGE });
  try {
    const result = await mergeOutputs({
      inputs: positionals,
      output: values.out,
      overwrite: values.overwrite === true,
    });
    await write(
      io.stdout,
      values.json === true
        ? `${toSafeJson(result)}\n`
        : `wrote ${result.records} records of ${result.pages} pages to ${quoteInput(result.output)}; ` +
            `left out ${result.duplicateRecords} records of ${result.duplicatePages} pages another file held, ` +
            `and ${result.uncommittedBytes} bytes past the last commits\n`,
    );
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof PolitelyError)) throw error;
    throw new CliError(`outputs merge: ${error.message}`, error.code === 'ERR_OUTPUT' ? { exitCode: EXIT_IO } : {});
  }
}
