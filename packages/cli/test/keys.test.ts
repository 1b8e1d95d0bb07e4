// `politely keys generate`: the key file is the owner's only, its private part is printed nowhere,
// and the key it writes signs (its x is the public half of its d, its kid the thumbprint).

import { createHash, createPrivateKey, createPublicKey, type JsonWebKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'politely-keys-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('politely keys generate', () => {
  it('writes a private Ed25519 JWK with mode 0600 and prints only its public half and thumbprint', async () => {
    const file = join(dir, 'bot.jwk');
    const result = await runCli(['keys', 'generate', file]);
    expect(result.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const jwk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    const derived = createPublicKey(createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' })).export({
      format: 'jwk',
    });
    expect(derived.x).toBe(jwk.x);
    const thumbprint = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${jwk.x}"}`).digest('base64url');
    expect(jwk.kid).toBe(thumbprint);
    expect(result.stdout).toContain(thumbprint);
    expect(result.stdout).toContain(jwk.x);
    expect(`${result.stdout}${result.stderr}`).not.toContain(jwk.d);
  });

  it('prints JSON with --json, never the private part', async () => {
    const file = join(dir, 'bot.jwk');
    const result = await runCli(['keys', 'generate', '--json', file]);
    expect(result.code).toBe(0);
    const jwk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    const printed = JSON.parse(result.stdout) as { keyid: string; publicKey: Record<string, string> };
    expect(printed.keyid).toBe(jwk.kid);
    expect(printed.publicKey).toEqual({ kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: jwk.kid });
    expect(result.stdout).not.toContain(jwk.d);
  });

  it('never overwrites an existing file, and refuses a missing FILE', async () => {
    const file = join(dir, 'bot.jwk');
    writeFileSync(file, 'keep me');
    const result = await runCli(['keys', 'generate', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('exists: not overwritten');
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    const missing = await runCli(['keys', 'generate']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('give exactly one FILE');
  });
});
