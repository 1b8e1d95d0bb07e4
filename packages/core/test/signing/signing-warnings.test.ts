// The default draft, what a signer warns about (a Signature-Agent path verifiers ignore, a key
// file open to others), and the bounded memory of hosts that challenged an `on-challenge` signer
// (real loopback servers, the real HTTP client).

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createHttpClient,
  createRequestSigner,
  DEFAULT_WEB_BOT_AUTH_DRAFT,
  generateSigningKey,
  PolitelyError,
  readSigningKeyFile,
  signingClient,
} from '@politely/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

function thrown(run: () => unknown): PolitelyError {
  try {
    run();
  } catch (error) {
    if (error instanceof PolitelyError) return error;
    throw error;
  }
  throw new Error('expected a PolitelyError');
}

describe('createRequestSigner', () => {
  it("defaults to draft 'meunier': the quoted-string Signature-Agent that published verifiers accept", () => {
    expect(DEFAULT_WEB_BOT_AUTH_DRAFT).toBe('meunier');
    const signer = createRequestSigner({ key: generateSigningKey(), signatureAgent: 'https://bot.example' });
    expect(signer.draft).toBe('meunier');
    const signed = signer.sign('https://example.com/');
    expect(signed.headers['signature-agent']).toBe('"https://bot.example"');
    expect(signed.headers['signature-input']).toMatch(/^sig1=\("@authority" "signature-agent"\);created=/);
  });

  it("warns once for a Signature-Agent with a path, query or fragment under 'ietf-01' only", () => {
    const key = generateSigningKey();
    const warningsOf = (signatureAgent: string, draft: 'ietf-01' | 'meunier'): readonly string[] =>
      createRequestSigner({ key, signatureAgent, draft }).warnings;
    const path = 'https://bot.example/.well-known/http-message-signatures-directory';
    expect(warningsOf(path, 'ietf-01')).toEqual([
      `signing.signatureAgent "${path}" is not an origin: under draft 'ietf-01' a verifier ignores a ` +
        'Signature-Agent member with a path and looks for keys at ' +
        'https://bot.example/.well-known/http-message-signatures-directory; give "https://bot.example"',
    ]);
    expect(warningsOf('https://bot.example:8443/keys', 'ietf-01')[0]).toContain('give "https://bot.example:8443"');
    expect(warningsOf('https://bot.example/?v=1', 'ietf-01')).toHaveLength(1);
    expect(warningsOf('https://bot.example/#k', 'ietf-01')).toHaveLength(1);
    // An origin, with or without the empty path `/`, is what the draft asks for.
    expect(warningsOf('https://bot.example', 'ietf-01')).toEqual([]);
    expect(warningsOf('https://bot.example/', 'ietf-01')).toEqual([]);
    // The individual drafts let the URL name the directory itself.
    expect(warningsOf(path, 'meunier')).toEqual([]);
  });

  it('refuses a Signature-Agent holding credentials, without quoting them', () => {
    const error = thrown(() =>
      createRequestSigner({ key: generateSigningKey(), signatureAgent: 'https://bot:s3cret@bot.example' }),
    );
    expect(error.code).toBe('ERR_INVALID_OPTION');
    expect(error.message).toBe(
      'signing.signatureAgent must not hold a user name or password: it is sent to every site',
    );
    const plain = thrown(() =>
      createRequestSigner({ key: generateSigningKey(), signatureAgent: 'http://bot:s3cret@bot.example' }),
    );
    expect(plain.message).not.toContain('s3cret');
  });
});

