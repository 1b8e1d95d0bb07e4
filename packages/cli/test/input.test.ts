// The input rules every command shares: one number rule, one URL rule, one way to show input.

import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/cli-error.js';
import { parseHttpUrl } from '../src/input/http-url.js';
import {
  describeDuration,
  describeWholeNumber,
  durationOption,
  MAX_DURATION_MS,
  parseDurationMs,
  parseWholeNumber,
  wholeNumberOption,
} from '../src/input/parse-number.js';
import { escapeControls, MAX_QUOTED_CHARS, quoteInput, toSafeJson } from '../src/input/quote-input.js';
import { type CommandLine, checkCommandLine, parseOptions } from '../src/parse-options.js';

const REFUSED = [
  '0x10',
  '1e3',
  '1.5',
  '+3',
  ' 3',
  '3 ',
  '-1',
  '',
  '٣',
  '1_000',
  '0b1',
  'Infinity',
  'NaN',
  '3ms ',
  '2S',
  '2 s',
  '1.5s',
  '-0',
];

describe('parseWholeNumber', () => {
  it('takes decimal digits only', () => {
    expect(parseWholeNumber('0')).toEqual({ ok: true, value: 0 });
    expect(parseWholeNumber('42')).toEqual({ ok: true, value: 42 });
    expect(parseWholeNumber('007')).toEqual({ ok: true, value: 7 });
    expect(parseWholeNumber('9007199254740991')).toEqual({ ok: true, value: Number.MAX_SAFE_INTEGER });
  });

  it.each(REFUSED)('refuses %j', (text) => {
    expect(parseWholeNumber(text)).toEqual({ ok: false, problem: 'format' });
  });

  it('refuses units, values under min (format) and over max or unsafe (range)', () => {
    expect(parseWholeNumber('5ms').ok).toBe(false);
    expect(parseWholeNumber('0', 1)).toEqual({ ok: false, problem: 'format' });
    expect(parseWholeNumber('11', 0, 10)).toEqual({ ok: false, problem: 'range' });
    expect(parseWholeNumber('9007199254740992')).toEqual({ ok: false, problem: 'range' });
    expect(parseWholeNumber('99999999999999999999999')).toEqual({ ok: false, problem: 'range' });
  });
});

describe('parseDurationMs', () => {
  it('is milliseconds without a unit, and takes ms or s', () => {
    expect(parseDurationMs('1500')).toEqual({ ok: true, value: 1500 });
    expect(parseDurationMs('500ms')).toEqual({ ok: true, value: 500 });
    expect(parseDurationMs('2s')).toEqual({ ok: true, value: 2000 });
    expect(parseDurationMs('2m')).toEqual({ ok: true, value: 120_000 });
    expect(parseDurationMs('6h')).toEqual({ ok: true, value: 21_600_000 });
    expect(parseDurationMs('7d')).toEqual({ ok: true, value: 604_800_000 });
    expect(parseDurationMs('30d', 0, 365 * 86_400_000)).toEqual({ ok: true, value: 2_592_000_000 });
    expect(parseDurationMs('0')).toEqual({ ok: true, value: 0 });
    expect(parseDurationMs('0s')).toEqual({ ok: true, value: 0 });
    expect(parseDurationMs(String(MAX_DURATION_MS))).toEqual({ ok: true, value: MAX_DURATION_MS });
  });

  it.each([...REFUSED, 'ms', 's', 'd', '2min', '2hr', '2D', '1d12h', '2sec', '2msx', '2ss', '1s500ms'])(
    'refuses %j',
    (text) => {
      expect(parseDurationMs(text)).toEqual({ ok: false, problem: 'format' });
    },
  );

  it('refuses values under min (format) and over a timer’s limit (range)', () => {
    expect(parseDurationMs('0', 1)).toEqual({ ok: false, problem: 'format' });
    expect(parseDurationMs('0s', 1)).toEqual({ ok: false, problem: 'format' });
    expect(parseDurationMs(String(MAX_DURATION_MS + 1))).toEqual({ ok: false, problem: 'range' });
    expect(parseDurationMs('2147484s')).toEqual({ ok: false, problem: 'range' });
    expect(parseDurationMs('30d')).toEqual({ ok: false, problem: 'range' });
    expect(parseDurationMs('9999999999999999999s')).toEqual({ ok: false, problem: 'range' });
  });
});

