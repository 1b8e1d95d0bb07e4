// What a bot operator publishes at `https://<host>/.well-known/http-message-signatures-directory`:
// the key directory's JSON body and the headers its response must carry — `Content-Type`,
// `Content-Digest` (RFC 9530, sha-256 of the body) and one HTTP Message Signature per key
// (RFC 9421), each made with that key, which bind the keys to the directory's host.
//
// The signature is the "Signed Directory Response" of draft-ietf-webbotauth-httpsig-protocol
// (which the directory draft was folded into; its test vector is reproduced byte for byte by the
// tests, sources in docs/web-bot-auth.md): covered components `"@authority";req` (the host the
// directory was requested from, RFC 9421 §2.4) and `"content-digest"`; parameters `created`,
// `expires`, `keyid` (the RFC 7638 thumbprint) and `tag="http-message-signatures-directory"`, in
// that order, no `alg`, no nonce (the same signature is served until it expires). A verifier
// written before `req` and `Content-Digest` were added (directory draft v04) covers `@authority`
// alone and does not rebuild this base.

import { createHash, type JsonWebKey, sign } from 'node:crypto';
import { type InnerList, type Item, serializeDictionary, serializeInnerList } from 'structured-headers';
import { PolitelyError } from '../errors.js';
import {
  type Ed25519PrivateJwk,
  importSigningKey,
  jwkThumbprint,
  KEY_DIRECTORY_MEDIA_TYPE,
  keyDirectory,
  type SigningKey,
} from './keys.js';

/** The `tag` of a key directory's response signature. */
export const KEY_DIRECTORY_TAG = 'http-message-signatures-directory';

/**
 * Options of `signedKeyDirectory` and `signDirectoryResponse`: the host the directory is served
 * from and how long its signatures are valid.
 */
export interface SignedKeyDirectoryOptions {
  /**
   * The host the directory is served from, as a verifier requests it: `bot.example`, or with a
   * port that is not the scheme's default (`bot.example:8443`). Lower-cased.
   */
  readonly authority: string;
  /**
   * Seconds from `created` to `expires`: how long the headers may be served. Refresh them (make
   * them again) before then.
   * @default 604800 (7 days)
   */
  readonly validForSeconds?: number;
  /** `created`, in ms since the epoch. @default Date.now() */
  readonly nowMs?: number;
}

/** The headers a key directory's response must carry, and their expiry. */
export interface DirectoryResponseSignature {
  /**
   * Response headers (names lower-case): `content-type`, `content-digest`, `signature-input`,
   * `signature` (one member per key, `sig1`, `sig2`, … in the order of the keys).
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The host the signatures cover (`@authority`). */
  readonly authority: string;
  /** Seconds since the epoch. */
  readonly created: number;
  /** Seconds since the epoch: after this, verifiers refuse the signatures. */
  readonly expires: number;
  /** The keyid (thumbprint) of each key, in order. */
  readonly keyids: readonly string[];
}

/** A key directory ready to serve: its body, the headers that must go with it, and their expiry. */
export interface SignedKeyDirectory extends DirectoryResponseSignature {
  /** The JSON body (`{"keys":[…]}`): public keys only. */
  readonly body: string;
}

/**
 * The key directory of `keys` (private Ed25519 JWKs: each signs the response), signed for
 * `authority`: `keyDirectory(keys)` as the body, with `signDirectoryResponse`'s headers.
 */
export function signedKeyDirectory(
  keys: readonly (JsonWebKey | Ed25519PrivateJwk)[],
  options: SignedKeyDirectoryOptions,
): SignedKeyDirectory {
  if (!Array.isArray(keys) || keys.length === 0)
    throw invalid('signedKeyDirectory: give at least one private key (each signs the directory)');
  const body = keyDirectory(keys);
  return { body, ...signDirectoryResponse(body, keys, options) };
}

/**
 * The headers for serving `body` (a key directory you wrote, with fields of your own such as
 * `use`, `nbf`, `exp`) as the key directory of `authority`: `Content-Type`, `Content-Digest`
 * and one signature per key of `keys` (private Ed25519 JWKs, labels `sig1`, `sig2`, …). Refused
 * (`ERR_INVALID_OPTION`, never quoting a private part): no key, a bad key, a key whose public
 * half is not in `body`, a body that is not `{"keys":[…]}`, an authority that is not
 * host[:port], a validity that is not a positive whole number of seconds.
 */
