// `politely crawl --print-config`: the crawl's effective settings, as a config file would hold
// them (flag names as keys, the seeds under `seeds`), the defaults of unset flags included, so the
// output can be saved and given back with `--config`. Secrets are never printed: every value is
// shown through @politely/core's masking (the password of any URL, such as --store's or
// --proxy's, and credential query parameters, as `***`), the values of credential headers are
// `***`, and the signing key stays a file name.

import { maskHeaderLine, maskUrl } from '@politely/core';
import { SEEDS_KEY } from './config-file.js';

/** A flag's value as parseArgs gives it. */
type RawValue = string | boolean | readonly string[] | undefined;

/** The default of every crawl flag that has one, in the form the flag takes. */
export const CRAWL_FLAG_DEFAULTS: Readonly<Record<string, string | boolean>> = {
  scope: 'same-domain',
  delay: '250ms',
  concurrency: '16',
  'per-host-concurrency': '1',
  timeout: '30s',
  'status-interval': '2s',
  'stop-grace': '10s',
  'politeness-key': 'host',
  store: 'memory',
};

const NOT_SETTINGS = new Set(['help', 'config', 'print-config']);

/**
 * The effective settings: every flag given (by the file or the command line), then the defaults
 * of the others; booleans not given are `false`. `flags` lists the command's flags and types.
 */
export function effectiveConfig(
  values: Readonly<Record<string, RawValue>>,
  seeds: readonly string[],
  flags: Readonly<Record<string, { readonly type: 'string' | 'boolean' }>>,
): Record<string, unknown> {
  const config: Record<string, unknown> = { [SEEDS_KEY]: seeds.map((seed) => maskUrl(seed)) };
  for (const [name, { type }] of Object.entries(flags)) {
    if (NOT_SETTINGS.has(name)) continue;
    const value = values[name] ?? CRAWL_FLAG_DEFAULTS[name];
    if (value === undefined) {
      if (type === 'boolean') config[name] = false;
      continue;
    }
    config[name] = masked(name, value);
  }
  return config;
}

/** A flag's value as it may be printed: header lines by the header rule, every other text by the URL rule. */
function masked(name: string, value: string | boolean | readonly string[]): unknown {
  if (typeof value === 'boolean') return value;
  const mask = name === 'header' ? maskHeaderLine : maskUrl;
  return typeof value === 'string' ? mask(value) : value.map((text) => mask(text));
}
