// The contract of the crawl workers' labelled mode (packages/store-*/test/fixtures/crawl-worker.mjs):
// seeds are LIST with { host, chain: 0 }; every link a handler enqueues is ITEM with the same host
// and chain + 1. Shared by the SQLite resume and the Redis killed-worker tests.

/** What a worker printed for a page it handled. */
export interface HandledRequest {
  readonly url: string;
  readonly label?: string | undefined;
  readonly userData: { readonly host?: unknown; readonly chain?: unknown };
}

/**
 * What is wrong with a handled page's request data (a seed is LIST with chain 0, a link ITEM with chain ≥ 1;
 * the host is its URL's), or null.
 */
export function wrongRequestData(line: HandledRequest, seeds: ReadonlySet<string>): string | null {
  const { label, userData } = line;
  const wanted = seeds.has(line.url) ? 'LIST' : 'ITEM';
  if (label !== wanted) return `${line.url}: label ${String(label)}, wanted ${wanted}`;
  if (userData.host !== new URL(line.url).host) return `${line.url}: userData.host ${String(userData.host)}`;
  const chainOk =
    label === 'LIST' ? userData.chain === 0 : Number.isInteger(userData.chain) && (userData.chain as number) >= 1;
  return chainOk ? null : `${line.url}: ${label} with userData.chain ${JSON.stringify(userData.chain)}`;
}
