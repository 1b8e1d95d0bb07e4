// `politely robots batch`: JSON lines in, one verdict per line out, in order, streamed.

import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { parseRobotsTxt, type RobotsTxt } from '@politely/core';
import { LruMap } from '@politely/core/internal';
import { EXIT_FAILURE, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { escapeControls, toSafeJson } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { oneLine, parseOptions } from '../parse-options.js';
import { ROBOTS_USAGE } from '../usage.js';
import { type BatchRequest, readBatchLine } from './batch-line.js';

/** Parsed robots.txt bodies kept: batches tend to check many URLs against few files. */
const CACHE_ENTRIES = 1024;
/** Total size of the bodies kept (as keys), in characters: about 64 MiB of text. */
const CACHE_KEY_CHARS = 64 * 1024 * 1024;
const MAX_ID_CHARS = 80;

const OPTIONS = { help: { type: 'boolean', short: 'h' } } as const;

type Outcome = { readonly allowed: boolean } | { readonly error: string };

export async function runRobotsBatch(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values } = parseOptions(args, { command: 'robots batch', usage: ROBOTS_USAGE, options: OPTIONS }, (checked) =>
    parseArgs({ args: checked, options: OPTIONS, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, ROBOTS_USAGE);
    return EXIT_OK;
  }
  const decide = createDecider();
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  let lineNumber = 0;
  let failures = 0;
  for await (const text of lines) {
    lineNumber++;
    if (text.trim() === '') continue;
    const line = readBatchLine(text);
    const id = line.ok ? line.request.id : line.id;
    const outcome: Outcome = line.ok ? decide(line.request) : { error: line.error };
    if ('allowed' in outcome) {
      await write(io.stdout, `${toSafeJson({ id, allowed: outcome.allowed })}\n`);
      continue;
    }
    failures++;
    const error = oneLine(outcome.error);
    await write(io.stdout, `${toSafeJson({ id, line: lineNumber, error })}\n`);
    // The message may hold input (a bad value, a JSON parser's excerpt): escaped for the terminal.
    await write(io.stderr, `politely: robots batch: line ${lineNumber}${describeId(id)}: ${escapeControls(error)}\n`);
  }
  return failures > 0 ? EXIT_FAILURE : EXIT_OK;
}

/** Decides requests, parsing each distinct robots.txt body once. */
function createDecider(): (request: BatchRequest) => Outcome {
  // Keyed by robots.txt body, which may be 500 KiB: bounded by the characters of the keys too.
  const cache = new LruMap<string, RobotsTxt>({
    maxSize: CACHE_ENTRIES,
    maxWeight: CACHE_KEY_CHARS,
    weigh: (body) => body.length,
  });
  const robotsFor = (request: BatchRequest): RobotsTxt => {
    // Text and base64 bodies never share a key: the prefix tells them apart.
    const key = request.robots !== undefined ? `t${request.robots}` : `b${request.robotsB64 ?? ''}`;
    let robots = cache.get(key);
    if (robots === undefined) {
      robots = parseRobotsTxt(request.robots ?? Buffer.from(request.robotsB64 ?? '', 'base64'));
      cache.set(key, robots);
    }
    return robots;
  };
  return (request) => {
    try {
      return { allowed: robotsFor(request).isAllowed(request.url, request.ua) };
    } catch (error) {
      // The engine is meant never to throw on content; if it does, this line fails, not the batch.
      return { error: `cannot decide: ${error instanceof Error ? error.message : String(error)}` };
    }
  };
}

function describeId(id: unknown): string {
  if (id === null || id === undefined) return '';
  const text = toSafeJson(id);
  return ` (id ${text.length > MAX_ID_CHARS ? `${text.slice(0, MAX_ID_CHARS)}…` : text})`;
}
