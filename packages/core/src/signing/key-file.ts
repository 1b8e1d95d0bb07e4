// A private key file as a signer takes it: JSON holding one JWK, read once. A file that its
// group or others may open (mode & 0o077) is still used, with a warning naming the file: the
// key in it is only as private as the file. No message quotes the file's content, nor the
// JSON parser's message (which may quote it).

import type { JsonWebKey } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { PolitelyError } from '../errors.js';

/** A key file as read: its JWK (not yet checked: give it to `createRequestSigner`) and what to warn about. */
export interface SigningKeyFile {
  /** The JSON object the file holds. */
  readonly jwk: JsonWebKey;
  /** One line per warning (the file open to its group or others), naming the file, never its content. */
  readonly warnings: readonly string[];
}

/**
 * Reads the key file at `path`. Refused (`ERR_INVALID_OPTION`, the message starting with `name`,
 * never quoting the content): a file that cannot be read (its error code given), that is not
 * JSON, or whose JSON is not an object.
 */
export function readSigningKeyFile(path: string, name = `key file ${JSON.stringify(path)}`): SigningKeyFile {
  let text: string;
  let mode: number;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    mode = fstatSync(fd).mode;
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new PolitelyError('ERR_INVALID_OPTION', `${name} cannot be read (${code})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  let jwk: unknown;
  try {
    jwk = JSON.parse(text);
  } catch {
    throw new PolitelyError('ERR_INVALID_OPTION', `${name} is not JSON: it must hold one JSON Web Key`);
  }
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk))
    throw new PolitelyError('ERR_INVALID_OPTION', `${name} must hold one JSON Web Key (a JSON object)`);
  const warning = keyFileModeWarning(name, mode);
  return { jwk: jwk as JsonWebKey, warnings: warning === undefined ? [] : [warning] };
}

/** A warning when `mode` lets the group or others at the file (`mode & 0o077`); undefined when only its owner may. */
export function keyFileModeWarning(name: string, mode: number): string | undefined {
  if ((mode & 0o077) === 0) return undefined;
  const who = [(mode & 0o070) !== 0 ? 'its group' : '', (mode & 0o007) !== 0 ? 'others' : '']
    .filter((w) => w !== '')
    .join(' and ');
  const octal = (mode & 0o777).toString(8).padStart(4, '0');
  return `${name} is open to ${who} (mode ${octal}) and holds a private key: chmod 600 it`;
}
