// The `outputs` option: where pushed records are written, validated once by createCrawler.

import { resolve } from 'node:path';
import type { OptionChecks } from '@politely/core/internal';

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
   * (nested values as JSON text).
   * @default 'csv' when `path` ends in `.csv`, else 'jsonl'
   */
  readonly format?: 'jsonl' | 'csv';
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
}

export interface ResolvedOutput {
  readonly path: string;
  readonly format: 'jsonl' | 'csv';
  readonly fields: readonly string[] | undefined;
  readonly overwrite: boolean;
}

export function resolveOutputs(outputs: readonly OutputOptions[] | undefined, check: OptionChecks): readonly ResolvedOutput[] {
  if (outputs === undefined) return [];
  if (!Array.isArray(outputs)) check.fail(`outputs must be an array of { path, format }, got ${typeof outputs}`);
  const seen = new Map<string, number>();
  return outputs.map((output: OutputOptions, index) => {
    const name = `outputs[${index}]`;
    if (typeof output !== 'object' || output === null) check.fail(`${name} must be an object { path, format }, got ${String(output)}`);
    const { path } = output;
    if (typeof path !== 'string' || path.trim() === '') check.fail(`${name}.path must be a file name, got ${JSON.stringify(path) ?? String(path)}`);
    const label = `${name} (${JSON.stringify(path)})`;
    const format = output.format ?? (path.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
    if (format !== 'jsonl' && format !== 'csv') check.fail(`${label}: format must be 'jsonl' or 'csv', got ${JSON.stringify(format) ?? String(format)}`);
    const fields = output.fields;
    if (fields !== undefined) {
      if (format !== 'csv') check.fail(`${label}: fields are for CSV (the columns); a JSON lines output writes each record whole`);
      if (!Array.isArray(fields) || fields.length === 0) check.fail(`${label}: fields must be a non-empty array of column names`);
      const names = new Set<string>();
      for (const field of fields) {
        if (typeof field !== 'string' || field === '') check.fail(`${label}: fields must be non-empty strings, got ${JSON.stringify(field) ?? String(field)}`);
        if (names.has(field)) check.fail(`${label}: fields name the column ${JSON.stringify(field)} twice`);
        names.add(field);
      }
    }
    const overwrite = check.flag(`${name}.overwrite`, output.overwrite, false);
    const absolute = resolve(path);
    const other = seen.get(absolute);
    if (other !== undefined) check.fail(`${label}: the same file as outputs[${other}]; list each file once`);
    seen.set(absolute, index);
    return { path, format, fields: fields === undefined ? undefined : [...fields], overwrite };
  });
}
