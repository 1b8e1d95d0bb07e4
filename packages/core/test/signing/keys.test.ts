// Web Bot Auth keys: RFC 7638's own example, import checks that never quote the private part,
// the directory body, and a signature checked against node:crypto directly.

import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import {
  createRequestSigner,
  generateSigningKey,
  importSigningKey,
  jwkThumbprint,
  keyDirectory,
  PolitelyError,
  publicJwkOf,
  signingClient,
} from '@politely/core';
import { describe, expect, it } from 'vitest';

// RFC 7638 §3.1: the RSA key of RFC 7517 Appendix A.1 and its published thumbprint.
const RFC7638_RSA = {
  kty: 'RSA',
  e: 'AQAB',
  alg: 'RS256',
  kid: '2011-04-29',
  n:
    '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknj' +
    'hMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQ' +
    'vRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
};

function nodeKey(): { x: string; d: string } {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return { x: jwk.x as string, d: jwk.d as string };
}

function thrown(build: () => unknown): PolitelyError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(PolitelyError);
    return error as PolitelyError;
  }
  throw new Error('expected a throw');
}

describe('jwkThumbprint', () => {
  it("gives RFC 7638's published thumbprint for its example key", () => {
    expect(jwkThumbprint(RFC7638_RSA)).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });

  it('hashes only the required members of an OKP key, so the private part does not change it', () => {
    const { x, d } = nodeKey();
    expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x, d })).toBe(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x }));
  });
});

describe('keys', () => {
  it('generates a private JWK whose kid is its thumbprint, and imports it', () => {
    const key = generateSigningKey();
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    expect(key.kid).toBe(jwkThumbprint(key));
    const imported = importSigningKey(key);
    expect(imported.keyid).toBe(key.kid);
    expect(imported.publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: key.x, kid: key.kid });
    expect(publicJwkOf(key)).toEqual(imported.publicJwk);
  });

  it('writes a directory of public keys only', () => {
    const key = generateSigningKey();
    const body = keyDirectory([key]);
    expect(JSON.parse(body)).toEqual({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: key.x, kid: key.kid }] });
    expect(body).not.toContain(key.d);
  });

  it('refuses bad keys without ever quoting the private part', () => {
    const { x, d } = nodeKey();
    const other = nodeKey();
    const cases: [unknown, string][] = [
      [{ kty: 'OKP', crv: 'Ed25519', x: other.x, d }, 'is not the public key of its "d"'],
      [{ kty: 'OKP', crv: 'Ed25519', x, d: `${d}AA` }, '.d must be 32 bytes'],
      [{ kty: 'OKP', crv: 'Ed25519', x, d: `${d.slice(0, 20)}!${d.slice(21)}` }, '.d must be 32 bytes'],
      [{ kty: 'OKP', crv: 'X25519', x, d }, 'must be an Ed25519 JWK'],
      [{ kty: 'EC', crv: 'P-256', x, d }, 'must be an Ed25519 JWK'],
      [{ kty: 'OKP', crv: 'Ed25519', x }, 'is a public key'],
      [{ kty: 'OKP', crv: 'Ed25519', x, d, kid: 'not-it' }, '.kid must be'],
      ['{"kty":"OKP"}', 'must be a private Ed25519 JWK object'],
    ];
    for (const [key, mention] of cases) {
      const error = thrown(() => importSigningKey(key));
      expect(error.code).toBe('ERR_INVALID_OPTION');
      expect(error.message).toContain(mention);
      expect(error.message).not.toContain(d);
      expect(error.message).not.toContain(d.slice(0, 12));
      expect(JSON.stringify(error)).not.toContain(d.slice(0, 12));
      expect(String(error.cause ?? '')).not.toContain(d.slice(0, 12));
    }
  });
});

