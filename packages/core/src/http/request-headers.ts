// Which request headers a caller may set, and the `From` address. Pure: one check for every set
// of headers politely sends on someone's behalf (crawl-wide `headers`, a request's own headers,
// the CLI's `--header`), so a header refused in one place is refused in all.

import { PolitelyError, type PolitelyErrorCode } from '../errors.js';
import { maskHeaderLine, maskHeaderValue } from '../secrets/mask-secrets.js';

/**
 * Headers a caller may not set, lower-cased, each with why. Hop-by-hop headers (RFC 9110 §7.6.1)
 * belong to one connection, which the HTTP client manages; `Host` and `Content-Length` are the
 * client's to write from the URL and the body; `User-Agent` is the crawler's identity
 * (`userAgent`); `From` is its own option (`from`).
 */
export const FORBIDDEN_REQUEST_HEADERS: ReadonlyMap<string, string> = new Map([
  ['connection', 'a hop-by-hop header (RFC 9110 §7.6.1), managed by the HTTP client'],
  ['keep-alive', 'a hop-by-hop header (RFC 9110 §7.6.1), managed by the HTTP client'],
  ['proxy-connection', 'a hop-by-hop header, managed by the HTTP client'],
  ['te', 'a hop-by-hop header (RFC 9110 §10.1.4), managed by the HTTP client'],
  ['trailer', 'a hop-by-hop header (RFC 9110 §6.6.2), managed by the HTTP client'],
  ['transfer-encoding', 'a hop-by-hop header (RFC 9112 §6.1), managed by the HTTP client'],
  ['upgrade', 'a hop-by-hop header (RFC 9110 §7.8), managed by the HTTP client'],
  [
    'proxy-authorization',
    'meant for a proxy, not the target: put credentials in the proxy URL (http://user:pass@host:port)',
  ],
  ['proxy-authenticate', 'a response header of proxies, never a request header'],
  ['host', 'written by the HTTP client from the URL'],
  ['content-length', 'written by the HTTP client (requests are GET, without a body)'],
  ['user-agent', "the crawler's identity: set it with the userAgent option"],
  ['from', "set with the from option (the operator's contact address)"],
]);

/** An RFC 9110 field name: a token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A field value: visible characters, spaces and tabs, obs-text; never CR, LF or NUL. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Checks a set of request headers a caller wants sent and returns it with names lower-cased.
 * Refuses, naming the header and `where` (e.g. `createCrawler: headers`): a name that is not an
 * HTTP token, a value with CR, LF, NUL or other control characters (header injection), a value
 * that is not a string, a name given twice in different cases, and every header in
 * `FORBIDDEN_REQUEST_HEADERS` (hop-by-hop headers, `Host`, `Content-Length`, `User-Agent`, `From`).
 * @throws PolitelyError with `code` (`ERR_INVALID_OPTION` by default; `ERR_INVALID_INPUT` for a request's own headers)
 */
export function checkRequestHeaders(
  headers: unknown,
  where: string,
  code: Extract<PolitelyErrorCode, 'ERR_INVALID_OPTION' | 'ERR_INVALID_INPUT'> = 'ERR_INVALID_OPTION',
): Readonly<Record<string, string>> {
  const fail = (message: string): never => {
    throw new PolitelyError(code, `${where}: ${message}`);
  };
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    return fail(`headers must be an object of header names to string values, got ${describe(headers)}`);
  }
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name))
      fail(
        `${JSON.stringify(maskHeaderLine(name))} is not a valid header name (RFC 9110 §5.1: letters, digits and !#$%&'*+-.^_\`|~)`,
      );
    const lower = name.toLowerCase();
    const why = FORBIDDEN_REQUEST_HEADERS.get(lower);
    if (why !== undefined) fail(`the ${name} header may not be set: it is ${why}`);
    if (typeof value !== 'string') fail(`the ${name} header's value must be a string, got ${describe(value)}`);
    if (!FIELD_VALUE.test(value))
      fail(
        `the ${name} header's value holds a CR, LF, NUL or other control character (header injection), got ${JSON.stringify(maskHeaderValue(name, value))}`,
      );
    if (Object.hasOwn(checked, lower)) fail(`the ${name} header is given twice (header names are case-insensitive)`);
    checked[lower] = value.trim();
  }
  return checked;
}

/** A mailbox as the `From` header carries it (RFC 9110 §10.1.2, RFC 5322 addr-spec, kept simple). */
const MAILBOX =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/**
 * Checks the operator's contact address sent as `From` (RFC 9110 §10.1.2: the e-mail address of
 * the person responsible for the requests) and returns it trimmed.
 * @throws PolitelyError `ERR_INVALID_OPTION` naming `where` and the value, unless it looks like `name@example.com`
 */
export function checkContactAddress(value: unknown, where: string): string {
  const address = typeof value === 'string' ? value.trim() : undefined;
  if (address === undefined || address.length > 254 || !MAILBOX.test(address)) {
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      `${where} must be an e-mail address, the operator's contact (RFC 9110 §10.1.2), e.g. 'crawler-ops@example.com', got ${describe(value)}`,
    );
  }
  return address;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value);
}
