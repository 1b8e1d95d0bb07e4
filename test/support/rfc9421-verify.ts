// An RFC 9421 verifier for Web Bot Auth signatures, written from the RFC's signature-base rules
// (§2.5, §3.2) for the tests: its own parsing of Signature-Input, Signature and Signature-Agent,
// its own base, node:crypto's verify with the public key. It never calls politely's signing code.

import { createHash, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject, verify } from 'node:crypto';

/** An Ed25519 key made with node:crypto alone, and its RFC 7638 thumbprint computed here. */
export function testKey(): { jwk: JsonWebKey; publicKey: KeyObject; thumbprint: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const canonical = `{"crv":"Ed25519","kty":"OKP","x":"${jwk.x}"}`;
  const thumbprint = createHash('sha256').update(canonical).digest('base64url');
  return { jwk, publicKey, thumbprint };
}

export interface Verified {
  readonly path: string;
  readonly ok: boolean;
  readonly why: string;
  readonly keyid: string | undefined;
  readonly nonce: string | undefined;
  readonly created: number;
  readonly expires: number;
  readonly agentHeader: string | undefined;
  readonly signatureInput: string | undefined;
  readonly signature: string | undefined;
}

/** One member of a dictionary of the form `label=<value>` where the header holds one member. */
function oneMember(header: string, label: string): string | undefined {
  const prefix = `${label}=`;
  return header.startsWith(prefix) ? header.slice(prefix.length) : undefined;
}

/**
 * RFC 9421 §3.2 verification of the signature labelled `sig1`: parse the covered components and
 * parameters, rebuild the base (§2.5) from the request as received, verify with the public key.
 */
export function verifyRequest(
  request: { readonly path: string; readonly authority: string; readonly headers: Readonly<Record<string, unknown>> },
  publicKey: KeyObject,
): Verified {
  const { path, authority } = request;
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const input = header('signature-input');
  const signature = header('signature');
  const agentHeader = header('signature-agent');
  const result = (ok: boolean, why: string, params: Map<string, string> = new Map()): Verified => ({
    path,
    ok,
    why,
    keyid: params.get('keyid'),
    nonce: params.get('nonce'),
    created: Number(params.get('created')),
    expires: Number(params.get('expires')),
    agentHeader,
    signatureInput: input,
    signature,
  });
  if (input === undefined || signature === undefined) return result(false, 'unsigned');
  const raw = oneMember(input, 'sig1');
  const inner = raw === undefined ? null : /^\(([^)]*)\)((?:;[a-z]+=(?:"[^"]*"|\d+))*)$/.exec(raw);
  if (raw === undefined || inner === null) return result(false, `unparsed Signature-Input ${input}`);
  const params = new Map<string, string>();
  for (const m of inner[2]!.matchAll(/;([a-z]+)=(?:"([^"]*)"|(\d+))/g)) params.set(m[1]!, m[2] ?? m[3]!);
  const components = inner[1]!.split(' ').filter((c) => c !== '');
  const lines: string[] = [];
  for (const component of components) {
    if (component === '"@authority"') lines.push(`"@authority": ${authority.toLowerCase()}`);
    else if (component === '"signature-agent"') lines.push(`"signature-agent": ${(agentHeader ?? '').trim()}`);
    else {
      const keyed = /^"signature-agent";key="([a-z0-9]+)"$/.exec(component);
      const member = keyed === null || agentHeader === undefined ? undefined : oneMember(agentHeader, keyed[1]!);
      if (member === undefined) return result(false, `cannot cover ${component}`, params);
      lines.push(`${component}: ${member}`);
    }
  }
  lines.push(`"@signature-params": ${raw}`);
  const bytes = oneMember(signature, 'sig1');
  const b64 = bytes === undefined ? null : /^:([A-Za-z0-9+/=]+):$/.exec(bytes);
  if (b64 === null) return result(false, `unparsed Signature ${signature}`, params);
  const ok = verify(null, Buffer.from(lines.join('\n')), publicKey, Buffer.from(b64[1]!, 'base64'));
  return result(ok, ok ? 'verified' : 'bad signature', params);
}

/** What the directory check found for one key of the directory. */
export interface DirectoryKeyCheck {
  readonly label: string;
  readonly keyid: string;
  readonly ok: boolean;
  readonly why: string;
  readonly tag: string | undefined;
  readonly created: number;
  readonly expires: number;
}

/**
 * A key directory's response, checked as a verifier would (draft-meunier-webbotauth-httpsig-
 * directory, "Binding keys to the directory authority"): `Content-Digest` against the body (RFC
 * 9530, computed here), then every signature: its key found in the body by the thumbprint (RFC
 * 7638, computed here) equal to its `keyid`, its base rebuilt from RFC 9421 §2.5 with
 * `"@authority";req` the host the directory was requested from (§2.4), verified with that key.
 */
export function verifyDirectoryResponse(response: {
  readonly requestAuthority: string;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: string;
}): { readonly digestOk: boolean; readonly keys: readonly DirectoryKeyCheck[] } {
  const header = (name: string): string => {
    const value = response.headers[name];
    return typeof value === 'string' ? value : '';
  };
  const digest = /^sha-256=:([A-Za-z0-9+/=]+):$/.exec(header('content-digest'));
  const digestOk = digest !== null && digest[1] === createHash('sha256').update(response.body).digest('base64');
  const directory = JSON.parse(response.body) as { keys: JsonWebKey[] };
  const byThumbprint = new Map<string, JsonWebKey>();
  for (const key of directory.keys) {
    const canonical = `{"crv":"${key.crv}","kty":"${key.kty}","x":"${key.x}"}`;
    byThumbprint.set(createHash('sha256').update(canonical).digest('base64url'), key);
  }
  const signatures = new Map<string, string>();
  for (const m of header('signature').matchAll(/(sig\d+)=:([A-Za-z0-9+/=]+):/g)) signatures.set(m[1]!, m[2]!);
  const keys: DirectoryKeyCheck[] = [];
  for (const m of header('signature-input').matchAll(/(sig\d+)=(\(([^)]*)\)((?:;[a-z]+=(?:"[^"]*"|\d+))*))/g)) {
    const [, label, raw, inner, paramText] = m as unknown as [string, string, string, string, string];
    const params = new Map<string, string>();
    for (const p of paramText.matchAll(/;([a-z]+)=(?:"([^"]*)"|(\d+))/g)) params.set(p[1]!, p[2] ?? p[3]!);
    const lines: string[] = [];
    let why = '';
    for (const component of inner.split(' ').filter((c) => c !== '')) {
      if (component === '"@authority";req') lines.push(`"@authority";req: ${response.requestAuthority.toLowerCase()}`);
      else if (component === '"content-digest"') lines.push(`"content-digest": ${header('content-digest')}`);
      else why = `cannot cover ${component}`;
    }
    lines.push(`"@signature-params": ${raw}`);
    const keyid = params.get('keyid') ?? '';
    const jwk = byThumbprint.get(keyid);
    const bytes = signatures.get(label);
    if (why === '' && jwk === undefined) why = 'no key in the directory has this keyid';
    if (why === '' && bytes === undefined) why = 'no Signature member';
    const ok =
      why === '' &&
      verify(
        null,
        Buffer.from(lines.join('\n')),
        createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk!.x as string }, format: 'jwk' }),
        Buffer.from(bytes!, 'base64'),
      );
    keys.push({
      label,
      keyid,
      ok,
      why: ok ? 'verified' : why || 'bad signature',
      tag: params.get('tag'),
      created: Number(params.get('created')),
      expires: Number(params.get('expires')),
    });
  }
  return { digestOk, keys };
}
