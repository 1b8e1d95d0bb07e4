// Secrets out of every text meant for people (messages, logs, printed settings, reports): the
// password of a URL's userinfo, query parameters that carry credentials, and the values of
// credential headers. PURE: string work only, no URL parsing that could throw, so a URL that does
// not parse is masked as well as one that does.
//
// What counts as a secret is data (the tables below), written once for every package.

/** What a secret is replaced by. */
export const MASK = '***';

/** Header names whose values are credentials (lower case). */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'apikey',
  'x-auth-token',
  'x-access-token',
  'x-csrf-token',
  'x-xsrf-token',
  'x-amz-security-token',
  'x-goog-api-key',
  'private-token',
]);

/** Header names with one of these words (between `-`) are credentials too: `x-upload-token`, `x-client-secret`. */
const SECRET_HEADER_WORDS = /(^|-)(token|secret|password|passwd|apikey|session|auth)(-|$)/;

/** Query parameter names whose values are credentials, compared lower case without `-`, `_` and `.`. */
const SECRET_PARAMETERS: ReadonlySet<string> = new Set([
  'password',
  'passwd',
  'pwd',
  'pass',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'auth',
  'authorization',
  'key',
  'apikey',
  'secret',
  'clientsecret',
  'sig',
  'signature',
  'xamzsignature',
  'xamzcredential',
  'xamzsecuritytoken',
  'xgoogsignature',
  'xgoogcredential',
  'sessionid',
  'sid',
  'credential',
  'credentials',
  'privatekey',
]);

/** Parameter names that end with one of these (after normalising) are credentials too: `github_token`, `db_password`. */
const SECRET_PARAMETER_ENDINGS = ['token', 'secret', 'password', 'passwd', 'apikey', 'signature', 'credential'];

/**
 * Whether a header's value is a credential: `Authorization`, `Proxy-Authorization`, `Cookie`,
 * `Set-Cookie`, `X-Api-Key` and other API-key and token headers, and any name with the word
 * `token`, `secret`, `password`, `passwd`, `apikey`, `session` or `auth` (`X-Upload-Token`).
 * Letter case is ignored.
 */
export function isSecretHeaderName(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return SECRET_HEADERS.has(lower) || SECRET_HEADER_WORDS.test(lower);
}

/** A header's value as it may be shown: `***` for a credential header (see isSecretHeaderName), else unchanged. */
export function maskHeaderValue(name: string, value: string): string {
  return isSecretHeaderName(name) ? MASK : value;
}

/**
 * A `Name: value` header line as it may be shown: a credential header's value replaced by `***`.
 * A line without a colon is returned as it is, unless it starts with a credential header's name
 * (`Authorization Bearer x`, a colon forgotten), which is masked after the name.
 */