describe('createRequestSigner', () => {
  const agent = 'https://bot.example/.well-known/http-message-signatures-directory';

  it('signs @authority and the Signature-Agent member (ietf-01), verifiable with the public key', () => {
    const key = generateSigningKey();
    const signer = createRequestSigner({ key, signatureAgent: agent, draft: 'ietf-01' });
    const signed = signer.sign('https://Example.COM:443/path?q', { nowMs: 1_700_000_000_500, nonce: 'bm9uY2U=' });
    expect(signed.headers['signature-agent']).toBe(`sig1="${agent}"`);
    const params = `("@authority" "signature-agent";key="sig1");created=1700000000;expires=1700000060;keyid="${key.kid}";alg="ed25519";nonce="bm9uY2U=";tag="web-bot-auth"`;
    expect(signed.headers['signature-input']).toBe(`sig1=${params}`);
    expect(signed.base).toBe(
      `"@authority": example.com\n"signature-agent";key="sig1": "${agent}"\n"@signature-params": ${params}`,
    );
    const match = /^sig1=:([A-Za-z0-9+/=]+):$/.exec(signed.headers.signature!);
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
    expect(verify(null, Buffer.from(signed.base), publicKey, Buffer.from(match![1]!, 'base64'))).toBe(true);
  });

  it("sends the individual draft's quoted string with draft 'meunier', and keeps a non-default port", () => {
    const signer = createRequestSigner({ key: generateSigningKey(), signatureAgent: agent, draft: 'meunier' });
    const signed = signer.sign('http://127.0.0.1:8080/');
    expect(signed.headers['signature-agent']).toBe(`"${agent}"`);
    expect(signed.headers['signature-input']).toMatch(/^sig1=\("@authority" "signature-agent"\);created=/);
    expect(signed.base.split('\n').slice(0, 2)).toEqual([
      '"@authority": 127.0.0.1:8080',
      `"signature-agent": "${agent}"`,
    ]);
  });

  it('gives every signature its own nonce and a short expiry', () => {
    const signer = createRequestSigner({ key: generateSigningKey(), signatureAgent: agent });
    const nonces = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const signed = signer.sign('https://example.com/');
      expect(signed.expires - signed.created).toBe(60);
      nonces.add(signed.nonce);
    }
    expect(nonces.size).toBe(50);
  });

  it('refuses a directory that is not https, and an unknown draft', () => {
    const key = generateSigningKey();
    expect(thrown(() => createRequestSigner({ key, signatureAgent: 'http://bot.example/' })).message).toContain(
      'signing.signatureAgent must be an https URL',
    );
    expect(
      thrown(() => createRequestSigner({ key, signatureAgent: agent, draft: 'ietf-99' as 'ietf-01' })).message,
    ).toContain("signing.draft must be 'ietf-01' or 'meunier'");
  });
});

describe('signingClient', () => {
  it('signs every request afresh and replaces signature headers the request already had', async () => {
    const seen: Record<string, string>[] = [];
    const inner = {
      get: async (request: { headers: Readonly<Record<string, string>> }) => {
        seen.push({ ...request.headers });
        return undefined as never;
      },
      close: async () => {},
    };
    const signer = createRequestSigner({ key: generateSigningKey(), signatureAgent: 'https://bot.example/d' });
    const client = signingClient(inner, signer);
    const request = {
      url: 'https://example.com/',
      headers: { 'user-agent': 'B/1', Signature: 'sig1=:AAAA:', 'SIGNATURE-INPUT': 'old' },
      timeoutMs: 1000,
      bodyLimit: { maxBytes: 10, atLimit: 'truncate' as const },
    };
    await client.get(request);
    await client.get(request);
    expect(seen).toHaveLength(2);
    for (const headers of seen) {
      expect(Object.keys(headers).sort()).toEqual(['signature', 'signature-agent', 'signature-input', 'user-agent']);
      expect(headers.signature).not.toBe('sig1=:AAAA:');
    }
    expect(seen[0]!['signature-input']).not.toBe(seen[1]!['signature-input']);
  });
});