describe('wholeNumberOption and durationOption', () => {
  const message = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
      expect((error as CliError).usage).toBeUndefined();
      return (error as Error).message;
    }
    throw new Error('did not throw');
  };

  it('return the number', () => {
    expect(wholeNumberOption('crawl', '--max-pages', '10', 1)).toBe(10);
    expect(durationOption('crawl', '--delay', '2s', 0)).toBe(2000);
    expect(durationOption('crawl', '--delay', '250', 0)).toBe(250);
  });

  it('say what was expected and quote what was given, in one shape', () => {
    expect(message(() => durationOption('crawl', '--delay', '-5', 0))).toBe(
      'crawl: --delay: expected a whole number of milliseconds (or 2s, 500ms), got "-5"',
    );
    expect(message(() => durationOption('robots explain', '--timeout', '0', 1))).toBe(
      'robots explain: --timeout: expected a whole number of milliseconds ≥ 1 (or 2s, 500ms), got "0"',
    );
    expect(message(() => durationOption('crawl', '--timeout', '9999999999', 1))).toBe(
      'crawl: --timeout: expected a whole number of milliseconds from 1 to 2147483647 (or 2s, 500ms), got "9999999999"',
    );
    expect(message(() => wholeNumberOption('crawl', '--max-pages', '1e3', 1))).toBe(
      'crawl: --max-pages: expected a whole number ≥ 1, got "1e3"',
    );
    expect(message(() => wholeNumberOption('crawl', '--max-depth', '0x10', 0))).toBe(
      'crawl: --max-depth: expected a whole number, got "0x10"',
    );
    expect(message(() => wholeNumberOption('crawl', '--max-depth', '\u001b[2J', 0))).toBe(
      'crawl: --max-depth: expected a whole number, got "\\u001b[2J"',
    );
  });

  it('describe the expectation the same way the messages do', () => {
    expect(describeWholeNumber(0)).toBe('a whole number');
    expect(describeWholeNumber(1)).toBe('a whole number ≥ 1');
    expect(describeDuration(0)).toBe('a whole number of milliseconds (or 2s, 500ms)');
  });
});

