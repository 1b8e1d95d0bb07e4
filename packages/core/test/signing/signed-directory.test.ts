// The signed key directory, served from a loopback server and checked by the independent verifier
// (test/support/rfc9421-verify.ts: its own Content-Digest, thumbprints and signature base): one
// signature per key, each binding the keys to the host, none valid for another host or body.

import { createPrivateKey } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  KEY_DIRECTORY_MEDIA_TYPE,
  KEY_DIRECTORY_PATH,
  PolitelyError,
  signDirectoryResponse,
  signedKeyDirectory,
} from '@politely/core';
import { describe, expect, it } from 'vitest';
import { testKey, verifyDirectoryResponse } from '../../../../test/support/rfc9421-verify.js';

/**
 * Serves what `make` gives for the server's own authority (known once it listens on port 0) at
 * the well-known path, and fetches it as a verifier would.
 */
async function serveAndFetch(make: (authority: string) => { body: string; headers: Readonly<Record<string, string>> }) {
  let served: { body: string; headers: Readonly<Record<string, string>> } | undefined;
  const server = createServer((req, res) => {
    if (req.url === KEY_DIRECTORY_PATH && served !== undefined) res.writeHead(200, served.headers).end(served.body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const authority = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  served = make(authority);
  try {
    const response = await fetch(`http://${authority}${KEY_DIRECTORY_PATH}`);
    return {
      authority,
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

// RFC 9421 Appendix B.1.4's test-key-ed25519 (its published private key, PKCS#8), and the
// "Signed Directory Response" test vector of draft-ietf-webbotauth-httpsig-protocol (editor's
// copy, thibmeu/http-message-signatures-directory): body, digest and signature.
const RFC9421_ED25519 = createPrivateKey(
  '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----\n',
).export({ format: 'jwk' });
const VECTOR = {
  body: '{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}',
  contentDigest: 'sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:',
  signatureInput:
    '("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";tag="http-message-signatures-directory"',
  signature: ':l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:',
};

describe('signDirectoryResponse', () => {
  it("reproduces the draft's signed directory response test vector byte for byte", () => {
    const signed = signDirectoryResponse(VECTOR.body, [RFC9421_ED25519], {
      authority: 'signature-agent.test',
      nowMs: 1735689600_000,
      validForSeconds: 4889289600 - 1735689600,
    });
    expect(signed.headers['content-digest']).toBe(VECTOR.contentDigest);
    expect(signed.headers['signature-input']).toBe(`sig1=${VECTOR.signatureInput}`);
    expect(signed.headers.signature).toBe(`sig1=${VECTOR.signature}`);
    const check = verifyDirectoryResponse({
      requestAuthority: 'signature-agent.test',
      headers: signed.headers,
      body: VECTOR.body,
    });
    expect(check).toMatchObject({
      digestOk: true,
      keys: [{ ok: true, keyid: 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U' }],
    });
  });

  it('refuses to sign with a key the body does not publish, or a body that is no directory', () => {
    const other = testKey();
    const options = { authority: 'signature-agent.test' };
    expect(() => signDirectoryResponse(VECTOR.body, [other.jwk], options)).toThrow('is not in the directory body');
    expect(() => signDirectoryResponse('[]', [RFC9421_ED25519], options)).toThrow('must be JSON: {"keys":[…]}');
  });
});

describe('signedKeyDirectory', () => {
  it('makes a body and headers whose every signature verifies for the host it is served from', async () => {
    const keys = [testKey(), testKey()];
    let directory: ReturnType<typeof signedKeyDirectory> | undefined;
    const fetched = await serveAndFetch((authority) => {
      directory = signedKeyDirectory(
        keys.map((k) => k.jwk),
        { authority, validForSeconds: 3600, nowMs: Date.now() },
      );
      return directory;
    });
    const { authority } = fetched;
    expect(fetched.headers['content-type']).toBe(KEY_DIRECTORY_MEDIA_TYPE);
    const check = verifyDirectoryResponse({
      requestAuthority: authority,
      headers: fetched.headers,
      body: fetched.body,
    });
    expect(check.digestOk).toBe(true);
    expect(check.keys.map((k) => [k.label, k.keyid, k.ok, k.tag])).toEqual([
      ['sig1', keys[0]!.thumbprint, true, 'http-message-signatures-directory'],
      ['sig2', keys[1]!.thumbprint, true, 'http-message-signatures-directory'],
    ]);
    for (const k of check.keys) expect(k.expires - k.created).toBe(3600);
    expect(directory!.keyids).toEqual(keys.map((k) => k.thumbprint));
    const body = JSON.parse(fetched.body) as { keys: Record<string, string>[] };
    expect(body.keys.map((k) => Object.keys(k).sort())).toEqual([
      ['crv', 'kid', 'kty', 'x'],
      ['crv', 'kid', 'kty', 'x'],
    ]);
    for (const k of keys) expect(JSON.stringify(directory)).not.toContain(k.jwk.d as string);
  });

  it('verifies for no other host and no other body', async () => {
    const key = testKey();
    const directory = signedKeyDirectory([key.jwk], { authority: 'bot.example' });
    const served = await serveAndFetch(() => directory);
    // Served from 127.0.0.1:PORT, the signature made for bot.example does not verify.
    expect(verifyDirectoryResponse({ requestAuthority: served.authority, ...served }).keys[0]!.ok).toBe(false);
    expect(verifyDirectoryResponse({ requestAuthority: 'bot.example', ...served }).keys[0]!.ok).toBe(true);
    const tampered = directory.body.replace('"keys"', '"keys" ');
    expect(verifyDirectoryResponse({ requestAuthority: 'bot.example', ...served, body: tampered }).digestOk).toBe(
      false,
    );
  });

  it('refuses no key, a public key, a bad authority or validity, without quoting a private part', () => {
    const key = testKey();
    const d = key.jwk.d as string;
    const cases: [() => unknown, string][] = [
      [() => signedKeyDirectory([], { authority: 'bot.example' }), 'at least one private key'],
      [
        () =>
          signedKeyDirectory([{ kty: 'OKP', crv: 'Ed25519', x: key.jwk.x as string }], { authority: 'bot.example' }),
        'keys[0] is a public key',
      ],
      [
        () => signedKeyDirectory([{ ...key.jwk, x: testKey().jwk.x as string }], { authority: 'bot.example' }),
        'keys[0].x is not',
      ],
      [() => signedKeyDirectory([key.jwk], { authority: 'https://bot.example/' }), 'authority must be a host'],
      [() => signedKeyDirectory([key.jwk], { authority: 'bot.example:443' }), 'authority must be a host'],
      [() => signedKeyDirectory([key.jwk], { authority: 'bot.example', validForSeconds: 0 }), 'validForSeconds'],
      [() => signedKeyDirectory([key.jwk], { authority: 'bot.example', validForSeconds: 1.5 }), 'validForSeconds'],
    ];
    for (const [build, expected] of cases) {
      let caught: unknown;
      try {
        build();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(PolitelyError);
      expect((caught as PolitelyError).code).toBe('ERR_INVALID_OPTION');
      expect((caught as Error).message).toContain(expected);
      expect(String((caught as Error).message)).not.toContain(d.slice(0, 10));
    }
  });
});
