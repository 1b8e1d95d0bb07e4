// Where a crawl's log lines go, and what they look like. Text (the default) is for people: log
// lines on stdout, notices (`politely: …`) on stderr. `--log json` is for machines: every line,
// notices, warnings and errors included, one JSON object with `level`, `time` and `event`,
// written by pino (fast, well kept, and the logger the crawler's `logger` option is shaped after)
// to stdout or `--log-file`.

import { createWriteStream, type WriteStream } from 'node:fs';
import { maskSecrets } from '@politely/core';
import type { CrawlLogger, LogFields } from '@politely/crawler';
import type { Logger } from 'pino';
import { escapeControls } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { outputError } from './output-error.js';

export type NoticeLevel = 'info' | 'warn' | 'error';

export interface CliLog {
  /** The JSON logger (`--log json`), for the crawler's `logger` option; undefined for text. */
  readonly logger: (CrawlLogger & Logger) | undefined;
  /** Where log lines go: stdout, or the `--log-file`. */
  readonly stream: NodeJS.WritableStream;
  /**
   * A line about the run, not about one URL (the store, the metrics server, a stop signal, a
   * failure). Text: `politely: MESSAGE` on stderr, as it is (the caller escapes what came from
   * input; a message may have lines of its own). JSON: an entry `{ level, time, event, …fields, msg }`.
   * The message is masked (maskSecrets): a URL's password or a credential header never shows.
   */
  notice(level: NoticeLevel, event: string, message: string, fields?: LogFields): Promise<void> | undefined;
  /** Flushes and closes the `--log-file`. */
  close(): Promise<void>;
}

/** The log of one crawl: JSON through pino when `json`, else text; to `file` (appended to) or stdout. */
export async function createCliLog(io: Io, json: boolean, file: string | undefined): Promise<CliLog> {
  const fileStream = file === undefined ? undefined : openLogFile(file, io.stderr);
  const stream = fileStream ?? io.stdout;
  const logger = json ? await jsonLogger(stream) : undefined;
  return {
    logger,
    stream,
    notice(level, event, text, fields = {}) {
      const message = maskSecrets(text);
      if (logger === undefined) return write(io.stderr, `politely: ${message}\n`);
      logger[level]({ event, ...fields }, message);
      return undefined;
    },
    close: async () => {
      if (fileStream === undefined) return;
      await new Promise<void>((resolve) => fileStream.end(() => resolve()));
    },
  };
}

async function jsonLogger(stream: NodeJS.WritableStream): Promise<CrawlLogger & Logger> {
  // Loaded only for JSON: text logs start no faster than they need to.
  const { pino } = await import('pino');
  return pino(
    {
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    // JSON escapes C0 controls but not C1 or bidi ones: a URL from the web must not act on a
    // terminal that shows the log.
    { write: (line: string) => void write(stream, escapeControls(line, { keepNewlines: true })) },
  );
}

function openLogFile(path: string, stderr: NodeJS.WritableStream): WriteStream {
  const stream = createWriteStream(path, { flags: 'a' });
  // A log that cannot be written must not end the crawl: it says so once, on stderr.
  stream.once('error', (error) => {
    void write(stderr, `politely: ${escapeControls(outputError(path, error).message)}\n`);
  });
  return stream;
}
