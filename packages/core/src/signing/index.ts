export type { JsonWebKey } from 'node:crypto';
export type { SigningKeyFile } from './key-file.js';
export { readSigningKeyFile } from './key-file.js';
export type { Ed25519PrivateJwk, Ed25519PublicJwk, SigningKey } from './keys.js';
export {
  generateSigningKey,
  importSigningKey,
  jwkThumbprint,
  KEY_DIRECTORY_MEDIA_TYPE,
  KEY_DIRECTORY_PATH,
  keyDirectory,
  publicJwkOf,
} from './keys.js';
export type { RequestSignature, RequestSigner, RequestSignerOptions, WebBotAuthDraft } from './sign-request.js';
export {
  authorityOf,
  createRequestSigner,
  DEFAULT_WEB_BOT_AUTH_DRAFT,
  SIGNATURE_HEADER_NAMES,
  WEB_BOT_AUTH_TAG,
} from './sign-request.js';
export type { DirectoryResponseSignature, SignedKeyDirectory, SignedKeyDirectoryOptions } from './signed-directory.js';
export { KEY_DIRECTORY_TAG, signDirectoryResponse, signedKeyDirectory } from './signed-directory.js';
export type { SigningClient, SigningClientOptions, SignMode } from './signing-client.js';
export { isSignatureChallenge, SIGNATURE_CHALLENGE_STATUSES, signingClient } from './signing-client.js';
