// `politely keys directory`: what a bot operator publishes at
// /.well-known/http-message-signatures-directory — the JSON body and the headers that must go
// with it (its signatures, made with each key, expire: the command says when, and how to
// refresh them). Read from private key files; what is written holds public keys only.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  KEY_DIRECTORY_PATH,
  PolitelyError,
  readSigningKeyFile,
  type SignedKeyDirectory,
  signedKeyDirectory,
} from '@politely/core';
import { CliError } from '../cli-error.js';
import { EXIT_OK, type ExitCode } from '../exit-codes.js';
import { durationOption } from '../input/parse-number.js';
import { quoteInput, toSafeJson } from '../input/quote-input.js';
import { type Io, write } from '../io.js';
import { parseOptions } from '../parse-options.js';
import { KEYS_USAGE } from '../usage.js';

const COMMAND = 'keys directory';

const OPTIONS = {
  'signature-agent': { type: 'string' },
  'valid-for': { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The file the body is written to under `--out DIR`, and the file of its headers. */
export const DIRECTORY_BODY_FILE = 'http-message-signatures-directory';
export const DIRECTORY_HEADERS_FILE = 'http-message-signatures-directory.headers';

export async function runKeysDirectory(args: readonly string[], io: Io): Promise<ExitCode> {
  const { values, positionals } = parseOptions(
    args,
    { command: COMMAND, usage: KEYS_USAGE, options: OPTIONS, allowPositionals: true },
    (checked) => parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
  );
  if (values.help === true) {
    await write(io.stdout, KEYS_USAGE);
    return EXIT_OK;
  }
  if (positionals.length === 0)
    throw new CliError(`${COMMAND}: give the private key FILE(s) that sign the directory`, { usage: KEYS_USAGE });
  const agent = values['signature-agent'];
  if (agent === undefined)
    throw new CliError(`${COMMAND}: give --signature-agent URL (where the directory is published)`, {
      usage: KEYS_USAGE,
    });
  const validForMs =
    values['valid-for'] === undefined ? undefined : durationOption(COMMAND, '--valid-for', values['valid-for'], 1000);
  const warnings: string[] = [];
  const directory = makeDirectory(positionals, authorityOf(agent), validForMs, warnings);
  for (const warning of warnings) await write(io.stderr, `politely: warning: ${warning}\n`);
  const out = values.out;
  if (out !== undefined) writeDirectory(out, directory);
  if (values.json === true) {
    await write(
      io.stdout,
      `${toSafeJson({ path: KEY_DIRECTORY_PATH, ...directory, refreshBy: refreshBy(directory) })}\n`,
    );
    return EXIT_OK;
  }
  await write(io.stdout, describe(directory, out));
  return EXIT_OK;
}

/** The directory's host, from the URL a crawl sends in `Signature-Agent`. */
function authorityOf(agent: string): string {
  let url: URL;
  try {
    url = new URL(agent);
  } catch {
    throw new CliError(`${COMMAND}: --signature-agent must be an absolute https URL, got ${quoteInput(agent)}`);
  }
  if (url.protocol !== 'https:')
    throw new CliError(`${COMMAND}: --signature-agent must be an https URL, got ${quoteInput(agent)}`);
  return url.host;
}

/**
 * Reads the key files and signs; no message quotes a file's content (it holds a private key).
 * A key file open to its group or others adds a line to `warnings`.
 */
function makeDirectory(
  files: readonly string[],
  authority: string,
  validForMs: number | undefined,
  warnings: string[],
): SignedKeyDirectory {
  const keys = files.map((file) => {
    try {
      const read = readSigningKeyFile(file, `key file ${quoteInput(file)}`);
      warnings.push(...read.warnings);
      return read.jwk;
    } catch (error) {
      if (error instanceof PolitelyError) throw new CliError(`${COMMAND}: ${error.message}`);
      throw error;
    }
  });
  try {
    return signedKeyDirectory(keys, {
      authority,
      ...(validForMs === undefined ? {} : { validForSeconds: Math.max(1, Math.floor(validForMs / 1000)) }),
    });
  } catch (error) {
    if (!(error instanceof PolitelyError)) throw error;
    const message = error.message.replace(
      /^keys\[(\d+)\]/,
      (_, i: string) => `key file ${quoteInput(files[Number(i)]!)}`,
    );
    throw new CliError(`${COMMAND}: ${message}`);
  }
}

function writeDirectory(dir: string, directory: SignedKeyDirectory): void {
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, DIRECTORY_BODY_FILE), directory.body);
    writeFileSync(join(dir, DIRECTORY_HEADERS_FILE), headerLines(directory));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`${COMMAND}: cannot write to ${quoteInput(dir)} (${code ?? 'error'})`);
  }
}

function headerLines(directory: SignedKeyDirectory): string {
  const names: Record<string, string> = {
    'content-type': 'Content-Type',
    'content-digest': 'Content-Digest',
    'signature-input': 'Signature-Input',
    signature: 'Signature',
  };
  return Object.entries(directory.headers)
    .map(([name, value]) => `${names[name] ?? name}: ${value}\n`)
    .join('');
}

/** A quarter of the validity before it ends: time to refresh, with room for a missed run. */
function refreshBy(directory: SignedKeyDirectory): number {
  return directory.expires - Math.floor((directory.expires - directory.created) / 4);
}

function describe(directory: SignedKeyDirectory, out: string | undefined): string {
  const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();
  const where =
    out === undefined
      ? `Body:\n${directory.body}\n\nHeaders:\n${headerLines(directory)}`
      : `wrote ${quoteInput(join(out, DIRECTORY_BODY_FILE))} (the body) and ${quoteInput(join(out, DIRECTORY_HEADERS_FILE))} (its headers)\n`;
  return (
    `Serve at https://${directory.authority}${KEY_DIRECTORY_PATH} (keys ${directory.keyids.join(', ')}):\n` +
    `${where}\n` +
    `The signatures cover the host ${directory.authority} and the body; they expire ${iso(directory.expires)}.\n` +
    `Refresh before then (by ${iso(refreshBy(directory))}): run this command again and serve the new\n` +
    `headers with the new body (the body changes only when the keys do).\n`
  );
}
