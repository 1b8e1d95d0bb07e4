// The options of extractContent, checked once where they are given.

import { optionChecks } from '@politely/core/internal';

/** Options of {@link extractContent}. */
export interface ExtractContentOptions {
  /**
   * The page's URL: an absolute http(s) or file URL. Relative links, images and the canonical URL
   * are made absolute against it (or against the page's `<base href>`, resolved against it).
   * Required.
   */
  readonly url: string;
  /**
   * The response's Content-Type header, whose `charset` decodes the bytes when `html` is a
   * `Uint8Array` (after a byte order mark, before `<meta charset>`). Ignored for a string.
   * @default undefined (the charset comes from a byte order mark or `<meta charset>`, else UTF-8)
   */
  readonly contentType?: string;
}

export interface ResolvedExtractContentOptions {
  readonly url: string;
  readonly contentType: string | undefined;
}

const KNOWN: Readonly<Record<keyof ExtractContentOptions, true>> = { url: true, contentType: true };
const SCHEMES = new Set(['http:', 'https:', 'file:']);

export function resolveExtractContentOptions(options: ExtractContentOptions): ResolvedExtractContentOptions {
  const checks = optionChecks('extractContent');
  if (typeof options !== 'object' || options === null) checks.fail('options must be an object with a url');
  checks.knownKeys(options, KNOWN);
  const { url, contentType } = options;
  // The URL is not echoed: it may carry a password.
  if (typeof url !== 'string') checks.fail(`url must be an absolute http(s) or file URL, got ${kindOf(url)}`);
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (parsed === null || !SCHEMES.has(parsed.protocol))
    return checks.fail('url must be an absolute http(s) or file URL, got a string that is not one');
  if (contentType !== undefined && typeof contentType !== 'string')
    checks.fail(`contentType must be a string, got ${kindOf(contentType)}`);
  return { url: parsed.href, contentType };
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
