// Web Bot Auth request signatures: HTTP Message Signatures (RFC 9421) over `@authority` and
// `signature-agent`, Ed25519, `keyid` the RFC 7638 thumbprint, `tag="web-bot-auth"`, a fresh
// `created`, a short `expires` and a random `nonce` on every request.
//
// What this follows, and how it was known (searched 2026-11-26 through a store of public reference
// text; no draft was read whole):
// - draft-ietf-webbotauth-httpsig-protocol-01 (2026-10-29; its existence, date and abstract seen),
//   the default `draft: 'ietf-01'`: `Signature-Agent` is a Structured Field Dictionary (RFC 9651)
//   whose member names the key directory, covered as `"signature-agent";key="<member>"` (RFC 9421
//   §2.1.2); here the member's key is the signature's label, `sig1`:
//     Signature-Agent: sig1="https://bot.example/.well-known/http-message-signatures-directory"
//     Signature-Input: sig1=("@authority" "signature-agent";key="sig1");created=…;expires=…;
//                      keyid="<thumbprint>";alg="ed25519";nonce="…";tag="web-bot-auth"
//     Signature: sig1=:<64 bytes, base64>:
//   This form was taken from implementations that say they track the WG drafts (release notes of
//   one aligning with -00: "signs the exact Signature-Agent dictionary member"; verifier and test
//   code covering `"signature-agent";key="sig1"` with `tag="web-bot-auth"`), and from issue 33.
// - draft-meunier-webbotauth-httpsig-protocol (the individual drafts before adoption),
//   `draft: 'meunier'`: `Signature-Agent` is one quoted sf-string, covered whole as
//   `"signature-agent"`:  Signature-Agent: "https://bot.example/…"  (from issue 33 and older
//   implementations' examples).
// - RFC 9421 §2.5 for the signature base, §2.2.3 for `@authority` (host, port only when not the
//   scheme's default, lower-cased), §2.3 for the parameters; RFC 9651 serialisation by the
//   `structured-headers` package (RFC 9651 / RFC 8941), already a dependency of this package.
//
// Confirmed since (2026-11-26, reading the editor's copy of draft-ietf-webbotauth-httpsig-protocol
// in thibmeu/http-message-signatures-directory, which may be newer than -01): the dictionary form,
// the member keyed to the signature's label and covered as `"signature-agent";key="<label>"`, the
// quoted string as the legacy form a verifier MAY still accept; `alg` in its test vectors; and
// that a `directory` member must be an origin (`https://bot.example`): a strict verifier ignores a
// member with a path, so give the origin (the value is sent as given). Not confirmed: the nonce
// length (64 random bytes, base64, as its test vectors use) and the 60-second lifetime (the draft
// recommends no more than 24 hours).

import { type JsonWebKey, randomBytes, sign } from 'node:crypto';
import { type Item, serializeDictionary, serializeInnerList, serializeItem } from 'structured-headers';
import { PolitelyError } from '../errors.js';
import { type Ed25519PrivateJwk, importSigningKey, type SigningKey } from './keys.js';

/** Which draft's `Signature-Agent` form to send. */
export type WebBotAuthDraft = 'ietf-01' | 'meunier';

/** The working group's latest draft, the default. */
export const DEFAULT_WEB_BOT_AUTH_DRAFT: WebBotAuthDraft = 'ietf-01';

/** The signature label, and the `Signature-Agent` member's key in the dictionary form. */
const LABEL = 'sig1';

/** The `tag` parameter of a Web Bot Auth signature. */
export const WEB_BOT_AUTH_TAG = 'web-bot-auth';

export interface RequestSignerOptions {
  /** A private Ed25519 JWK (checked by `importSigningKey`). */
  readonly key: JsonWebKey | Ed25519PrivateJwk;
  /** https URL of the key directory, sent in `Signature-Agent`. */
  readonly signatureAgent: string;
  /** @default 'ietf-01' */
  readonly draft?: WebBotAuthDraft;
  /** Seconds from `created` to `expires`. @default 60 */
  readonly expiresInSeconds?: number;
}

/** What a signature covers, as sent: the header values and the signature base that was signed. */
export interface RequestSignature {
  /** Header fields to send (names lower-case): `signature`, `signature-input`, `signature-agent`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The RFC 9421 signature base that was signed (for debugging a verifier's refusal). */
  readonly base: string;
  readonly created: number;
  readonly expires: number;
  readonly nonce: string;
}

