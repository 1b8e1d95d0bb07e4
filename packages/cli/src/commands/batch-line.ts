// One line of `politely robots batch`: JSON in, a checked request or a one-line reason out.

import { parseHttpUrl } from '../input/http-url.js';
import { quoteInput } from '../input/quote-input.js';

/** A line that reads as a check. */
export interface BatchRequest {
  /** Echoed as given, whatever its JSON type. */
  readonly id: unknown;
  /** The body as text (`robots`), or … */
  readonly robots?: string;
  /** … its exact bytes in base64 (`robots_b64`), already checked to be valid base64. */
  readonly robotsB64?: string;
  readonly ua: string;
  /** An absolute http(s) URL, as given. */
  readonly url: string;
}

export type BatchLine =
  | { readonly ok: true; readonly request: BatchRequest }
  | { readonly ok: false; readonly id: unknown; readonly error: string };

// Standard or URL-safe alphabet, padding optional; whitespace is removed first.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const ASCII_WHITESPACE = /[\t\n\f\r ]+/g;

/** Parses and checks one non-blank input line. */
export function readBatchLine(text: string): BatchLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, id: null, error: `invalid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, id: null, error: 'expected a JSON object {"id","robots","ua","url"}' };
  }
  const fields = value as Record<string, unknown>;
  const id = Object.hasOwn(fields, 'id') ? fields['id'] : null;
  const error = checkFields(fields);
  if (error !== null) return { ok: false, id, error };
  const request: BatchRequest = {
    id,
    ua: fields['ua'] as string,
    url: fields['url'] as string,
    ...(typeof fields['robots'] === 'string'
      ? { robots: fields['robots'] }
      : { robotsB64: (fields['robots_b64'] as string).replace(ASCII_WHITESPACE, '') }),
  };
  return { ok: true, request };
}

function checkFields(fields: Record<string, unknown>): string | null {
  if (!Object.hasOwn(fields, 'id')) return 'missing "id"';
  for (const name of ['ua', 'url'] as const) {
    if (!Object.hasOwn(fields, name)) return `missing "${name}"`;
    if (typeof fields[name] !== 'string') return `"${name}" must be a string, got ${typeName(fields[name])}`;
  }
  const hasText = Object.hasOwn(fields, 'robots');
  const hasB64 = Object.hasOwn(fields, 'robots_b64');
  if (hasText && hasB64) return 'give "robots" or "robots_b64", not both';
  if (!hasText && !hasB64) return 'missing "robots" (or "robots_b64")';
  const name = hasText ? 'robots' : 'robots_b64';
  const body = fields[name];
  if (typeof body !== 'string') return `"${name}" must be a string, got ${typeName(body)}`;
  if (hasB64 && !isBase64(body)) return '"robots_b64" is not valid base64';
  // A relative URL, another scheme or no URL at all cannot be checked: an error, never a verdict.
  const url = fields['url'] as string;
  if (parseHttpUrl(url) === null) return `"url" must be an absolute http(s) URL, got ${quoteInput(url)}`;
  return null;
}

function isBase64(text: string): boolean {
  const compact = text.replace(ASCII_WHITESPACE, '');
  if (!BASE64.test(compact)) return false;
  const padded = compact.endsWith('=');
  return padded ? compact.length % 4 === 0 : compact.length % 4 !== 1;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
