// What a user's request carries besides its URL: a label (which route handles it), userData
// (plain JSON that travels with it through every store, a resume and a redirect) and its own
// headers. Checked where it enters the crawl (seeds, `crawler.enqueue`, `page.enqueue`), so that
// a store never holds what it could not give back unchanged, nor a header it must not send. PURE.

import { checkRequestHeaders, PolitelyError } from '@politely/core';

/** A JSON value as it survives `JSON.stringify` → `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The userData of a request: a plain JSON object. */
export type UserData = Readonly<Record<string, unknown>>;

/** The largest userData, as UTF-8 JSON text: it is stored with every queued URL. */
export const MAX_USER_DATA_BYTES = 64 * 1024;
/** The longest label. */
export const MAX_LABEL_LENGTH = 256;
/** Nesting past this is refused (JSON.parse in a store would take it; the handler rarely needs it). */
const MAX_DEPTH = 64;

/** What a request carries for the user. */
export interface RequestData {
  /** Which route (`handlers[label]`) handles the page. */
  readonly label?: string;
  /** Plain JSON carried with the request to its handler (≤ 64 KiB as JSON). */
  readonly userData?: UserData;
  /** Headers for this request only (checked by `checkRequestHeaders`; names lower-cased). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Checks the label, userData and headers of the request for `url`, as the crawler does for seeds,
 * `crawler.enqueue` and `page.enqueue` (a plugin that queues pages with a user's label and
 * userData checks them with it too): throws ERR_INVALID_INPUT naming the URL and what is wrong
 * (`code` lets seeds, checked with the options, use ERR_INVALID_OPTION).
 * Returns the data in the form stored: fields absent when not given.
 */
export function checkRequestData(
  url: string,
  data: RequestData,
  code: 'ERR_INVALID_INPUT' | 'ERR_INVALID_OPTION' = 'ERR_INVALID_INPUT',
): RequestData {
  const { label, userData, headers } = data;
  const fail = (message: string): never => {
    throw new PolitelyError(code, `request ${url}: ${message}`);
  };
  if (label !== undefined) {
    if (typeof label !== 'string' || label === '') fail(`label must be a non-empty string, got ${describe(label)}`);
    if (label.length > MAX_LABEL_LENGTH) fail(`label is ${label.length} characters, over ${MAX_LABEL_LENGTH}`);
  }
  if (userData !== undefined) {
    if (!isPlainObject(userData)) fail(`userData must be a plain object, got ${describe(userData)}`);
    const problem = jsonProblem(userData, 'userData', 0);
    if (problem !== undefined) fail(problem);
    const bytes = Buffer.byteLength(JSON.stringify(userData));
    if (bytes > MAX_USER_DATA_BYTES)
      fail(`userData is ${bytes} bytes as JSON, over the ${MAX_USER_DATA_BYTES}-byte cap`);
  }
  const checkedHeaders =
    headers === undefined ? undefined : checkRequestHeaders(headers, `request ${url}: headers`, code);
  return {
    ...(label === undefined ? {} : { label }),
    ...(userData === undefined ? {} : { userData }),
    ...(checkedHeaders === undefined || Object.keys(checkedHeaders).length === 0 ? {} : { headers: checkedHeaders }),
  };
}

/** Where `value` would not come back from JSON as it went in, or undefined. */
function jsonProblem(value: unknown, path: string, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return `${path} nests deeper than ${MAX_DEPTH} levels`;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : `${path} is ${value}, which JSON cannot hold`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = jsonProblem(value[i], `${path}[${i}]`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const problem = jsonProblem(item, `${path}.${key}`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return `${path} is ${describe(value)}, which is not JSON`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `a ${(value as object).constructor?.name ?? 'object'}`;
  if (typeof value === 'string') return JSON.stringify(value);
  return `${typeof value} ${String(value)}`;
}
