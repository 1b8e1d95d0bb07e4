import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let dir = '';
let withError = '';
let withWarnings = '';
let clean = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'politely-lint-'));
  withError = join(dir, 'error.txt');
  writeFileSync(withError, 'Disallow: /early\nUser-agent: *\nDissallow: /a\nSitemap: /sitemap.xml\n');
  withWarnings = join(dir, 'warnings.txt');
  writeFileSync(withWarnings, 'User-agent: *\nunicorns: /x\nDisallow /b\n');
  clean = join(dir, 'clean.txt');
  writeFileSync(clean, 'User-agent: *\nDisallow: /private/\nSitemap: https://h.example/s.xml\n');
});

describe('politely robots lint', () => {
  it('prints FILE:LINE: severity: message [code] and a summary; an error means exit 1', async () => {
    const result = await runCli(['robots', 'lint', withError]);
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(new RegExp(`^${escapeRegExp(withError)}:1: warning: .* \\[rule-outside-group\\]$`));
    expect(lines[1]).toBe(
      `${withError}:3: warning: \`Dissallow\` read as \`disallow\` (an accepted misspelling; other crawlers may ignore this line) [accepted-typo]`,
    );
    expect(lines[2]).toMatch(
      new RegExp(`^${escapeRegExp(withError)}:4: error: .*/sitemap\\.xml.* \\[invalid-sitemap-url\\]$`),
    );
    expect(lines[3]).toBe(`${withError}: 1 error, 2 warnings, 0 infos`);
  });

  it('warnings and infos alone exit 0; a clean file says so', async () => {
    const warnings = await runCli(['robots', 'lint', withWarnings]);
    expect(warnings.code).toBe(0);
    expect(warnings.stdout).toContain(`${withWarnings}:2: warning: unknown directive \`unicorns\``);
    expect(warnings.stdout).toContain(`${withWarnings}:3: info: missing colon`);
    const ok = await runCli(['robots', 'lint', clean]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`${clean}: no problems found\n`);
  });

  it('--json prints one JSON array of diagnostics with their file', async () => {
    const result = await runCli(['robots', 'lint', '--json', withError, clean]);
    expect(result.code).toBe(1);
    const diagnostics = JSON.parse(result.stdout) as unknown[];
    expect(diagnostics).toEqual([
      { file: withError, line: 1, severity: 'warning', code: 'rule-outside-group', message: expect.any(String) },
      { file: withError, line: 3, severity: 'warning', code: 'accepted-typo', message: expect.any(String) },
      { file: withError, line: 4, severity: 'error', code: 'invalid-sitemap-url', message: expect.any(String) },
    ]);
  });

  it('an unreadable file is a one-line error and exit 2, after linting the others', async () => {
    const missing = join(dir, 'nope.txt');
    const result = await runCli(['robots', 'lint', missing, clean]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`politely: cannot read robots file '${missing}': no such file or directory\n`);
    expect(result.stdout).toBe(`${clean}: no problems found\n`);
  });

  it('no FILE is a usage error', async () => {
    const result = await runCli(['robots', 'lint']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give at least one FILE');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