describe('readSigningKeyFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'politely-keyfile-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const writeKey = (name: string, mode: number): { file: string; d: string } => {
    const key = generateSigningKey();
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(key), { mode });
    chmodSync(file, mode); // the umask may have narrowed `mode`
    return { file, d: key.d };
  };

  it('reads a key file only its owner may open, without a warning', () => {
    const { file } = writeKey('owner.jwk', 0o600);
    const read = readSigningKeyFile(file);
    expect(read.warnings).toEqual([]);
    expect(createRequestSigner({ key: read.jwk, signatureAgent: 'https://bot.example' }).keyid).toBe(read.jwk.kid);
  });

  it('warns, naming the file and its mode but never its content, when the group or others may open it', () => {
    for (const [mode, who] of [
      [0o644, 'its group and others'],
      [0o640, 'its group'],
      [0o604, 'others'],
      [0o620, 'its group'],
    ] as const) {
      const { file, d } = writeKey(`open-${mode.toString(8)}.jwk`, mode);
      const read = readSigningKeyFile(file);
      expect(read.warnings).toEqual([
        `key file ${JSON.stringify(file)} is open to ${who} (mode 0${mode.toString(8)}) and holds a private key: chmod 600 it`,
      ]);
      expect(read.warnings.join('')).not.toContain(d);
    }
    const { file } = writeKey('named.jwk', 0o644);
    expect(readSigningKeyFile(file, '--signing-key named.jwk').warnings[0]).toMatch(
      /^--signing-key named\.jwk is open/,
    );
  });

  it('refuses a missing file, a file that is not JSON and JSON that is not an object, quoting no content', () => {
    const missing = thrown(() => readSigningKeyFile(join(dir, 'nowhere.jwk')));
    expect(missing.code).toBe('ERR_INVALID_OPTION');
    expect(missing.message).toContain('cannot be read (ENOENT)');
    const secret = 'c2VjcmV0LXNlY3JldC1zZWNyZXQ';
    const broken = join(dir, 'broken.jwk');
    writeFileSync(broken, `{"kty":"OKP","d":"${secret}"`, { mode: 0o600 });
    const notJson = thrown(() => readSigningKeyFile(broken));
    expect(notJson.message).toBe(`key file ${JSON.stringify(broken)} is not JSON: it must hold one JSON Web Key`);
    expect(`${notJson.message}${String(notJson.cause ?? '')}`).not.toContain(secret.slice(0, 10));
    const array = join(dir, 'array.jwk');
    writeFileSync(array, `["${secret}"]`, { mode: 0o600 });
    expect(thrown(() => readSigningKeyFile(array)).message).toContain('must hold one JSON Web Key (a JSON object)');
  });
});

describe('signingClient', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  /** A site that challenges every unsigned request (403 with Accept-Signature) and serves signed ones. */
  async function challengingSite(): Promise<string> {
    const server = createServer((req, res) => {
      if (req.headers.signature === undefined)
        res.writeHead(403, { 'accept-signature': 'sig1=("@authority");tag="web-bot-auth"' }).end();
      else res.writeHead(200).end('ok');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  const request = (url: string) => ({
    url,
    headers: { 'user-agent': 'SignBot/1.0' },
    timeoutMs: 5000,
    bodyLimit: { maxBytes: 1000, atLimit: 'truncate' as const },
  });

  it('remembers at most maxChallengedHosts challenging hosts, forgetting the least recently used', async () => {
    const [a, b, c] = [await challengingSite(), await challengingSite(), await challengingSite()];
    const signer = createRequestSigner({ key: generateSigningKey(), signatureAgent: 'https://bot.example' });
    const client = signingClient(createHttpClient({ allowNet: ['127.0.0.0/8'] }), signer, {
      sign: 'on-challenge',
      maxChallengedHosts: 2,
    });
    try {
      for (const url of [a!, b!]) {
        const challenged = await client.get(request(url));
        expect(challenged.status).toBe(403);
        expect(client.isChallenge(challenged)).toBe(true);
        expect((await client.get(request(url))).status).toBe(200);
      }
      // `a` was used before `b`: reading it makes it the most recent, so `c` pushes `b` out.
      expect(client.signsUpFront(a!)).toBe(true);
      expect((await client.get(request(c!))).status).toBe(403);
      expect([a, b, c].map((url) => client.signsUpFront(url!))).toEqual([true, false, true]);
      // A forgotten host challenges again, and is learned again.
      const again = await client.get(request(b!));
      expect(client.isChallenge(again)).toBe(true);
      expect(client.signsUpFront(b!)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('refuses a maxChallengedHosts that is not a whole number, 1 or more', async () => {
    const signer = createRequestSigner({ key: generateSigningKey(), signatureAgent: 'https://bot.example' });
    const http = createHttpClient();
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3' as unknown as number]) {
      const error = thrown(() => signingClient(http, signer, { maxChallengedHosts: bad }));
      expect(error.code).toBe('ERR_INVALID_OPTION');
      expect(error.message).toContain('maxChallengedHosts must be a whole number, 1 or more');
    }
    await http.close();
  });
});
