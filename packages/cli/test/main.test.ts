import { readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Io } from '@politely/cli';
import { EXIT_FAILURE, EXIT_OK, main } from '@politely/cli';
import { describe, expect, it } from 'vitest';
import { DEMO_ROBOTS, runCli } from './run-cli.js';

describe('politely', () => {
  it('--help and robots --help print usage to stdout and exit 0', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage:');
    expect(help.stdout).toContain('politely robots explain [--robots FILE] --ua UA');
    expect(help.stderr).toBe('');
    const robotsHelp = await runCli(['robots', '--help']);
    expect(robotsHelp.code).toBe(0);
    expect(robotsHelp.stdout).toContain('politely robots batch');
    expect(robotsHelp.stdout).toContain('politely robots lint');
  });

  it('an unknown command or option prints the usage on stderr and exits 2', async () => {
    const unknown = await runCli(['crawl-everything']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^politely: unknown command "crawl-everything"\n/);
    expect(unknown.stderr).toContain('Usage:');
    const unknownRobots = await runCli(['robots', 'fetch']);
    expect(unknownRobots.code).toBe(2);
    expect(unknownRobots.stderr).toMatch(/^politely: robots: unknown command "fetch"\n/);
    const option = await runCli(['robots', 'lint', '--fix', DEMO_ROBOTS]);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^politely: robots lint: unknown option "--fix"\n/);
    expect(option.stderr).toContain('Usage:');
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage:');
  });

  it('--version prints the package version', async () => {
    const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const result = await runCli(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${packageJson.version}\n` });
  });

  it('the demo robots.txt in examples/ is the one the package ships', () => {
    const example = fileURLToPath(new URL('../../../examples/robots/demo-robots.txt', import.meta.url));
    expect(readFileSync(example, 'utf8')).toBe(readFileSync(DEMO_ROBOTS, 'utf8'));
  });

  it('main runs in-process with injected streams', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const chunks: string[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const io: Io = {
      stdin: Readable.from(['{"id":1,"robots":"User-agent: *\\nDisallow: /","ua":"A","url":"http://h/x"}\n', 'oops\n']),
      stdout,
      stderr,
    };
    const code = await main(['robots', 'batch'], io);
    expect(code).toBe(EXIT_FAILURE);
    const [answer, failure] = chunks
      .join('')
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(answer).toEqual({ id: 1, allowed: false });
    expect(failure).toMatchObject({ id: null, line: 2, error: expect.stringMatching(/^invalid JSON: /) });
    expect(await main(['--help'], io)).toBe(EXIT_OK);
  });
});
