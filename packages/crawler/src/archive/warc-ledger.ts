// The ledger of a WARC archive: `<path>.ledger`, a JSON line per commit, appended once the
// records it covers are in the WARC file (and their index lines in the CDXJ file).
//
//   {"politely":"warc-ledger","version":1}                                   the first line
//   {"file":0,"end":1873,"cdx":0,"records":1}                                            a file begun (its warcinfo)
//   {"file":0,"end":9120,"cdx":412,"records":2,"captures":[["https://a.test/","sha256:…","<urn:uuid:…>",1764000000000]]}
//
// `end` is the file's length with the commit's records in it, `cdx` the index's. Whatever lies
// past the last commit — half a record a SIGKILL cut short, or whole records whose URL had not
// been answered — belongs to no commit, and a resumed crawl cuts it before appending (files
// numbered past the last commit's are removed: they hold nothing committed). `captures` are the
// responses written whole, which a later identical payload or 304 of the same URL refers to.

import { parseJsonObjectLine, scanLines } from '../files/line-scan.js';
import type { ArchivedCapture } from './exchange-records.js';

export const WARC_LEDGER_SUFFIX = '.ledger';

export interface WarcCommit {
  /** The file's number. */
  readonly file: number;
  readonly end: number;
  /** The CDXJ index's length (0 without one). */
  readonly cdx: number;
  /** Records the commit adds. */
  readonly records: number;
  readonly captures?: readonly (readonly [url: string, payloadDigest: string, id: string, date: number])[];
}

export function warcLedgerHeaderLine(): string {
  return `${JSON.stringify({ politely: 'warc-ledger', version: 1 })}\n`;
}

export function warcCommitLine(commit: WarcCommit): string {
  return `${JSON.stringify(commit)}\n`;
}

export interface WarcLedgerRead {
  /** The last commit, undefined when the ledger holds none. */
  readonly last: WarcCommit | undefined;
  /** Records committed in all (two per exchange, one per warcinfo). */
  readonly records: number;
  /** Where the ledger's last whole line ends (past it: half a line, cut). */
  readonly wholeBytes: number;
  readonly totalBytes: number;
}

/**
 * Reads a ledger, calling `onCapture` for each capture in commit order (the newest last); undefined
 * when the file is not a WARC ledger (no header line, another version, a line out of order).
 */
export async function readWarcLedger(
  path: string,
  onCapture: (url: string, capture: ArchivedCapture) => void,
): Promise<WarcLedgerRead | undefined> {
  let header = false;
  let valid = true;
  let last: WarcCommit | undefined;
  let records = 0;
  const scanned = await scanLines(
    path,
    false,
    (line) => {
      const value = parseJsonObjectLine(line);
      if (!header) {
        if (value?.politely === 'warc-ledger' && value.version === 1) header = true;
        else valid = false;
        return;
      }
      const commit = asCommit(value);
      if (
        commit === undefined ||
        (last !== undefined &&
          (commit.file < last.file || (commit.file === last.file && commit.end < last.end) || commit.cdx < last.cdx))
      ) {
        valid = false;
        return;
      }
      records += commit.records;
      last = commit;
      for (const [url, payloadDigest, id, date] of commit.captures ?? []) onCapture(url, { id, date, payloadDigest });
    },
    () => !valid,
  );
  if (!valid || !header) return undefined;
  return { last, records, wholeBytes: scanned.wholeBytes, totalBytes: scanned.totalBytes };
}

function asCommit(value: Record<string, unknown> | undefined): WarcCommit | undefined {
  if (value === undefined || ![value.file, value.end, value.cdx, value.records].every(Number.isInteger))
    return undefined;
  if (value.captures !== undefined && !Array.isArray(value.captures)) return undefined;
  return value as unknown as WarcCommit;
}
