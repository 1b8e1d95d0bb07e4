// A record as text: a JSON line, or a CSV row (RFC 4180). Pure.
//
// A record is a plain JSON-serialisable object (`{ title, price, tags }`): JSON lines hold it as
// `JSON.stringify` does. A CSV row holds one field per column, in the columns' order: strings as
// they are, numbers and booleans as JSON writes them, null, undefined and absent keys as an empty
// field, and nested values (objects, arrays) as their JSON text. A field is quoted when it holds a
// comma, a quote, a line break or leading or trailing space, with quotes doubled.

import { PolitelyError } from '@politely/core';

/** A record pushed to a dataset: a plain, JSON-serialisable object. */
export type DatasetRecord = object;

/**
 * The record's JSON text (no line break). Throws ERR_INVALID_INPUT when it is not a plain object
 * or cannot be serialised (a cycle, a BigInt).
 */
export function recordJson(record: unknown): string {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new PolitelyError('ERR_INVALID_INPUT', `push(): a record must be a plain object, got ${describe(record)}`);
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(record);
  } catch (error) {
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      `push(): the record is not JSON-serialisable (${(error as Error).message})`,
      { cause: error },
    );
  }
  if (json === undefined || !json.startsWith('{'))
    throw new PolitelyError(
      'ERR_INVALID_INPUT',
      `push(): the record is not a JSON object (its toJSON() gave ${json ?? 'undefined'})`,
    );
  return json;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array (push an array to push many records, each an object)';
  return typeof value;
}

/** The columns of a CSV output whose first record is `record`: its own keys, in order. */
export function columnsOf(record: object): string[] {
  const source =
    typeof (record as { toJSON?: unknown }).toJSON === 'function'
      ? ((record as { toJSON(): unknown }).toJSON() as object)
      : record;
  return Object.keys(source).filter((key) => {
    const value = (source as Record<string, unknown>)[key];
    return typeof value !== 'function' && typeof value !== 'symbol';
  });
}

/** One CSV row (ending in CRLF) of `record` under `columns`. */
export function csvRecordRow(record: object, columns: readonly string[]): string {
  const source = (
    typeof (record as { toJSON?: unknown }).toJSON === 'function' ? (record as { toJSON(): unknown }).toJSON() : record
  ) as Record<string, unknown>;
  let row = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) row += ',';
    row += csvField(csvValue(Object.hasOwn(source, columns[i]!) ? source[columns[i]!] : undefined));
  }
  return `${row}\r\n`;
}

/** A value as the text of a CSV field ('' for null and undefined). */
export function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : '';
    case 'boolean':
      return String(value);
    case 'object': {
      const json = JSON.stringify(value);
      if (json === undefined) return '';
      // A value whose JSON is a string (a Date) is that string, not its quoted JSON.
      return json.startsWith('"') ? (JSON.parse(json) as string) : json;
    }
    default:
      return '';
  }
}

/** A CSV field: quoted when it must be, quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV header row (ending in CRLF). */
export function csvHeader(columns: readonly string[]): string {
  return `${columns.map(csvField).join(',')}\r\n`;
}

/** The fields of one CSV record (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes). */
export function parseCsvRecord(record: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < record.length; i++) {
    const char = record[i];
    if (quoted) {
      if (char === '"' && record[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}
