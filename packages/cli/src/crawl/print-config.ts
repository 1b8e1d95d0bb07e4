// `politely crawl --print-config`: the crawl's effective settings, as a config file would hold
// them (flag names as keys, the seeds under `seeds`), the defaults of unset flags included, so the
// output can be saved and given back with `--config`. Secrets are never printed: a proxy's
// password and the values of credential headers are masked; the signing key stays a file name.

import { displayProxyUrl } from '@politely/core/internal';
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

/** Headers whose values are credentials: printed as `<hidden>`. */
const CREDENTIAL_HEADERS = /^\s*(authorization|proxy-authorization|cookie|x-api-key)\s*:/i;
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
  const config: Record<string, unknown> = { [SEEDS_KEY]: [...seeds] };
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

function masked(name: string, value: string | boolean | readonly string[]): unknown {
  if (name === 'proxy' && typeof value === 'string') {
    try {
      return displayProxyUrl(new URL(value));
    } catch {
      return '<hidden>';
    }
  }
  if (name === 'header' && Array.isArray(value))
    return value.map((line: string) =>
      CREDENTIAL_HEADERS.test(line) ? `${line.slice(0, line.indexOf(':') + 1)} <hidden>` : line,
    );
  return Array.isArray(value) ? [...value] : value;
}
