// `politely seeds add --store … --crawl-id NAME URL…`: seeds added to a crawl from another
// process while it runs (or before it resumes). Their sites join the crawl's scope seeds in the
// store, which every worker reads twice a second; then they are queued (see addSeeds).

import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { maskUrl } from '@politely/core';
import { addSeeds, POLITENESS_KEY_MODES } from '@politely/crawler';
import { CliError } from '../cli-error.js';
import { parseStore } from '../crawl/crawl-options.js';
import { openStore } from '../crawl/store-option.js';
import { EXIT_FAILURE, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { crawlIdOption } from '../input/crawl-id.js';
import { parseHttpUrl } from '../input/http-url.js';
import { escapeControls, quoteInput } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { SEEDS_USAGE } from '../usage.js';

const OPTIONS = {
  store: { type: 'string' },
  'crawl-id': { type: 'string' },
  file: { type: 'string' },
  'politeness-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A seed as given: where it came from, for a message about it. */
interface GivenSeed {
  readonly text: string;
  /** `argument 2`, `line 7`. */
  readonly where: string;
}

export async function runSeeds(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values, positionals } = parseOptions(
    args,
    { command: 'seeds', usage: SEEDS_USAGE, options: OPTIONS, allowPositionals: true },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, SEEDS_USAGE);
    return EXIT_OK;
  }
  const [command, ...urls] = positionals;
  if (command !== 'add')
    throw new CliError(`seeds: expected the command add, got ${command === undefined ? 'none' : quoteInput(command)}`, {
      usage: SEEDS_USAGE,
    });
  const store = parseStore(values.store);
  const crawlId = values['crawl-id'];
  if (store.kind === 'memory')
    throw new CliError(
      `seeds add: give the crawl's --store sqlite:FILE or --store redis://HOST:PORT/DB --crawl-id NAME (a memory crawl lives in its own process), got --store ${values.store === undefined ? 'none' : quoteInput(maskUrl(values.store))}`,
    );
  if (store.kind === 'redis') crawlIdOption('seeds add', crawlId);
  // A file name mistyped would otherwise become a new, empty crawl.
  if (store.kind === 'sqlite' && !existsSync(store.path))
    throw new CliError(`seeds add: --store sqlite:${quoteInput(store.path)}: no such crawl file`);
  const politenessKey = values['politeness-key'] ?? 'host';
  if (!(POLITENESS_KEY_MODES as readonly string[]).includes(politenessKey) || politenessKey === 'ip')
    throw new CliError(
      `seeds add: --politeness-key: expected host or domain (the crawl's; a crawl keyed by ip takes new seeds from its workers), got ${quoteInput(politenessKey)}`,
    );
  const given: GivenSeed[] = urls.map((text, i) => ({ text, where: `argument ${i + 1}` }));
  if (values.file !== undefined) given.push(...(await readSeedLines(values.file, io)));
  if (given.length === 0)
    throw new CliError('seeds add: give at least one seed URL, or --file FILE (- for stdin), one URL a line', {
      usage: SEEDS_USAGE,
    });

  // Each bad seed is named with where it was given; the others are added all the same.
  const seeds: string[] = [];
  let bad = 0;
  for (const seed of given) {
    const url = parseHttpUrl(seed.text);
    if (url === null) {
      bad++;
      await write(
        io.stderr,
        `politely: seeds add: ${seed.where}: invalid seed ${quoteInput(seed.text)}: not an absolute http(s) URL\n`,
      );
    } else seeds.push(url.href);
  }
  if (seeds.length > 0) await addToCrawl(store, crawlId, politenessKey as 'host' | 'domain', seeds, io);
  if (bad > 0) await write(io.stderr, `politely: seeds add: ${bad} seed${bad === 1 ? '' : 's'} not added (above)\n`);
  return bad > 0 ? EXIT_FAILURE : EXIT_OK;
}

async function addToCrawl(
  spec: ReturnType<typeof parseStore>,
  crawlId: string | undefined,
  politenessKey: 'host' | 'domain',
  seeds: readonly string[],
  io: Io,
): Promise<void> {
  const opened = await openStore(spec, {
    minDelayMs: 0,
    perHostConcurrency: 1,
    crawlId,
    // The crawl may own the SQLite file: this process adds URLs and takes no lease.
    shared: true,
    say: (line) => void write(io.stderr, line),
  });
  let result: Awaited<ReturnType<typeof addSeeds>>;
  try {
    result = await addSeeds({ store: opened.store!, seeds, politenessKey });
  } finally {
    await opened.close();
  }
  const known = seeds.length - result.added;
  const crawl = crawlId === undefined ? opened.label : `crawl ${quoteInput(crawlId)}`;
  await write(
    io.stdout,
    `${crawl}: ${result.added} seed${result.added === 1 ? '' : 's'} queued${known > 0 ? ` (${known} already known)` : ''}; its scope holds ${result.scope.length} site${result.scope.length === 1 ? '' : 's'}, and running workers follow the new ones' links\n`,
  );
}

/** The lines of `file` (`-`: stdin), blank lines and `#` comments left out, each with its line number. */
async function readSeedLines(file: string, io: Io): Promise<GivenSeed[]> {
  const input = file === '-' ? io.stdin : createReadStream(file);
  const seeds: GivenSeed[] = [];
  let lineNumber = 0;
  try {
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      lineNumber++;
      const text = line.trim();
      if (text !== '' && !text.startsWith('#'))
        seeds.push({ text, where: `${file === '-' ? 'stdin' : escapeControls(file)} line ${lineNumber}` });
    }
  } catch (error) {
    throw new CliError(`seeds add: --file ${quoteInput(file)}: ${(error as Error).message}`);
  }
  return seeds;
}
