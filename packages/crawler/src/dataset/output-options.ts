// The `outputs` option: where pushed records are written, and where the crawl's WARC archive
// goes, validated once by createCrawler.

import { resolve } from 'node:path';
import { describeValue, type OptionChecks } from '@politely/core/internal';
import { type ResolvedWarcOutput, resolveWarcOutput } from '../archive/warc-options.js';

/** One file the crawl's records are written to (see `CrawlerOptions.outputs`). */
export interface OutputOptions {
  /**
   * The file. Created if absent; a resumed crawl appends to it. Beside it the crawl keeps
   * `<path>.ledger`, the list of pages whose records the file holds (how a resumed crawl writes
   * none twice); keep the two together. Required.
   */
  readonly path: string;
  /**
   * `jsonl`: one JSON object per line. `csv`: RFC 4180, a header row then one row per record
   * (nested values as JSON text). `warc`: not the pushed records but every HTTP exchange of the
   * crawl, as a WARC/1.1 archive (ISO 28500): robots.txt, pages, redirects, sitemaps, error
   * statuses, a rendered page's sub-requests; a response record with the head and the payload as
   * received and a request record with the request as sent, or a revisit record where a recrawl
   * found the payload unchanged (or got a 304). Written as numbered files
   * (`crawl.warc.gz` → `crawl-00000.warc.gz`, `crawl-00001.warc.gz`, … each up to
   * `maxFileBytes`, each beginning with a warcinfo record); `.warc.gz` compresses record by
   * record. An exchange's records are in the file before its response is used, so before its URL
   * counts as done; `<path>.ledger` lets a resumed crawl cut what a kill left half-written. One
   * WARC output per crawl.
   * @default 'warc' when `path` ends in `.warc` or `.warc.gz`, 'csv' when it ends in `.csv`, else 'jsonl'
   */
  readonly format?: 'jsonl' | 'csv' | 'warc';
  /**
   * WARC only: a file's size limit in bytes; the next records begin a new numbered file.
   * @default 1073741824 (1 GiB)
   */
  readonly maxFileBytes?: number;
  /**
   * WARC only: also write a CDXJ index of the archive's responses and revisits (the format pywb
   * reads), sorted when the crawl ends: `true` for `<stem>.cdxj` beside the files (`crawl.cdxj`
   * for `crawl.warc.gz`), or its path.
   * @default false
   */
  readonly cdx?: boolean | string;
  /**
   * CSV only: the columns, in order. A record's other keys are not written; a key it lacks is an
   * empty field.
   * @default the keys of the first record pushed
   */
  readonly fields?: readonly string[];
  /**
   * A crawl that is not resuming (its store held nothing) refuses a file that already holds
   * records, rather than mix two crawls in it: `true` empties it instead. A resumed crawl always
   * appends.
   * @default false
   */
  readonly overwrite?: boolean;
  /**
   * JSON lines and CSV: each record a page pushes (`page.push`) is written here with a `content`
   * field added: the page's main content as `'markdown'` or `'text'` (see `page.content()`) with
   * its metadata and rights (`title`, `markdown` or `text`, `authors`, `published`, `modified`,
   * `lang`, `canonicalUrl`, `description`, `siteName`, `usage`, `usageSources`, `robots`); null
   * for a page that is not HTML. A record's own `content` key is kept. Records pushed with
   * `crawler.push` outside a handler, and those written to other outputs, are written as pushed.
   * @default undefined (records are written as pushed)
   */
  readonly content?: 'markdown' | 'text';
}

export interface ResolvedOutput {
  readonly path: string;
  readonly format: 'jsonl' | 'csv';
  readonly fields: readonly string[] | undefined;
  readonly overwrite: boolean;
  /** The page content each page's records carry here; undefined: none. */
  readonly content: 'markdown' | 'text' | undefined;
}

