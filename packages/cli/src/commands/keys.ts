// `politely keys generate FILE`: a Web Bot Auth signing key, written as a private JWK that only
// its owner can read; what is printed is the public half and its thumbprint, never `d`.

import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateSigningKey, publicJwkOf } from '@politely/core';
import { CliError } from '../cli-error.js';
import { EXIT_OK, type ExitCode } from '../exit-codes.js';
import { quoteInput, toSafeJson } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { KEYS_USAGE } from '../usage.js';
import { runKeysDirectory } from './keys-directory.js';

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runKeys(args: readonly string[], io: Io): Promise<ExitCode> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined || subcommand === '--help' || subcommand === '-h' || subcommand === 'help') {
    if (subcommand === undefined)
      throw new CliError('keys: missing command (generate, directory)', { usage: KEYS_USAGE });
    await write(io.stdout, KEYS_USAGE);
    return EXIT_OK;
  }
  if (subcommand === 'directory') return runKeysDirectory(rest, io);
  if (subcommand !== 'generate')
    throw new CliError(`keys: unknown command ${quoteInput(subcommand)}`, { usage: KEYS_USAGE });
  const { values, positionals } = parseOptions(
    rest,
    { command: 'keys generate', usage: KEYS_USAGE, options: OPTIONS, allowPositionals: true },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, KEYS_USAGE);
    return EXIT_OK;
  }
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0)
    throw new CliError('keys generate: give exactly one FILE to write the key to', { usage: KEYS_USAGE });
  const key = generateSigningKey();
  writeSecret(file, `${JSON.stringify(key)}\n`);
  const publicKey = publicJwkOf(key);
  if (values.json === true) {
    await write(io.stdout, `${toSafeJson({ file, keyid: publicKey.kid, publicKey })}\n`);
  } else {
    await write(
      io.stdout,
      `wrote a private Ed25519 JWK to ${quoteInput(file)} (mode 0600; keep it secret)\n` +
        `keyid (RFC 7638 thumbprint): ${publicKey.kid}\n` +
        `public key: ${JSON.stringify(publicKey)}\n`,
    );
  }
  return EXIT_OK;
}

/** Creates `file` (never overwriting one) readable and writable by its owner only, and writes `text`. */
function writeSecret(file: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'EEXIST'
        ? `keys generate: ${quoteInput(file)} exists: not overwritten (a key is never replaced silently)`
        : `keys generate: cannot create ${quoteInput(file)} (${code ?? 'error'})`,
    );
  }
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
