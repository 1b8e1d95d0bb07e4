// What `politely crawl` puts on the wire besides its identity: --header (repeatable), --from,
// --cookies, --proxy, and the Web Bot Auth signature (--signing-key, --signature-agent,
// --signature-draft). Checked with the crawler's own checks, so the CLI refuses what
// createCrawler would, as a usage error that names the flag.

import type { JsonWebKey } from 'node:crypto';
import {
  checkContactAddress,
  checkRequestHeaders,
  createRequestSigner,
  maskHeaderLine,
  PolitelyError,
  readSigningKeyFile,
  type SignMode,
  type WebBotAuthDraft,
} from '@politely/core';
import { displayProxyUrl, parseProxyUrl } from '@politely/core/internal';
import { CliError } from '../cli-error.js';
import { quoteInput } from '../input/quote-input.js';

export interface EgressOptions {
  /** `--header 'Name: value'`: sent with every request (names lower-cased). */
  readonly headers: Readonly<Record<string, string>>;
  /** `--from EMAIL`: sent as `From`. */
  readonly from: string | undefined;
  /** `--cookies`: a cookie jar for the crawl (kept in a sqlite:/redis: store). */
  readonly cookies: boolean;
  /** `--proxy URL`: one egress proxy. */
  readonly proxy: string | undefined;
  /** `--signing-key FILE --signature-agent URL [--signature-draft D]`: sign every request (Web Bot Auth). */
  readonly signing:
    | {
        readonly key: JsonWebKey;
        readonly signatureAgent: string;
        readonly draft: WebBotAuthDraft;
        /** `--sign always|on-challenge` (default always). */
        readonly sign: SignMode;
        readonly keyid: string;
        /** Said once before the crawl: the key file open to its group or others. */
        readonly warnings: readonly string[];
      }
    | undefined;
}

export interface EgressValues {
  readonly header?: readonly string[] | undefined;
  readonly from?: string | undefined;
  readonly cookies?: boolean | undefined;
  readonly proxy?: string | undefined;
  readonly 'signing-key'?: string | undefined;
  readonly 'signature-agent'?: string | undefined;
  readonly 'signature-draft'?: string | undefined;
  readonly sign?: string | undefined;
}

export function parseEgressOptions(values: EgressValues): EgressOptions {
  return {
    headers: parseHeaders(values.header ?? []),
    from: values.from === undefined ? undefined : usage(() => checkContactAddress(values.from, 'crawl: --from')),
    cookies: values.cookies === true,
    proxy: values.proxy === undefined ? undefined : usage(() => parseProxyUrl(values.proxy, 'crawl: --proxy').href),
    signing: parseSigning(values),
  };
}

/**
 * The signing key (a private Ed25519 JWK file) and its directory URL, checked as createCrawler
 * checks them. No message quotes the file's content: it holds the private key.
 */
function parseSigning(values: EgressValues): EgressOptions['signing'] {
  const file = values['signing-key'];
  const agent = values['signature-agent'];
  const draft = values['signature-draft'];
  const sign = values.sign ?? 'always';
  if (file === undefined) {
    if (agent !== undefined || draft !== undefined || values.sign !== undefined)
      throw new CliError('crawl: --signature-agent, --signature-draft and --sign need --signing-key FILE');
    return undefined;
  }
  if (sign !== 'always' && sign !== 'on-challenge')
    throw new CliError(`crawl: --sign must be always or on-challenge, got ${quoteInput(sign)}`);
  if (agent === undefined)
    throw new CliError('crawl: --signing-key needs --signature-agent URL (the https URL of your key directory)');
  try {
    const { jwk: key, warnings } = readSigningKeyFile(file, `--signing-key ${quoteInput(file)}`);
    const signer = createRequestSigner(
      { key, signatureAgent: agent, ...(draft === undefined ? {} : { draft: draft as WebBotAuthDraft }) },
      'signing',
    );
    return { key, signatureAgent: signer.signatureAgent, draft: signer.draft, sign, keyid: signer.keyid, warnings };
  } catch (error) {
    if (!(error instanceof PolitelyError)) throw error;
    const message = error.message
      .replace(/^signing\.key/, `--signing-key ${quoteInput(file)}`)
      .replace(/^signing\.signatureAgent/, '--signature-agent')
      .replace(/^signing\.draft/, '--signature-draft');
    throw new CliError(`crawl: ${message}`);
  }
}

/** `Name: value` lines (as curl takes them) → one header set, checked. */
function parseHeaders(lines: readonly string[]): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    if (name === '')
      throw new CliError(
        `crawl: --header: expected 'Name: value', e.g. --header 'Accept-Language: en', got ${quoteInput(maskHeaderLine(line))}`,
      );
    if (seen.has(name.toLowerCase())) throw new CliError(`crawl: --header: the ${name} header is given twice`);
    seen.add(name.toLowerCase());
    headers[name] = line.slice(colon + 1).trim();
  }
  return usage(() => checkRequestHeaders(headers, 'crawl: --header'));
}

/** The check's refusal as a usage error (its message already names the flag). */
function usage<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof PolitelyError) throw new CliError(error.message.replace(/^(crawl: --\w+): proxy /, '$1: '));
    throw error;
  }
}

/** The report's lines for these options (header values and a proxy's password are not shown). */
export function egressSettings(options: EgressOptions): [string, string][] {
  const settings: [string, string][] = [];
  const names = Object.keys(options.headers);
  if (names.length > 0) settings.push(['--header', names.join(', ')]);
  if (options.from !== undefined) settings.push(['--from', options.from]);
  if (options.cookies) settings.push(['--cookies', 'on']);
  if (options.proxy !== undefined) settings.push(['--proxy', displayProxyUrl(new URL(options.proxy))]);
  if (options.signing !== undefined)
    settings.push([
      '--signing-key',
      `keyid ${options.signing.keyid}, ${options.signing.draft}, sign ${options.signing.sign}, agent ${options.signing.signatureAgent}`,
    ]);
  return settings;
}