export interface ResolvedOutputs {
  /** Where pushed records go. */
  readonly records: readonly ResolvedOutput[];
  /** Where the crawl's exchanges are archived. */
  readonly warc: ResolvedWarcOutput | undefined;
}

function defaultFormat(path: string): 'jsonl' | 'csv' | 'warc' {
  const lower = path.toLowerCase();
  if (lower.endsWith('.warc') || lower.endsWith('.warc.gz')) return 'warc';
  return lower.endsWith('.csv') ? 'csv' : 'jsonl';
}

/** Every key an `outputs` entry knows: a key missing here, or one too many, is a type error. */
export const OUTPUT_KEYS: Record<keyof OutputOptions, true> = {
  path: true,
  format: true,
  maxFileBytes: true,
  cdx: true,
  fields: true,
  overwrite: true,
  content: true,
};

export function resolveOutputs(outputs: readonly OutputOptions[] | undefined, check: OptionChecks): ResolvedOutputs {
  if (outputs === undefined) return { records: [], warc: undefined };
  if (!Array.isArray(outputs)) check.fail(`outputs must be an array of { path, format }, got ${typeof outputs}`);
  const seen = new Map<string, number>();
  const records: ResolvedOutput[] = [];
  let warc: ResolvedWarcOutput | undefined;
  outputs.forEach((output: OutputOptions, index) => {
    const name = `outputs[${index}]`;
    if (typeof output !== 'object' || output === null)
      check.fail(`${name} must be an object { path, format }, got ${describeValue(output)}`);
    check.knownKeys(output, OUTPUT_KEYS, `${name}.`);
    const { path } = output;
    if (typeof path !== 'string' || path.trim() === '')
      check.fail(`${name}.path must be a file name, got ${describeValue(path)}`);
    const label = `${name} (${JSON.stringify(path)})`;
    const format = output.format === undefined ? defaultFormat(path) : output.format;
    if (format !== 'jsonl' && format !== 'csv' && format !== 'warc')
      check.fail(`${label}: format must be 'jsonl', 'csv' or 'warc', got ${describeValue(format)}`);
    const absolute = resolve(path);
    const other = seen.get(absolute);
    if (other !== undefined) check.fail(`${label}: the same file as outputs[${other}]; list each file once`);
    seen.set(absolute, index);
    if (format === 'warc') {
      if (warc !== undefined)
        check.fail(`${label}: a crawl has one WARC archive; outputs[${seen.get(resolve(warc.path))}] is one already`);
      if (output.content !== undefined)
        check.fail(`${label}: content is for records (JSON lines or CSV); a WARC archive holds exchanges`);
      warc = resolveWarcOutput(output, name, label, check);
      return;
    }
    if (output.maxFileBytes !== undefined || output.cdx !== undefined)
      check.fail(`${label}: maxFileBytes and cdx are for a WARC archive (format 'warc')`);
    const fields = output.fields;
    if (fields !== undefined) {
      if (format !== 'csv')
        check.fail(`${label}: fields are for CSV (the columns); a JSON lines output writes each record whole`);
      if (!Array.isArray(fields) || fields.length === 0)
        check.fail(`${label}: fields must be a non-empty array of column names`);
      const names = new Set<string>();
      for (const field of fields) {
        if (typeof field !== 'string' || field === '')
          check.fail(`${label}: fields must be non-empty strings, got ${describeValue(field)}`);
        if (names.has(field)) check.fail(`${label}: fields name the column ${JSON.stringify(field)} twice`);
        names.add(field);
      }
    }
    const overwrite = check.flag(`${name}.overwrite`, output.overwrite, false);
    const content = output.content;
    if (content !== undefined && content !== 'markdown' && content !== 'text')
      check.fail(`${label}: content must be 'markdown' or 'text', got ${describeValue(content)}`);
    records.push({ path, format, fields: fields === undefined ? undefined : [...fields], overwrite, content });
  });
  return { records, warc };
}
