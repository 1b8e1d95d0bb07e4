/**
 * Stable codes for every error politely throws. Expected outcomes (a URL disallowed by
 * robots.txt, out of scope, a duplicate) are returned values, never errors.
 */
export type PolitelyErrorCode =
  | 'ERR_INVALID_OPTION'
  | 'ERR_INVALID_URL'
  | 'ERR_INVALID_INPUT'
  /** A robots.txt request failed: DNS, connection refused or reset, incomplete body, bad encoding. */
  | 'ERR_FETCH_FAILED'
  /** The server's answer is not HTTP (an invalid status line or header): a defect of the server, not worth retrying. */
  | 'ERR_PROTOCOL'
  /** A request ran past its deadline. */
  | 'ERR_TIMEOUT'
  /** The caller's AbortSignal fired, or the gate was closed. */
  | 'ERR_ABORTED'
  /** A response body went past its size limit (after decompression). */
  | 'ERR_BODY_TOO_LARGE'
  /** A response head went past its size limit. */
  | 'ERR_HEADERS_TOO_LARGE'
  /** The SSRF guard refused the address a host resolved to (loopback, private, link-local, …). */
  | 'ERR_ADDRESS_BLOCKED'
  /**
   * An output could not be written (disk full, I/O error, a removed directory): the crawl stops,
   * and every URL whose output was not written stays in the store.
   */
  | 'ERR_OUTPUT'
  /**
   * The frontier store failed for good, or lost the crawl's state (Redis restarted without
   * persistence, keys evicted, FLUSHALL): the crawl stops rather than report a finished crawl.
   */
  | 'ERR_STORE'
  /** The crawl's store is owned by another live process (a SQLite crawl file opened twice). */
  | 'ERR_STORE_IN_USE'
  /** A page without a label met `handlers` that have no `default` (an `error` event; the crawl goes on). */
  | 'ERR_NO_ROUTE'
  /** A crawl fetched nothing because every seed was refused (a `SeedsRefusedError` of the crawler, naming each). */
  | 'ERR_SEEDS_REFUSED'
  /** A page could not be rendered: it crashed, hung past its render timeout, or the browser died (the URL is retried). */
  | 'ERR_RENDER_FAILED';

const BRAND = Symbol.for('politely.error');

/**
 * The one base class of politely's errors: a stable `code`, a `name`, and an optional `cause`.
 * `instanceof` works across duplicate installs of the package thanks to a global brand.
 */
export class PolitelyError extends Error {
  readonly code: PolitelyErrorCode;

  constructor(code: PolitelyErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PolitelyError';
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
