// Reading a file line by line, streaming (any size): what a resumed crawl reads of its outputs and
// ledgers, to find where the last whole line ends.

import { createReadStream } from 'node:fs';

const LF = 0x0a;
const QUOTE = 0x22;

export interface LinesScanned {
  /** Where the last whole line ends. */
  readonly wholeBytes: number;
  /** The bytes read. */
  readonly totalBytes: number;
}

/**
 * Calls `onLine` with each whole line of `path` (its line break included), streaming; with
 * `csvQuotes`, a line break inside quotes does not end a line. Stops early once `enough()`.
 */
export async function scanLines(
  path: string,
  csvQuotes: boolean,
  onLine: (line: string) => void,
  enough: () => boolean = () => false,
): Promise<LinesScanned> {
  let wholeBytes = 0;
  let totalBytes = 0;
  let inQuotes = false;
  let partial: Buffer[] = [];
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (csvQuotes && byte === QUOTE) inQuotes = !inQuotes;
        else if (byte === LF && !inQuotes) {
          partial.push(chunk.subarray(start, i + 1));
          const bytes = partial.length === 1 ? partial[0]! : Buffer.concat(partial);
          partial = [];
          start = i + 1;
          wholeBytes = totalBytes + start;
          onLine(bytes.toString('utf8'));
          if (enough()) return { wholeBytes, totalBytes: totalBytes + chunk.length };
        }
      }
      if (start < chunk.length) partial.push(chunk.subarray(start));
      totalBytes += chunk.length;
    }
  } finally {
    stream.destroy();
  }
  return { wholeBytes, totalBytes };
}

/** A line's JSON object; undefined for anything else (half a line, garbage). */
export function parseJsonObjectLine(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
