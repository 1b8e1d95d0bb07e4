// Ed25519 keys for Web Bot Auth: import a private JWK with checks, its RFC 7638 thumbprint (the
// `keyid` of every signature), a fresh key, the public half, and the key directory's JSON body.
// Crypto is node:crypto's; nothing here ever puts the private part (`d`) in an error or a return
// value other than `generateSigningKey`'s.

import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { PolitelyError } from '../errors.js';

/** A private Ed25519 JWK (RFC 8037): `kty: 'OKP'`, `crv: 'Ed25519'`, `x` and `d` base64url. */
export interface Ed25519PrivateJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly d: string;
  readonly kid?: string;
}

/** A public Ed25519 JWK, `kid` its RFC 7638 thumbprint. */
export interface Ed25519PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
}

/** A key ready to sign: the private key object (never serialised), the public JWK, the keyid. */
export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicJwk: Ed25519PublicJwk;
  /** RFC 7638 thumbprint (SHA-256, base64url) of the public key. */
  readonly keyid: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The members RFC 7638 §3.2 hashes, per key type, in lexicographic order. */
const THUMBPRINT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  OKP: ['crv', 'kty', 'x'],
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  oct: ['k', 'kty'],
};

/**
 * The RFC 7638 JWK thumbprint (SHA-256, base64url without padding) of a JWK: its required
 * members only, in lexicographic order, no whitespace. Works on a public or a private JWK (the
 * private members are not hashed).
 */
export function jwkThumbprint(jwk: JsonWebKey | Ed25519PublicJwk | Ed25519PrivateJwk): string {
  const record = jwk as Readonly<Record<string, unknown>>;
  const kty = record.kty;
  const members = typeof kty === 'string' ? THUMBPRINT_MEMBERS[kty] : undefined;
  if (members === undefined) throw keyError(`jwkThumbprint: unsupported kty ${JSON.stringify(String(kty))}`);
  const parts: string[] = [];
  for (const name of members) {
    const value = record[name];
    if (typeof value !== 'string' || value === '') throw keyError(`jwkThumbprint: the JWK has no "${name}"`);
    parts.push(`${JSON.stringify(name)}:${JSON.stringify(value)}`);
  }
  return createHash('sha256')
    .update(`{${parts.join(',')}}`, 'utf8')
    .digest('base64url');
}

/**
 * Checks a private Ed25519 JWK and makes it a signing key. Refused (`ERR_INVALID_OPTION`, the
 * message naming `context`, never the private part): not an object, another key type or curve,
 * `x` or `d` missing or not 32 bytes of base64url, `x` not the public half of `d`, or a `kid`
 * that is not the thumbprint.
 */
export function importSigningKey(jwk: unknown, context = 'signing.key'): SigningKey {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk))
    throw keyError(`${context} must be a private Ed25519 JWK object`);
  const record = jwk as Readonly<Record<string, unknown>>;
  if (record.kty !== 'OKP' || record.crv !== 'Ed25519')
    throw keyError(
      `${context} must be an Ed25519 JWK (kty "OKP", crv "Ed25519"), got kty ${describe(record.kty)}, crv ${describe(record.crv)}`,
    );
  if (!isKeyBytes(record.x)) throw keyError(`${context}.x must be 32 bytes of base64url (the public key)`);
  if (record.d === undefined) throw keyError(`${context} is a public key: signing needs the private JWK (with "d")`);
  if (!isKeyBytes(record.d)) throw keyError(`${context}.d must be 32 bytes of base64url (the private key)`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: record.x, d: record.d }, format: 'jwk' });
  } catch {
    // node:crypto's message is not passed on: it is not ours to promise it never quotes the key.
    throw keyError(`${context} is not a usable Ed25519 private key`);
  }
  const derived = createPublicKey(privateKey).export({ format: 'jwk' });
  if (derived.x !== record.x) throw keyError(`${context}.x is not the public key of its "d"`);
  const keyid = jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: record.x });
  if (record.kid !== undefined && record.kid !== keyid)
    throw keyError(`${context}.kid must be the key's RFC 7638 thumbprint ${keyid}, got ${describe(record.kid)}`);
  return { privateKey, keyid, publicJwk: { kty: 'OKP', crv: 'Ed25519', x: record.x, kid: keyid } };
}

/** A new Ed25519 private JWK, `kid` its RFC 7638 thumbprint. Keep it secret: it holds `d`. */
export function generateSigningKey(): Ed25519PrivateJwk {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const x = jwk.x as string;
  const d = jwk.d as string;
  return { kty: 'OKP', crv: 'Ed25519', x, d, kid: jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x }) };
}

/** The public half of an Ed25519 JWK (private or public), `kid` its thumbprint; checked like `importSigningKey`'s `x`. */
export function publicJwkOf(jwk: Ed25519PrivateJwk | Ed25519PublicJwk | JsonWebKey): Ed25519PublicJwk {
  const record = jwk as Readonly<Record<string, unknown>>;
  if (record.kty !== 'OKP' || record.crv !== 'Ed25519' || !isKeyBytes(record.x))
    throw keyError('publicJwkOf: not an Ed25519 JWK with a 32-byte "x"');
  const x = record.x;
  return { kty: 'OKP', crv: 'Ed25519', x, kid: jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x }) };
}

/** The media type of a key directory (draft-meunier-webbotauth-httpsig-directory). */
export const KEY_DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

/** Where a key directory is published on its host. */
export const KEY_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

/**
 * The JSON body of a key directory (a JWK Set of public keys, draft-meunier-webbotauth-httpsig-directory):
 * `{"keys":[…]}`, each key its public half with `kid`. Private parts are dropped, never copied.
 * Serve it with `KEY_DIRECTORY_MEDIA_TYPE` at `KEY_DIRECTORY_PATH`, with the headers
 * `signedKeyDirectory` (or `signDirectoryResponse`) makes: its response signatures.
 */
export function keyDirectory(keys: readonly (Ed25519PrivateJwk | Ed25519PublicJwk | JsonWebKey)[]): string {
  return JSON.stringify({ keys: keys.map((key) => publicJwkOf(key)) });
}

function isKeyBytes(value: unknown): value is string {
  return typeof value === 'string' && BASE64URL.test(value) && Buffer.from(value, 'base64url').length === 32;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}

function keyError(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', message);
}
