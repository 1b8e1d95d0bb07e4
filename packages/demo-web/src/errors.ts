/** Stable codes for every error the local web throws. */
export type LocalWebErrorCode =
  /** An option is out of range (a port, a host count, an address outside 127.0.0.2–254). */
  | 'ERR_INVALID_OPTION'
  /** The loopback address is not configured on this machine (macOS has only 127.0.0.1 by default). */
  | 'ERR_ADDRESS_NOT_AVAILABLE'
  /** Something else already listens on that address and port. */
  | 'ERR_ADDRESS_IN_USE'
  /** Any other listen failure (permissions, too many open files, …). */
  | 'ERR_LISTEN_FAILED'
  /** `web.host(name)` or `web.url(name, …)` was asked for a host the web does not have. */
  | 'ERR_UNKNOWN_HOST'
  /** `web.changePages` or `web.revisionOf` was given a URL that is no page of the web. */
  | 'ERR_UNKNOWN_PAGE'
  /** `web.changePages` was given a page that cannot change (a binary file, plain text, any page of the hostile web). */
  | 'ERR_UNCHANGEABLE_PAGE';

const BRAND = Symbol.for('politely.local-web.error');

/** The one error class of the local web: a stable `code`, a `name`, and an optional `cause`. */
export class LocalWebError extends Error {
  readonly code: LocalWebErrorCode;

  constructor(code: LocalWebErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LocalWebError';
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