export function signDirectoryResponse(
  body: string,
  keys: readonly (JsonWebKey | Ed25519PrivateJwk)[],
  options: SignedKeyDirectoryOptions,
): DirectoryResponseSignature {
  if (!Array.isArray(keys) || keys.length === 0)
    throw invalid('signDirectoryResponse: give at least one private key (each signs the directory)');
  const signingKeys = keys.map((key, i) => importSigningKey(key, `keys[${i}]`));
  const published = thumbprintsIn(body);
  signingKeys.forEach((key, i) => {
    if (!published.has(key.keyid)) throw invalid(`keys[${i}] (keyid ${key.keyid}) is not in the directory body`);
  });
  const authority = checkAuthority(options.authority);
  const validFor = options.validForSeconds ?? 7 * 24 * 3600;
  if (!Number.isSafeInteger(validFor) || validFor < 1)
    throw invalid(`validForSeconds must be a whole number of seconds, 1 or more, got ${String(validFor)}`);
  const created = Math.floor((options.nowMs ?? Date.now()) / 1000);
  const expires = created + validFor;
  const contentDigest = serializeDictionary(
    new Map([['sha-256', item(createHash('sha256').update(body, 'utf8').digest())]]),
  );
  const inputs = new Map<string, InnerList>();
  const signatures = new Map<string, Item>();
  signingKeys.forEach((key, i) => {
    const { covered, signature } = signOne(key, { authority, contentDigest, created, expires });
    inputs.set(`sig${i + 1}`, covered);
    signatures.set(`sig${i + 1}`, item(signature));
  });
  return {
    headers: {
      'content-type': KEY_DIRECTORY_MEDIA_TYPE,
      'content-digest': contentDigest,
      'signature-input': serializeDictionary(inputs),
      signature: serializeDictionary(signatures),
    },
    authority,
    created,
    expires,
    keyids: signingKeys.map((key) => key.keyid),
  };
}

/** One key's signature over the directory's host and digest: its covered components and parameters, and the bytes. */
function signOne(
  key: SigningKey,
  at: {
    readonly authority: string;
    readonly contentDigest: string;
    readonly created: number;
    readonly expires: number;
  },
): { covered: InnerList; signature: Buffer } {
  const covered: InnerList = [
    [['@authority', new Map([['req', true]])], item('content-digest')],
    new Map<string, string | number>([
      ['created', at.created],
      ['expires', at.expires],
      ['keyid', key.keyid],
      ['tag', KEY_DIRECTORY_TAG],
    ]),
  ];
  const base = [
    `"@authority";req: ${at.authority}`,
    `"content-digest": ${at.contentDigest}`,
    `"@signature-params": ${serializeInnerList(covered)}`,
  ].join('\n');
  return { covered, signature: sign(null, Buffer.from(base, 'utf8'), key.privateKey) };
}

/** The thumbprints of the keys a directory body publishes. */
function thumbprintsIn(body: string): Set<string> {
  let keys: unknown;
  try {
    keys = (JSON.parse(body) as { keys?: unknown }).keys;
  } catch {
    throw invalid('the directory body must be JSON: {"keys":[…]}');
  }
  if (!Array.isArray(keys)) throw invalid('the directory body must be JSON: {"keys":[…]}');
  const found = new Set<string>();
  for (const key of keys) {
    try {
      found.add(jwkThumbprint(key as JsonWebKey));
    } catch {
      // A key of another kind, or malformed: no key of ours, so not ours to judge.
    }
  }
  return found;
}

function checkAuthority(value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw invalid('authority must be the host the directory is served from (host or host:port)');
  let url: URL;
  try {
    url = new URL(`https://${value}`);
  } catch {
    throw invalid(`authority must be a host or host:port, got ${JSON.stringify(value.slice(0, 200))}`);
  }
  if (url.host !== value.toLowerCase() || url.username !== '' || url.pathname !== '/')
    throw invalid(
      `authority must be a host or host:port (no scheme, path or default port), got ${JSON.stringify(value.slice(0, 200))}`,
    );
  return url.host;
}

function item(value: string | Uint8Array): Item {
  return [value, new Map()];
}

function invalid(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', message);
}
