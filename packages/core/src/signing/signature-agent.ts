// The `Signature-Agent` URL: checked where it is given, and judged against the draft it is sent
// under. Under `'ietf-01'` the value is a dictionary member of the default type `directory`,
// which must be an origin: a verifier ignores a member with a path (an empty path `/` may be
// accepted) and fetches the key directory from the origin's well-known URI itself. The
// individual drafts (`'meunier'`) let the URL name the directory, path and all.

import { PolitelyError } from '../errors.js';
import { KEY_DIRECTORY_PATH } from './keys.js';

/** Which draft's `Signature-Agent` form to send. */
export type WebBotAuthDraft = 'ietf-01' | 'meunier';

/**
 * `value` as a `Signature-Agent` URL: an absolute https URL of printable ASCII, without quotes,
 * backslashes or credentials (the value goes to every site the crawl visits). Refused with
 * `ERR_INVALID_OPTION`, naming `name`; a URL with credentials is never quoted.
 */
export function checkSignatureAgent(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalid(`${name} must be the https URL of the key directory`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${name} must be an absolute https URL, got ${JSON.stringify(value.slice(0, 200))}`);
  }
  if (url.username !== '' || url.password !== '')
    throw invalid(`${name} must not hold a user name or password: it is sent to every site`);
  if (url.protocol !== 'https:')
    throw invalid(
      `${name} must be an https URL (a verifier fetches the key directory from it), got ${JSON.stringify(value.slice(0, 200))}`,
    );
  if (/[\u0000-\u001f"\\\u007f-\uffff]/.test(value))
    throw invalid(`${name} must be printable ASCII without quotes or backslashes`);
  return value;
}

/**
 * A warning when `agent` (already checked) has a path, query or fragment under a draft whose
 * verifiers ignore such a value (`'ietf-01'`); undefined otherwise. The message names `name`,
 * the value and the origin to give instead.
 */
export function signatureAgentWarning(agent: string, draft: WebBotAuthDraft, name: string): string | undefined {
  if (draft !== 'ietf-01') return undefined;
  const url = new URL(agent);
  if (url.pathname === '/' && url.search === '' && url.hash === '') return undefined;
  return (
    `${name} ${JSON.stringify(agent)} is not an origin: under draft 'ietf-01' a verifier ignores a ` +
    `Signature-Agent member with a path and looks for keys at ${url.origin}${KEY_DIRECTORY_PATH}; ` +
    `give ${JSON.stringify(url.origin)}`
  );
}

function invalid(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', message);
}