export function maskHeaderLine(line: string): string {
  const colon = line.indexOf(':');
  if (colon !== -1) return isSecretHeaderName(line.slice(0, colon)) ? `${line.slice(0, colon + 1)} ${MASK}` : line;
  const name = /^\s*([!#$%&'*+.^`|~\w-]+)/.exec(line)?.[1];
  return name !== undefined && isSecretHeaderName(name) && name.length < line.trim().length ? `${name} ${MASK}` : line;
}

/**
 * An HTTP message head (its start line and header lines) as it may be kept or shown: the value of
 * every credential header (see isSecretHeaderName) replaced by `***`, the rest byte for byte.
 */
export function maskHttpHead(head: string): string {
  return head.replace(
    /(^|\n)([!#$%&'*+.^`|~\w-]+)([ \t]*:[ \t]*)([^\r\n]*)/g,
    (match, lead: string, name: string, colon: string, value: string) =>
      value !== '' && isSecretHeaderName(name) ? `${lead}${name}${colon}${MASK}` : match,
  );
}

/**
 * Whether a query parameter's value is a credential, by its name (letter case, `-`, `_` and `.`
 * ignored): `password`, `passwd`, `pwd`, `pass`, `token`, `access_token`, `refresh_token`,
 * `id_token`, `auth`, `authorization`, `key`, `api_key`, `secret`, `client_secret`, `sig`,
 * `signature`, the signing parameters of presigned S3 and GCS URLs (`X-Amz-Signature`,
 * `X-Amz-Credential`, `X-Amz-Security-Token`, `X-Goog-Signature`, `X-Goog-Credential`),
 * `sessionid`, `sid`, `credential(s)`, `private_key`, and any name that ends in `token`, `secret`,
 * `password`, `passwd`, `apikey`, `signature` or `credential`.
 */
export function isSecretParameterName(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // Not validly %-encoded: judged as written.
  }
  const normal = decoded.toLowerCase().replace(/[-_.]/g, '');
  return SECRET_PARAMETERS.has(normal) || SECRET_PARAMETER_ENDINGS.some((ending) => normal.endsWith(ending));
}

/** `scheme://`, then the authority up to the first `/`, `?` or `#`. */
const AUTHORITY = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i;

/**
 * `scheme://user:…@`: a password with a raw `/`, `?` or `#`, which ends the authority early (the
 * URL does not parse). Groups: the text kept, the user, what follows the colon up to `/?#`.
 */
const BROKEN_USERINFO = /^([a-z][a-z0-9+.-]*:\/\/([^/?#@:]*):)([^/?#@]*)[\s\S]*@/i;

/**
 * A URL as it may be shown, any scheme (`redis://`, `rediss://`, `redis-cluster://`,
 * `postgres://`, `http://` proxies, …): the userinfo's password replaced by `***` (`user:***@`,
 * `:***@`); a userinfo without a colon, which some clients take as the password or a token, as a
 * whole (`***@`); and the values of query and fragment parameters that carry credentials (see
 * isSecretParameterName). The rest is kept as written. It never throws: text that does not parse
 * as a URL is masked where it looks like userinfo or a parameter.
 */
export function maskUrl(url: string): string {
  const authority = AUTHORITY.exec(url);
  if (authority === null) return maskParameters(url);
  const [whole, scheme, hostPart] = authority as unknown as [string, string, string];
  const at = hostPart.lastIndexOf('@');
  if (at !== -1)
    return `${scheme}${maskUserinfo(hostPart.slice(0, at))}${hostPart.slice(at)}${maskParameters(url.slice(whole.length))}`;
  const broken = BROKEN_USERINFO.exec(url);
  // `host:8080/path?mail=a@b` is a port and a path, not a broken password.
  if (broken !== null && !(broken[2] !== '' && /^\d*$/.test(broken[3] ?? ''))) {
    return `${broken[1]}${MASK}${maskParameters(url.slice(broken[0].length - 1))}`;
  }
  return `${whole}${maskParameters(url.slice(whole.length))}`;
}

/** `user:password` → `user:***`; `token` → `***`; an empty userinfo or password stays empty. */
function maskUserinfo(userinfo: string): string {
  if (userinfo === '') return userinfo;
  const colon = userinfo.indexOf(':');
  if (colon === -1) return MASK;
  return colon === userinfo.length - 1 ? userinfo : `${userinfo.slice(0, colon)}:${MASK}`;
}

/** The values of credential parameters after `?`, `&`, `;` or `#` replaced by `***`. */
function maskParameters(text: string): string {
  return text.replace(/([?&;#])([^=&;#]+)=([^&;#]*)/g, (match, separator: string, name: string, value: string) =>
    value !== '' && isSecretParameterName(name) ? `${separator}${name}=${MASK}` : match,
  );
}

/** Anything that looks like a URL in free text: a scheme, `://`, and no white space or quote. */
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>]+/gi;

/** `Name: value` in free text, up to the end of the line or a quote. */
const HEADER_IN_TEXT = /(^|[\s"'`(,;{[])([A-Za-z][\w-]*)(\s*:[ \t]*)([^\r\n"'`]+)/g;

/**
 * Free text (an error message, a log line, a value of unknown kind) as it may be shown: every URL
 * in it masked as maskUrl does, and the value of a `Name: value` of the usual credential headers
 * (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key`, … — the named
 * ones of isSecretHeaderName, not its word rule, so that `--robots-token: …` stays readable)
 * masked up to the end of its line.
 */
export function maskSecrets(text: string): string {
  const urls = text.replace(URL_IN_TEXT, (url) => maskUrl(url));
  return urls.replace(HEADER_IN_TEXT, (match, before: string, name: string, colon: string, value: string) =>
    SECRET_HEADERS.has(name.toLowerCase()) && value.trim() !== MASK ? `${before}${name}${colon}${MASK}` : match,
  );
}
