// `politely keys generate` and `crawl --signing-key`: the key file is the owner's only, its private part is printed nowhere,
// and the key it writes signs (its x is the public half of its d, its kid the thumbprint).

import { createHash, createPrivateKey, createPublicKey, type JsonWebKey } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Verified, verifyDirectoryResponse, verifyRequest } from '../../../test/support/rfc9421-verify.js';
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

describe('politely keys directory', () => {
  it('writes a body and headers that, served from the host, verify for every key; the private keys appear nowhere', async () => {
    const files = [join(dir, 'a.jwk'), join(dir, 'b.jwk')];
    for (const file of files) expect((await runCli(['keys', 'generate', file])).code).toBe(0);
    const jwks = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>);
    let served: { body: string; headers: Record<string, string> } | undefined;
    const server = createServer((req, res) => {
      if (req.url === '/.well-known/http-message-signatures-directory' && served !== undefined)
        res.writeHead(200, served.headers).end(served.body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const authority = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const out = join(dir, 'site');
    const result = await runCli([
      'keys',
      'directory',
      '--signature-agent',
      `https://${authority}/.well-known/http-message-signatures-directory`,
      '--valid-for',
      '2d',
      '--out',
      out,
      ...files,
    ]);
    expect(result.code).toBe(0);
    const body = readFileSync(join(out, 'http-message-signatures-directory'), 'utf8');
    const headerText = readFileSync(join(out, 'http-message-signatures-directory.headers'), 'utf8');
    const headers: Record<string, string> = {};
    for (const line of headerText.trim().split('\n')) {
      const colon = line.indexOf(': ');
      headers[line.slice(0, colon)] = line.slice(colon + 2);
    }
    served = { body, headers };
    const response = await fetch(`http://${authority}/.well-known/http-message-signatures-directory`).finally(
      () => new Promise<void>((resolve) => server.close(() => resolve())),
    );
    const received = { headers: Object.fromEntries(response.headers), body: await response.text() };
    expect(received.headers['content-type']).toBe('application/http-message-signatures-directory+json');
    const check = verifyDirectoryResponse({ requestAuthority: authority, ...received });
    expect(check.digestOk).toBe(true);
    expect(check.keys.map((k) => [k.keyid, k.ok])).toEqual(jwks.map((jwk) => [jwk.kid, true]));
    expect(check.keys.every((k) => k.expires - k.created === 2 * 86400)).toBe(true);
    expect(result.stdout).toContain('expire');
    expect(result.stdout).toContain('Refresh before then');
    for (const jwk of jwks) expect(`${result.stdout}${result.stderr}${body}${headerText}`).not.toContain(jwk.d);
  });

  it('prints the directory as JSON to stdout, and refuses missing input as usage errors', async () => {
    const file = join(dir, 'a.jwk');
    expect((await runCli(['keys', 'generate', file])).code).toBe(0);
    const jwk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    const agent = 'https://bot.example/.well-known/http-message-signatures-directory';
    const json = await runCli(['keys', 'directory', '--signature-agent', agent, '--json', file]);
    expect(json.code).toBe(0);
    const printed = JSON.parse(json.stdout) as { authority: string; expires: number; refreshBy: number; body: string };
    expect(printed.authority).toBe('bot.example');
    expect(printed.refreshBy).toBeLessThan(printed.expires);
    expect(JSON.parse(printed.body)).toEqual({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: jwk.kid }] });
    expect(json.stdout).not.toContain(jwk.d);
    expect(json.stderr).toBe('');
    chmodSync(file, 0o640);
    const open = await runCli(['keys', 'directory', '--signature-agent', agent, '--json', file]);
    expect(open.code).toBe(0);
    expect(open.stderr).toBe(
      `politely: warning: key file ${JSON.stringify(file)} is open to its group (mode 0640) and holds a private key: chmod 600 it\n`,
    );
    const noAgent = await runCli(['keys', 'directory', file]);
    expect(noAgent.code).toBe(2);
    expect(noAgent.stderr).toContain('give --signature-agent URL');
    const noKey = await runCli(['keys', 'directory', '--signature-agent', agent]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('give the private key FILE(s)');
    const pub = join(dir, 'public.jwk');
    writeFileSync(pub, JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: jwk.x }));
    const publicOnly = await runCli(['keys', 'directory', '--signature-agent', agent, pub]);
    expect(publicOnly.code).toBe(2);
    expect(publicOnly.stderr).toContain('is a public key');
  });
});

