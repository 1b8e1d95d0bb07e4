// The ledger of an output file: `<path>.ledger`, a JSON line per commit, appended after the
// records it covers are in the file and before the page they came from counts as done.
//
//   {"politely":"dataset-ledger","version":1,"format":"jsonl"}    the first line
//   {"end":5120,"records":3,"page":"https://example.com/p/1"}     a page's records, committed
//   {"end":6144,"records":8}                                       records pushed outside a handler
//
// `end` is the output's length once the commit's records are in it. A page's records are
// written to the file together (it holds the file's tail from its first push until it commits:
// dataset.ts), so whatever lies past the last `end` belongs to no commit: records of a page that
// was not done when the process died, or half a record. A resumed crawl cuts it, and pages whose
// URL is in the ledger (committed, but killed before the store marked them done) are fetched
// again but their records not written again.
//
// Why a ledger beside the file, and not a marker in it: the records are the user's, in the
// format the user chose (a CSV row has no room for politely's bookkeeping); and why not the
// store: the frontier stores (memory, SQLite, Redis) would each need a write that lands with the
// file's, which no store can promise across a file system.

import { parseJsonObjectLine, scanLines } from '../files/line-scan.js';

export const LEDGER_SUFFIX = '.ledger';

export interface LedgerHeader {
  readonly politely: 'dataset-ledger';
  readonly version: 1;
  readonly format: 'jsonl' | 'csv';
}

export function ledgerHeaderLine(format: 'jsonl' | 'csv'): string {
  return `${JSON.stringify({ politely: 'dataset-ledger', version: 1, format } satisfies LedgerHeader)}\n`;
}

export function ledgerEntryLine(end: number, records: number, page: string | undefined): string {
  return `${JSON.stringify(page === undefined ? { end, records } : { end, records, page })}\n`;
}

export interface LedgerRead {
  readonly format: 'jsonl' | 'csv';
  /** The output's length at the last commit (0 when there is none). */
  readonly end: number;
  /** Records committed in all. */
  readonly records: number;
  /** Pages whose records are committed. */
  readonly pages: Set<string>;
  /** Where the ledger's last whole line ends (past it: half a line, cut). */
  readonly wholeBytes: number;
  readonly totalBytes: number;
}

/** One commit of a ledger: the records between the previous commit's `end` and this `end`. */
export interface LedgerCommit {
  readonly end: number;
  readonly records: number;
  /** The page whose records these are; undefined for records pushed outside a handler. */
  readonly page: string | undefined;
}

/**
 * Reads a ledger; undefined when it is not one (no header line, another version). `onCommit` is
 * called with each commit, in order, as it is read (it may be called before a later line proves
 * the ledger invalid).
 */
export async function readLedger(
  path: string,
  onCommit?: (commit: LedgerCommit) => void,
): Promise<LedgerRead | undefined> {
  let header: LedgerHeader | undefined;
  let valid = true;
  let end = 0;
  let records = 0;
  const pages = new Set<string>();
  const scanned = await scanLines(
    path,
    false,
    (line) => {
      const value = parseJsonObjectLine(line);
      if (header === undefined) {
        if (
          value?.politely === 'dataset-ledger' &&
          value.version === 1 &&
          (value.format === 'jsonl' || value.format === 'csv')
        )
          header = value as unknown as LedgerHeader;
        else valid = false;
        return;
      }
      if (typeof value?.end !== 'number' || typeof value.records !== 'number' || value.end < end) {
        valid = false;
        return;
      }
      end = value.end;
      records += value.records;
      const page = typeof value.page === 'string' ? value.page : undefined;
      if (page !== undefined) pages.add(page);
      onCommit?.({ end, records: value.records, page });
    },
    () => !valid,
  );
  if (!valid || header === undefined) return undefined;
  return { format: header.format, end, records, pages, wholeBytes: scanned.wholeBytes, totalBytes: scanned.totalBytes };
}
