// Web Bot Auth request signatures: HTTP Message Signatures (RFC 9421) over `@authority` and
// `signature-agent`, Ed25519, `keyid` the RFC 7638 thumbprint, `tag="web-bot-auth"`, a fresh
// `created`, a short `expires` and a random 64-byte `nonce` on every request.
//
// Two forms of `Signature-Agent`, chosen by `draft`:
// - `'meunier'` (the default): one quoted sf-string, covered whole as `"signature-agent"`:
//     Signature-Agent: "https://bot.example"
//     Signature-Input: sig1=("@authority" "signature-agent");created=…;expires=…;keyid="…";
//                      alg="ed25519";nonce="…";tag="web-bot-auth"
//   Cloudflare's `web-bot-auth` verifier accepts this form, and so does a verifier that resolves
//   dictionary members; the working group's draft lets a verifier accept it as legacy.
// - `'ietf-01'`: a Structured Field Dictionary (RFC 9651) whose member, keyed by the signature's
//   label, names the key directory's origin, covered as `"signature-agent";key="sig1"` (RFC 9421
//   §2.1.2). A verifier that does not resolve `;key=` rebuilds another base and refuses it.
// The signature base is RFC 9421 §2.5's; `@authority` is §2.2.3's. Where each form comes from,
// and which verifiers accept it, is in docs/web-bot-auth.md.

import { type JsonWebKey, randomBytes, sign } from 'node:crypto';
import { type Item, serializeDictionary, serializeInnerList, serializeItem } from 'structured-headers';
import { PolitelyError } from '../errors.js';
import { type Ed25519PrivateJwk, importSigningKey, type SigningKey } from './keys.js';
import { checkSignatureAgent, signatureAgentWarning, type WebBotAuthDraft } from './signature-agent.js';

export type { WebBotAuthDraft } from './signature-agent.js';

/** The form today's published verifiers accept (Cloudflare's `web-bot-auth` among them), the default. */
export const DEFAULT_WEB_BOT_AUTH_DRAFT: WebBotAuthDraft = 'meunier';

/** The signature label, and the `Signature-Agent` member's key in the dictionary form. */
const LABEL = 'sig1';

/** The `tag` parameter of a Web Bot Auth signature. */
export const WEB_BOT_AUTH_TAG = 'web-bot-auth';

/**
 * Options of `createRequestSigner`: the private key, the `Signature-Agent` URL, the draft's form,
 * and how long a signature is valid.
 */
export interface RequestSignerOptions {
  /** A private Ed25519 JWK (checked by `importSigningKey`). */
  readonly key: JsonWebKey | Ed25519PrivateJwk;
  /**
   * https URL naming the key directory, sent in `Signature-Agent`: its origin
   * (`https://bot.example`), where verifiers look for `/.well-known/http-message-signatures-directory`.
   */
  readonly signatureAgent: string;
  /**
   * Which `Signature-Agent` form to send: `'meunier'`, a quoted string covered as
   * `"signature-agent"`, which Cloudflare's `web-bot-auth` verifier accepts; or `'ietf-01'`, a
   * dictionary member covered as `"signature-agent";key="sig1"`, which only verifiers that
   * resolve `;key=` accept (see docs/web-bot-auth.md).
   * @default 'meunier'
   */
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

/**
 * Signs requests as Web Bot Auth says (RFC 9421 HTTP Message Signatures with an Ed25519 key): made
 * by `createRequestSigner`, used by `signingClient`.
 */
export interface RequestSigner {
  readonly keyid: string;
  readonly draft: WebBotAuthDraft;
  readonly signatureAgent: string;
  /**
   * What may keep verifiers from accepting these signatures, one line each, for the caller to
   * show once: a `signatureAgent` with a path under `'ietf-01'`. Empty when nothing is amiss.
   */
  readonly warnings: readonly string[];
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
  const agent = checkSignatureAgent(options.signatureAgent, `${context}.signatureAgent`);
  const agentWarning = signatureAgentWarning(agent, draft, `${context}.signatureAgent`);
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
    warnings: agentWarning === undefined ? [] : [agentWarning],
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

function item(value: string | Uint8Array): Item {
  return [value, new Map()];
}

function invalid(message: string): PolitelyError {
  return new PolitelyError('ERR_INVALID_OPTION', message);
}
