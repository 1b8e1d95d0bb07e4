// A WARC output of `outputs` (`{ path: 'crawl.warc.gz', maxFileBytes?, cdx?, overwrite? }`),
// validated once by createCrawler (the `outputs` option itself: dataset/output-options.ts).

import { describeValue, type OptionChecks } from '@politely/core/internal';
import { warcFileNames } from './warc-files.js';

export interface ResolvedWarcOutput {
  readonly path: string;
  readonly format: 'warc';
  readonly maxFileBytes: number;
  /** The CDXJ index's path, if one is written. */
  readonly cdx: string | undefined;
  readonly overwrite: boolean;
}

/** What a WARC output is given (OutputOptions, as far as a WARC archive reads it). */
export interface WarcOutputInput {
  readonly path: string;
  readonly fields?: readonly string[];
  readonly maxFileBytes?: number;
  readonly cdx?: boolean | string;
  readonly overwrite?: boolean;
}

const DEFAULT_MAX_WARC_FILE_BYTES = 1024 ** 3;
/** Below this a file could not hold a warcinfo and one exchange of any size. */
const MIN_WARC_FILE_BYTES = 64 * 1024;

export function resolveWarcOutput(
  output: WarcOutputInput,
  name: string,
  label: string,
  check: OptionChecks,
): ResolvedWarcOutput {
  if (output.fields !== undefined)
    check.fail(`${label}: fields are for CSV (the columns); a WARC archive holds exchanges, not records`);
  const lower = output.path.toLowerCase();
  if (!lower.endsWith('.warc') && !lower.endsWith('.warc.gz'))
    check.fail(`${label}: a WARC archive's path ends in .warc or .warc.gz (compressed record by record)`);
  const maxFileBytes = output.maxFileBytes === undefined ? DEFAULT_MAX_WARC_FILE_BYTES : output.maxFileBytes;
  if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes < MIN_WARC_FILE_BYTES)
    check.fail(
      `${label}: maxFileBytes must be a whole number of bytes, at least ${MIN_WARC_FILE_BYTES}, got ${describeValue(maxFileBytes)}`,
    );
  const { cdx } = output;
  if (cdx !== undefined && typeof cdx !== 'boolean' && (typeof cdx !== 'string' || cdx.trim() === ''))
    check.fail(`${label}: cdx must be true, false or a file name, got ${describeValue(cdx)}`);
  const { stem } = warcFileNames(output.path);
  return {
    path: output.path,
    format: 'warc',
    maxFileBytes,
    cdx: cdx === true ? `${stem}.cdxj` : typeof cdx === 'string' ? cdx : undefined,
    overwrite: check.flag(`${name}.overwrite`, output.overwrite, false),
  };
}