describe('politely crawl --signing-key', () => {
  const AGENT = 'https://bot.example/.well-known/http-message-signatures-directory';

  it('signs every request of the crawl with the generated key, verified by the site', async () => {
    const file = join(dir, 'bot.jwk');
    expect((await runCli(['keys', 'generate', file])).code).toBe(0);
    const jwk = JSON.parse(readFileSync(file, 'utf8')) as JsonWebKey;
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x as string }, format: 'jwk' });
    const checks: Verified[] = [];
    const server = createServer((req, res) => {
      const check = verifyRequest(
        { path: req.url ?? '', authority: req.headers.host ?? '', headers: req.headers },
        publicKey,
      );
      checks.push(check);
      if (!check.ok) res.writeHead(401).end();
      else if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/a">a</a>');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await runCli([
      'crawl',
      '--ua',
      'SignedBot/1.0',
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '0',
      '--signing-key',
      file,
      '--signature-agent',
      AGENT,
      '--report',
      join(dir, 'report.html'),
      '--warc',
      join(dir, 'crawl.warc'),
      '--out',
      join(dir, 'pages.jsonl'),
      `${base}/`,
    ]).finally(() => new Promise<void>((resolve) => server.close(() => resolve())));
    expect(result.code).toBe(0);
    expect(checks.map((c) => c.path)).toEqual(['/robots.txt', '/', '/a']);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.every((c) => c.keyid === jwk.kid && c.agentHeader === `"${AGENT}"`)).toBe(true);
    // The summary and the report count the signed requests.
    expect(result.stdout + result.stderr).toContain('requests    3 (1 robots.txt, 3 signed)');
    const report = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(report).toContain('<b>3</b><span>signed requests (Web Bot Auth)</span>');
    // The private part is in no output: console, report, records, archive (which holds the signatures).
    const written = readdirSync(dir)
      .filter((name) => name !== 'bot.jwk')
      .map((name) => readFileSync(join(dir, name)).toString('latin1'));
    expect(written.some((text) => text.includes('signature-input'))).toBe(true);
    for (const text of [result.stdout, result.stderr, ...written]) {
      expect(text).not.toContain(jwk.d as string);
      expect(text).not.toContain(Buffer.from(jwk.d as string, 'base64url').toString('latin1'));
    }
  });

  it('--sign on-challenge: unsigned until the site challenges, then one signed retry and signed from then on', async () => {
    const file = join(dir, 'bot.jwk');
    expect((await runCli(['keys', 'generate', file])).code).toBe(0);
    const jwk = JSON.parse(readFileSync(file, 'utf8')) as JsonWebKey;
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x as string }, format: 'jwk' });
    const seen: string[] = [];
    const server = createServer((req, res) => {
      const signed = req.headers['signature'] !== undefined;
      const ok =
        signed &&
        verifyRequest({ path: req.url ?? '', authority: req.headers.host ?? '', headers: req.headers }, publicKey).ok;
      seen.push(`${req.url} ${signed ? (ok ? 'signed' : 'bad') : 'unsigned'}`);
      if (!ok) res.writeHead(403, { 'accept-signature': 'sig1=("@authority");tag="web-bot-auth"' }).end();
      else if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/a">a</a>');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await runCli([
      'crawl',
      '--ua',
      'SignedBot/1.0',
      '--allow-net',
      '127.0.0.0/8',
      '--delay',
      '0',
      '--signing-key',
      file,
      '--signature-agent',
      AGENT,
      '--sign',
      'on-challenge',
      `${base}/`,
    ]).finally(() => new Promise<void>((resolve) => server.close(() => resolve())));
    expect(result.code).toBe(0);
    expect(seen).toEqual(['/robots.txt unsigned', '/robots.txt signed', '/ signed', '/a signed']);
    expect(`${result.stdout}${result.stderr}`).not.toContain(jwk.d as string);
    const bad = await runCli([
      'crawl',
      '--ua',
      'B/1',
      '--signing-key',
      file,
      '--signature-agent',
      AGENT,
      '--sign',
      'never',
      `${base}/`,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sign must be always or on-challenge, got "never"');
  });

  it('warns once of a key file open to others and of a Signature-Agent path ietf-01 verifiers ignore', async () => {
    const file = join(dir, 'bot.jwk');
    expect((await runCli(['keys', 'generate', file])).code).toBe(0);
    const jwk = JSON.parse(readFileSync(file, 'utf8')) as JsonWebKey;
    const server = createServer((req, res) => {
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const crawl = (...flags: string[]) =>
      runCli([
        'crawl',
        '--ua',
        'SignedBot/1.0',
        '--allow-net',
        '127.0.0.0/8',
        '--delay',
        '0',
        '--signing-key',
        file,
        ...flags,
        `${base}/`,
      ]);
    try {
      chmodSync(file, 0o644);
      const open = await crawl('--signature-agent', AGENT, '--signature-draft', 'ietf-01');
      expect(open.code).toBe(0);
      const warnings = open.stderr
        .split('\n')
        .filter((line) => line.includes('warning') || line.includes('not an origin'));
      expect(warnings).toEqual([
        `politely: warning: --signing-key ${JSON.stringify(file)} is open to its group and others (mode 0644) and holds a private key: chmod 600 it`,
        `politely: crawl: --signature-agent "${AGENT}" is not an origin: under draft 'ietf-01' a verifier ignores a Signature-Agent member with a path and looks for keys at https://bot.example/.well-known/http-message-signatures-directory; give "https://bot.example"`,
      ]);
      expect(`${open.stdout}${open.stderr}`).not.toContain(jwk.d as string);
      // The default draft with the origin, from a file only its owner may read: nothing to say.
      chmodSync(file, 0o600);
      const quiet = await crawl('--signature-agent', 'https://bot.example');
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).not.toMatch(/warning|not an origin/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses a bad key file or a missing --signature-agent as usage errors, never printing the key', async () => {
    const file = join(dir, 'bad.jwk');
    const d = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3I';
    writeFileSync(file, JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: 'AAAA', d }));
    const bad = await runCli([
      'crawl',
      '--ua',
      'B/1',
      '--signing-key',
      file,
      '--signature-agent',
      AGENT,
      'http://127.0.0.1:9/',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--signing-key');
    expect(`${bad.stdout}${bad.stderr}`).not.toContain(d.slice(0, 12));
    const lone = await runCli(['crawl', '--ua', 'B/1', '--signing-key', file, 'http://127.0.0.1:9/']);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toContain('--signing-key needs --signature-agent');
  });
});

describe('politely sign explain', () => {
  it('prints the headers and the signature base a crawl would send, which verify, and never the key', async () => {
    const file = join(dir, 'bot.jwk');
    expect((await runCli(['keys', 'generate', file])).code).toBe(0);
    const jwk = JSON.parse(readFileSync(file, 'utf8')) as JsonWebKey;
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x as string }, format: 'jwk' });
    const agent = 'https://bot.example/.well-known/http-message-signatures-directory';
    const args = ['sign', 'explain', '--signing-key', file, '--signature-agent', agent];
    const result = await runCli([...args, '--json', 'https://Example.com:8443/x?y']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { url: string; headers: Record<string, string>; base: string };
    expect(printed.base.split('\n')[0]).toBe('"@authority": example.com:8443');
    const check = verifyRequest({ path: '/x?y', authority: 'example.com:8443', headers: printed.headers }, publicKey);
    expect(check).toMatchObject({ ok: true, keyid: jwk.kid });
    expect(result.stderr).toBe('');
    const text = await runCli([...args, '--signature-draft', 'meunier', 'https://example.com/']);
    expect(text.stdout).toContain(`"signature-agent": "${agent}"`);
    const ietf = await runCli([...args, '--signature-draft', 'ietf-01', 'https://example.com/']);
    expect(ietf.stdout).toContain(`"signature-agent";key="sig1": "${agent}"`);
    expect(ietf.stderr).toBe(
      `politely: warning: --signature-agent "${agent}" is not an origin: under draft 'ietf-01' a verifier ignores a Signature-Agent member with a path and looks for keys at https://bot.example/.well-known/http-message-signatures-directory; give "https://bot.example"\n`,
    );
    expect(`${result.stdout}${text.stdout}${text.stderr}`).not.toContain(jwk.d as string);
    const lone = await runCli(['sign', 'explain', '--signing-key', file, 'https://example.com/']);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toContain('sign explain: --signing-key needs --signature-agent');
  });
});