export interface RequestSigner {
  readonly keyid: string;
  readonly draft: WebBotAuthDraft;
  readonly signatureAgent: string;
  /** Signs one request to `url`: a fresh `created`, `expires` and `nonce` each call. */
  sign(url: string, at?: { readonly nowMs?: number; readonly nonce?: string }): RequestSignature;
}

/**
 * A signer for every request of a crawl. Refuses (`ERR_INVALID_OPTION`, never quoting the
 * private key) a bad key, a `signatureAgent` that is not an https URL, an unknown draft.
 */
export function createRequestSigner(options: RequestSignerOptions, context = 'signing'): RequestSigner {
  const key: SigningKey = importSigningKey(options.key, `${context}.key`);
  const draft = options.draft ?? DEFAULT_WEB_BOT_AUTH_DRAFT;
  if (draft !== 'ietf-01' && draft !== 'meunier')
    throw invalid(`${context}.draft must be 'ietf-01' or 'meunier', got ${JSON.stringify(String(draft))}`);
  const agent = checkAgentUrl(options.signatureAgent, `${context}.signatureAgent`);
  const lifetime = options.expiresInSeconds ?? 60;
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > 3600)
    throw invalid(
      `${context}.expiresInSeconds must be a whole number of seconds from 1 to 3600, got ${String(lifetime)}`,
    );
  const agentItem = item(agent);
  const agentHeader =
    draft === 'ietf-01' ? serializeDictionary(new Map([[LABEL, agentItem]])) : serializeItem(agentItem);
  const agentComponent: Item =
    draft === 'ietf-01' ? ['signature-agent', new Map([['key', LABEL]])] : item('signature-agent');
  return {
    keyid: key.keyid,
    draft,
    signatureAgent: agent,
    sign(url, at = {}) {
      const created = Math.floor((at.nowMs ?? Date.now()) / 1000);
      const expires = created + lifetime;
      const nonce = at.nonce ?? randomBytes(64).toString('base64');
      const params = serializeInnerList([
        [item('@authority'), agentComponent],
        new Map<string, string | number>([
          ['created', created],
          ['expires', expires],
          ['keyid', key.keyid],
          ['alg', 'ed25519'],
          ['nonce', nonce],
          ['tag', WEB_BOT_AUTH_TAG],
        ]),
      ]);
      // The member's value (ietf-01) is the serialised Item, the same bytes as the header's
      // `sig1=` right-hand side; the whole field (meunier) is the header's value as sent.
      const agentValue = draft === 'ietf-01' ? serializeItem(agentItem) : agentHeader;
      const base = [
        `"@authority": ${authorityOf(url)}`,
        `${serializeItem(agentComponent)}: ${agentValue}`,
        `"@signature-params": ${params}`,
      ].join('\n');
      const signature = sign(null, Buffer.from(base, 'utf8'), key.privateKey);
      const signatureHeader = serializeDictionary(new Map([[LABEL, item(signature)]]));
      return {
        headers: {
          'signature-agent': agentHeader,
          'signature-input': `${LABEL}=${params}`,
          signature: signatureHeader,
        },
        base,
        created,
        expires,
        nonce,
      };
    },
  };
}

/** RFC 9421 §2.2.3 `@authority`: the target URI's host, lower-cased, its port unless the scheme's default. */
export function authorityOf(url: string): string {
  return new URL(url).host.toLowerCase();
}

/** Header names a signature sets (lower-case); a request's own values of these are replaced. */
export const SIGNATURE_HEADER_NAMES: readonly string[] = ['signature', 'signature-input', 'signature-agent'];

function checkAgentUrl(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalid(`${name} must be the https URL of the key directory`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${name} must be an absolute https URL, got ${JSON.stringify(value.slice(0, 200))}`);
  }
  if (url.protocol !== 'https:')
    throw invalid(
      `${name} must be an https URL (a verifier fetches the key directory from it), got ${JSON.stringify(value.slice(0, 200))}`,
    );
  if (/[\u0000-\u001f"\\\u007f-\uffff]/.test(value))
    throw invalid(`${name} must be printable ASCII without quotes or backslashes`);
  return value;
}

function item(value: string | Uint8Array): Item {
  return [value, new Map()];
}

function invalid(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', message);
}
