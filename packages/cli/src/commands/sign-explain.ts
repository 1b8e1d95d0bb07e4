// `politely sign explain`: the Web Bot Auth signature a crawl would send to each URL — the
// headers and the RFC 9421 signature base that was signed — for debugging a verifier's refusal.
// Nothing is fetched. The key is read and checked as `crawl --signing-key` reads it.

import { parseArgs } from 'node:util';
import { createRequestSigner } from '@politely/core';
import { CliError } from '../cli-error.js';
import { parseEgressOptions } from '../crawl/egress-options.js';
import { EXIT_OK, type ExitCode } from '../exit-codes.js';
import { quoteInput, toSafeJson } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { SIGN_USAGE } from '../usage.js';

const OPTIONS = {
  'signing-key': { type: 'string' },
  'signature-agent': { type: 'string' },
  'signature-draft': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runSign(args: readonly string[], io: Io): Promise<ExitCode> {
  const [subcommand, ...rest] = args;
  if (subcommand === '--help' || subcommand === '-h' || subcommand === 'help') {
    await write(io.stdout, SIGN_USAGE);
    return EXIT_OK;
  }
  if (subcommand !== 'explain')
    throw new CliError(
      subcommand === undefined ? 'sign: missing command (explain)' : `sign: unknown command ${quoteInput(subcommand)}`,
      { usage: SIGN_USAGE },
    );
  const { values, positionals } = parseOptions(
    rest,
    { command: 'sign explain', usage: SIGN_USAGE, options: OPTIONS, allowPositionals: true },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, SIGN_USAGE);
    return EXIT_OK;
  }
  const signing = signingOf(values);
  if (signing === undefined)
    throw new CliError('sign explain: give --signing-key FILE and --signature-agent URL', { usage: SIGN_USAGE });
  if (positionals.length === 0) throw new CliError('sign explain: give at least one URL', { usage: SIGN_USAGE });
  const signer = createRequestSigner(signing, 'signing');
  for (const warning of [...signing.warnings, ...signer.warnings])
    await write(
      io.stderr,
      `politely: warning: ${warning.replace(/^signing\.signatureAgent /, '--signature-agent ')}\n`,
    );
  for (const url of positionals) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new CliError(`sign explain: not an absolute URL: ${quoteInput(url)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new CliError(`sign explain: not an http(s) URL: ${quoteInput(url)}`);
    const signed = signer.sign(parsed.href);
    if (values.json === true) {
      await write(io.stdout, `${toSafeJson({ url: parsed.href, headers: signed.headers, base: signed.base })}\n`);
      continue;
    }
    const headers = Object.entries(signed.headers)
      .map(([name, value]) => `  ${name}: ${value}`)
      .join('\n');
    const base = signed.base
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n');
    await write(
      io.stdout,
      `${quoteInput(parsed.href)}\n headers (a new created, expires and nonce on every request):\n${headers}\n` +
        ` signature base (RFC 9421 §2.5), signed with keyid ${signer.keyid}:\n${base}\n\n`,
    );
  }
  return EXIT_OK;
}

/** The key and directory, read as `crawl --signing-key` reads them; its messages name this command. */
function signingOf(values: Parameters<typeof parseEgressOptions>[0]): ReturnType<typeof parseEgressOptions>['signing'] {
  try {
    return parseEgressOptions(values).signing;
  } catch (error) {
    if (error instanceof CliError)
      throw new CliError(error.message.replace(/^crawl: /, 'sign explain: '), { usage: SIGN_USAGE });
    throw error;
  }
}