describe('quoteInput', () => {
  it('quotes as JSON does', () => {
    expect(quoteInput('plain')).toBe('"plain"');
    expect(quoteInput('')).toBe('""');
    expect(quoteInput('say "hi" \\ there')).toBe('"say \\"hi\\" \\\\ there"');
    expect(quoteInput('café ✓ 😀')).toBe('"café ✓ 😀"');
  });

  it('escapes C0 controls, DEL, C1 controls and bidi overrides and isolates', () => {
    expect(quoteInput('\u001b[2J')).toBe('"\\u001b[2J"');
    expect(quoteInput('a\u0007b\rc\nd\te\u0000')).toBe('"a\\u0007b\\rc\\nd\\te\\u0000"');
    expect(quoteInput('\u007f\u0080\u009b\u009f')).toBe('"\\u007f\\u0080\\u009b\\u009f"');
    expect(quoteInput('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069')).toBe(
      '"\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069"',
    );
    expect(quoteInput('\u200e\u200f\u061c\u2028\u2029')).toBe('"\\u200e\\u200f\\u061c\\u2028\\u2029"');
    expect(quoteInput('\u00a0')).toBe('"\u00a0"'); // just past C1: printable
  });

  it('never lets a terminal control through, whatever the input', () => {
    let all = '';
    for (let c = 0; c < 0x3000; c++) all += String.fromCharCode(c);
    expect(quoteInput(all)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it(`cuts a value longer than ${MAX_QUOTED_CHARS} characters, with an ellipsis and its length`, () => {
    const long = `http://example.com/${'a'.repeat(1000)}`;
    const quoted = quoteInput(long);
    expect(quoted).toBe(`"${long.slice(0, MAX_QUOTED_CHARS)}…" (${long.length} characters)`);
    expect(quoteInput('a'.repeat(MAX_QUOTED_CHARS))).toBe(`"${'a'.repeat(MAX_QUOTED_CHARS)}"`);
    // Characters, not UTF-16 units: an emoji is not split.
    const emoji = '😀'.repeat(MAX_QUOTED_CHARS + 1);
    expect(quoteInput(emoji)).toBe(`"${'😀'.repeat(MAX_QUOTED_CHARS)}…" (${MAX_QUOTED_CHARS + 1} characters)`);
    // A 10 MB value costs no more than its first characters.
    expect(quoteInput('\u001b'.repeat(10_000_000)).length).toBeLessThan(MAX_QUOTED_CHARS * 6 + 40);
  });
});

describe('escapeControls and toSafeJson', () => {
  it('escapeControls escapes in place, and keeps newlines when asked', () => {
    expect(escapeControls('a\u001b[31mb\nc\u202e')).toBe('a\\u001b[31mb\\nc\\u202e');
    expect(escapeControls('a\u001b[31mb\nc', { keepNewlines: true })).toBe('a\\u001b[31mb\nc');
    expect(escapeControls('nothing to do: "x" \\')).toBe('nothing to do: "x" \\');
  });

  it('toSafeJson is JSON that parses to the same value, with no raw terminal control', () => {
    const value = { id: '\u001b[2J\u0007\u009b\u202e\u2066\u007f', list: [1, '\r'] };
    const json = toSafeJson(value);
    expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(json)).toEqual(value);
    const pretty = toSafeJson([value], 2);
    expect(pretty).toContain('\n  {');
    expect(JSON.parse(pretty)).toEqual([value]);
  });
});

describe('parseHttpUrl', () => {
  it('takes absolute http(s) URLs only', () => {
    expect(parseHttpUrl('http://h/x')?.href).toBe('http://h/x');
    expect(parseHttpUrl('HTTPS://H')?.href).toBe('https://h/');
    for (const bad of [
      'not a url',
      '',
      '/relative',
      'h/x',
      'ftp://h/x',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'http://',
      'mailto:a@b',
    ]) {
      expect(parseHttpUrl(bad), bad).toBeNull();
    }
  });
});

describe('parseOptions', () => {
  const OPTIONS = {
    delay: { type: 'string' },
    ua: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const;
  const LINE: CommandLine = {
    command: 'test',
    usage: 'USAGE',
    options: OPTIONS,
    allowPositionals: true,
    numeric: ['delay'],
  };
  const parse = (args: string[], line: CommandLine = LINE) =>
    parseOptions(args, line, (checked) =>
      parseArgs({ args: checked, options: OPTIONS, allowPositionals: true, strict: true }),
    );
  const failure = (args: string[], line: CommandLine = LINE): CliError => {
    try {
      parse(args, line);
    } catch (error) {
      expect(error).toBeInstanceOf(CliError);
      return error as CliError;
    }
    throw new Error('did not throw');
  };

  it('hands a negative number to the number rule instead of calling it a missing value', () => {
    expect(checkCommandLine(['--delay', '-5', 'x'], LINE)).toEqual(['--delay=-5', 'x']);
    expect(parse(['--delay', '-5']).values.delay).toBe('-5');
    expect(parse(['--delay=-5']).values.delay).toBe('-5');
    expect(parse(['--delay', '-x', '--json']).values).toEqual({ delay: '-x', json: true });
  });

  it('an unknown option or a missing value: one line naming the command, and the usage', () => {
    for (const [args, message] of [
      [['--fix'], 'test: unknown option "--fix"'],
      [['-x'], 'test: unknown option "-x"'],
      [['--\u001b[2J'], 'test: unknown option "--\\u001b[2J"'],
      [['--delay'], 'test: --delay needs a value'],
      [['--delay', '--json'], "test: --delay needs a value (write --delay=VALUE for one that starts with '-')"],
      [['--delay', '-h'], "test: --delay needs a value (write --delay=VALUE for one that starts with '-')"],
      [['--ua', '-Bot'], "test: --ua needs a value (write --ua=VALUE for one that starts with '-')"],
    ] as const) {
      const error = failure([...args]);
      expect(error.message, JSON.stringify(args)).toBe(message);
      expect(error.usage).toBe('USAGE');
    }
  });

  it('a value given to a flag is a bad value: one line, no usage', () => {
    const error = failure(['--json=yes']);
    expect(error.message).toBe('test: --json: takes no value, got "yes"');
    expect(error.usage).toBeUndefined();
  });

  it('an argument a command does not take is named, with the usage', () => {
    const error = failure(['stray'], { ...LINE, allowPositionals: false });
    expect(error.message).toBe('test: unexpected argument "stray"');
    expect(error.usage).toBe('USAGE');
  });

  it('leaves a good command line as it is', () => {
    const args = ['--ua=-Bot', '--delay', '5', '-h', 'a', '--', '--json'];
    expect(checkCommandLine(args, LINE)).toEqual(args);
    expect(parse(args)).toMatchObject({ values: { ua: '-Bot', delay: '5', help: true }, positionals: ['a', '--json'] });
  });
});
