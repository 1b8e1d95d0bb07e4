// Fuzzing the robots.txt parser, matcher and linter with input written by strangers: arbitrary
// bytes and text, and generated files that look like robots.txt but are full of traps (BOM
// fragments, NUL bytes, CR/LF mixes, lines at the 16,663-byte cap, runs of `*` and `$`, broken
// percent-escapes, invalid UTF-8), checked against hostile URLs and user agents.
// What must hold: nothing throws, `explain` agrees with `isAllowed`, answers are deterministic,
// and time stays linear in the size of the file and of the URL. Saved nasty files are replayed.
// Runs: FUZZ_RUNS (see fuzz-support.ts); `pnpm fuzz` runs many more.

import { lintRobotsTxt, parseRobotsTxt, type RobotsTxt } from '@politely/core';
import { matchPathOf } from '@politely/core/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesOf,
  cpuMsOf,
  fuzzParams,
  fuzzTimeoutMs,
  MAX_RATIO_FOR_8X,
  measureScaling,
  readCorpus,
} from './fuzz-support.js';

/** The line cap of the tokenizer (2083 × 8 − 1 bytes, as in google/robotstxt). */
const MAX_LINE_BYTES = 16_663;
const MAX_PARSED_BYTES = 500 * 1024;

// --- generators ----------------------------------------------------------------------------------

/** Bytes the tokenizer, the directive reader and the matcher treat specially. */
const SPECIAL_BYTES = [
  0x0a, 0x0d, 0x00, 0xef, 0xbb, 0xbf, 0x2a, 0x24, 0x25, 0x3a, 0x23, 0x20, 0x09, 0x2f, 0x3f, 0xff, 0xc3, 0x80,
];

const hostileBytes = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 255 }) },
      { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_BYTES) },
    ),
    {
      maxLength: 3000,
    },
  )
  .map((values) => Uint8Array.from(values));

/** One "character" of hostile text: any code point, or a lone surrogate, a BOM, a line break… */
const oddChar = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\ud800',
      '\udfff',
      '\ufeff',
      '\uffff',
      '\u0000',
      '\r',
      '\n',
      '\u2028',
      '\u0085',
      '*',
      '$',
      '%',
      ':',
      '#',
    ),
  },
);
const hostileText = fc.string({ unit: oddChar, maxLength: 400 });

/** A run of bytes (chars 0–255), for byte strings. */
const byteChunk = (maxLength: number) => fc.string({ unit: 'binary-ascii', maxLength });

const BOM_PREFIXES = ['', '', '', '\xef', '\xef\xbb', '\xef\xbb\xbf', '\xef\xbb\xbf\xef\xbb\xbf', '\xbb\xbf'];
const LINE_ENDINGS = ['\n', '\n', '\r\n', '\r', '\n\r', '\r\r\n', '\0\n'];
const KEYS = [
  'User-agent',
  'user-agent',
  'USER-AGENT',
  'useragent',
  'user agent',
  'User-Agent ',
  'Allow',
  'allow',
  'ALLOWED',
  'Disallow',
  'disallow',
  'dissallow',
  'dissalow',
  'disalow',
  'diasllow',
  'disallaw',
  'Sitemap',
  'site-map',
  'Crawl-delay',
  'crawl-delay',
  'crawldelay',
  'crawl delay',
  'host',
  'noindex',
  'clean-param',
  'unicorns',
  '\xef\xbb\xbfDisallow',
  '',
];
const SEPARATORS = [':', ': ', ' :', ' : ', '\t:\t', ' ', '\t', '', '::', ':\0', ': \xef\xbb\xbf'];
const AGENT_VALUES = [
  '*',
  '* ',
  '*\tjunk',
  '*bot',
  'Googlebot',
  'googlebot',
  'Googlebot/2.1',
  'Bingbot',
  'my-bot',
  'my_bot',
  'MY-BOT',
  'Foo Bot',
  '',
  ' ',
  '\xc3\xa9-bot',
];
const PATH_FRAGMENTS = [
  '/',
  '/',
  'a',
  'b',
  'ab',
  '*',
  '**',
  '$',
  '$$',
  '*$',
  '%2A',
  '%2a',
  '%24',
  '%',
  '%2',
  '%zz',
  '%e9',
  '%E9',
  '%41',
  '%7e',
  '%2F',
  '%2f',
  '%25',
  '?',
  '?q=1',
  '&',
  '=',
  '#frag',
  ' ',
  '\t',
  '.',
  '..',
  '/./',
  '/../',
  'index.htm',
  '/index.html',
  '"',
  '<',
  '>',
  '`',
  '{',
  '}',
  "'",
  '|',
  '^',
  '\\',
  '[',
  ']',
  ';',
  '\0',
  '\x7f',
  '\x85',
  '\xff',
  '\xc3\xa9',
  '\xe6\x97\xa5',
  '\xc3',
  '\xed\xa0\x80',
  '\xef\xbb\xbf',
];
const OTHER_VALUES = [
  'http://h.test/s.xml',
  'https://h.test/\xc3\xbc',
  'ftp://x',
  'not a url',
  '1',
  '1.5',
  '-1',
  '.5',
  '1e3',
  'NaN',
  'Infinity',
  '9'.repeat(400),
];

const repeated = (unit: string, max: number) => fc.integer({ min: 1, max }).map((n) => unit.repeat(n));

/** A rule value: path fragments, runs of wildcards and escapes, raw bytes. */
const pathValue = fc
  .array(
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...PATH_FRAGMENTS) },
      { weight: 1, arbitrary: repeated('*', 300) },
      { weight: 1, arbitrary: repeated('$', 300) },
      { weight: 1, arbitrary: repeated('a*', 100) },
      { weight: 1, arbitrary: repeated('%', 100) },
      { weight: 1, arbitrary: byteChunk(12) },
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(''));

const value = fc.oneof(
  { weight: 6, arbitrary: pathValue },
  { weight: 2, arbitrary: fc.constantFrom(...AGENT_VALUES) },
  { weight: 1, arbitrary: fc.constantFrom(...OTHER_VALUES) },
  { weight: 1, arbitrary: byteChunk(20) },
);
const key = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: byteChunk(10) });
const comment = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.constantFrom('#', ' #', '\t# '), byteChunk(10)).map(([mark, text]) => mark + text),
);

/** A line around the 16,663-byte cap: a directive padded with one filler to a length near it. */
const longLine = fc
  .tuple(
    fc.constantFrom('Disallow: /', 'Allow: /', 'User-agent: ', 'Sitemap: http://h.test/', '# ', 'Crawl-delay: 1'),
    fc.integer({ min: MAX_LINE_BYTES - 24, max: MAX_LINE_BYTES + 24 }),
    fc.constantFrom('a', '*', 'a*', '%', '$', '\xff', '*$', '%2A'),
  )
  .map(([head, length, fill]) => (head + fill.repeat(Math.ceil(length / fill.length))).slice(0, length));

const line = fc.oneof(
  {
    weight: 14,
    arbitrary: fc
      .tuple(fc.constantFrom('', '', ' ', '\t'), key, fc.constantFrom(...SEPARATORS), value, comment)
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: longLine },
  { weight: 1, arbitrary: byteChunk(30) },
);

/** A robots.txt-like file, as a byte string. */
const robotsFile = fc
  .tuple(
    fc.constantFrom(...BOM_PREFIXES),
    fc.array(fc.tuple(line, fc.constantFrom(...LINE_ENDINGS)), { maxLength: 40 }),
    fc.boolean(),
  )
  .map(
    ([bom, lines, lastEol]) =>
      bom + lines.map(([text, eol], i) => text + (i < lines.length - 1 || lastEol ? eol : '')).join(''),
  );

const SCHEMES = [
  'http://',
  'https://',
  'HTTP://',
  'hTTps://',
  'http:',
  'http:/',
  'http:\\\\',
  'ftp://',
  'file://',
  'file:',
  'javascript:',
  'data:text/plain,',
  'mailto:',
  'web+x://',
  'urn:',
  '//',
  '',
  ' http://',
  '\thttp://',
  'http\t://',
  'ht tp://',
];
const HOSTS = [
  'h.test',
  'H.TEST',
  'h.test:8080',
  'h.test:',
  'h.test:99999',
  'h.test:-1',
  '[::1]',
  '[::1',
  '127.0.0.1',
  '0x7f.1',
  '1.2.3.4.5',
  'user:pw@h.test',
  '@h.test',
  'xn--nxasmq6b.test',
  'xn--a',
  'é.test',
  'h .test',
  'h%2Etest',
  '%',
  '',
  'h.test.',
  'a'.repeat(300),
  '\u0000',
  'h.test\\',
];
const URL_FRAGMENTS = [
  '/',
  '/',
  'a',
  'b',
  '.',
  '..',
  '/./',
  '/../',
  '%2e',
  '%2E%2e',
  '%',
  '%2',
  '%zz',
  '%41',
  '%7e',
  '%2F',
  '%2A',
  '%24',
  'é',
  '日本',
  '\u00ff',
  ' ',
  '\t',
  '\n',
  '\r',
  '"',
  '<',
  '>',
  '`',
  '{',
  '}',
  '|',
  '^',
  '\\',
  '[',
  ']',
  "'",
  '*',
  '$',
  '?',
  '??',
  '#',
  '#/',
  '&',
  '=',
  ';',
  '\u0000',
  '\u007f',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\uffff',
  'index.html',
  'robots.txt',
  '/robots.txt',
];
const urlPath = fc
  .array(
    fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...URL_FRAGMENTS) },
      { weight: 1, arbitrary: fc.string({ unit: oddChar, maxLength: 10 }) },
      { weight: 1, arbitrary: repeated('a', 5000) },
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));
/** A very long URL (5,000 to 100,000 characters) of one repeated piece. */
const veryLongUrl = fc
  .tuple(
    fc.constantFrom('http://h.test/', 'https://h.test/a?', 'h.test/', '/x', 'mailto:', 'http://h.test/%'),
    fc.constantFrom('a', 'a*', '%2e', '/..', 'é', ' ', '%', '$', '?', '/', '%zz'),
    fc.integer({ min: 5000, max: 100_000 }),
  )
  .map(([head, unit, length]) => head + unit.repeat(Math.ceil(length / unit.length)));
const url = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(fc.constantFrom(...SCHEMES), fc.constantFrom(...HOSTS), urlPath).map((parts) => parts.join('')),
  },
  { weight: 2, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  { weight: 2, arbitrary: hostileText },
  { weight: 1, arbitrary: veryLongUrl },
);

const USER_AGENTS = [
  'Googlebot',
  'googlebot/2.1 (+http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; Googlebot/2.1)',
  'Bingbot',
  'my-bot',
  'MY_BOT',
  '*',
  '',
  ' ',
  'é',
  'bot*',
  'Foo Bot',
  'x'.repeat(10_000),
];
const userAgent = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...USER_AGENTS) },
  { weight: 1, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

// --- checks ----------------------------------------------------------------------------------------

/** A parsed URL, when the string is one (isAllowed and explain also take URL objects). */
function urlObjectOf(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** Every question about one URL and agent: none may throw, and all must agree with each other. */
function checkQuestion(robots: RobotsTxt, u: string | URL, ua: string): boolean {
  const allowed = robots.isAllowed(u, ua);
  expect(typeof allowed).toBe('boolean');
  const explanation = robots.explain(u, ua);
  expect(explanation.allowed).toBe(allowed);
  expect(explanation.path).toBe(matchPathOf(u));
  expect(explanation.userAgent).toBe(ua);
  if (explanation.basis === 'rule') {
    const rule = explanation.rule!;
    expect(rule.type).toBe(allowed ? 'allow' : 'disallow');
    // The deciding rule is one of the file's own rules, in a group that was chosen.
    expect(robots.groups.some((group) => group.rules.includes(rule))).toBe(true);
  } else {
    expect(allowed).toBe(true);
    expect(explanation.rule).toBeUndefined();
  }
  if (explanation.groupKind === 'none') expect(['no-matching-group', 'robots-txt']).toContain(explanation.basis);
  const delay = robots.crawlDelay(ua);
  if (delay !== undefined) expect(delay >= 0 && Number.isFinite(delay)).toBe(true);
  return allowed;
}

/** Structural facts about any parse. */
function checkParse(robots: RobotsTxt, inputBytes: number): void {
  expect(robots.totalBytes).toBe(inputBytes);
  expect(robots.parsedBytes).toBeLessThanOrEqual(Math.min(inputBytes, MAX_PARSED_BYTES));
  expect(robots.truncated).toBe(inputBytes > MAX_PARSED_BYTES);
  let lastLine = 0;
  for (const group of robots.groups) {
    expect(group.userAgents.length).toBeGreaterThan(0);
    for (const rule of group.rules) {
      // Patterns are in the one encoded form URLs are compared in: printable ASCII only.
      expect(rule.pattern).toMatch(/^[\x21-\x7e]*$/);
      expect(rule.line).toBeGreaterThan(lastLine);
      lastLine = rule.line;
    }
  }
  expect(robots.isAllowed('http://h.test/robots.txt', 'Googlebot')).toBe(true);
}

const SEVERITIES = new Set(['error', 'warning', 'info']);

function checkLint(input: string | Uint8Array, lineCount: number): void {
  const diagnostics = lintRobotsTxt(input);
  let previous = 1;
  for (const diagnostic of diagnostics) {
    expect(diagnostic.line).toBeGreaterThanOrEqual(previous);
    expect(diagnostic.line).toBeLessThanOrEqual(lineCount);
    expect(SEVERITIES.has(diagnostic.severity)).toBe(true);
    expect(typeof diagnostic.message).toBe('string');
    previous = diagnostic.line;
  }
  // A handful of findings per line at most: the report is as bounded as the file.
  expect(diagnostics.length).toBeLessThanOrEqual(8 * lineCount + 1);
}

/** Lines as the tokenizer counts them (an upper bound once the file is cut at the size cap). */
function lineCountOf(bytes: Uint8Array): number {
  let lines = 1;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) lines++;
    else if (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a) lines++;
    else if (bytes[i] === 0x0d) {
      lines++;
      i++;
    }
  }
  return lines;
}

const questions = fc.array(fc.tuple(url, userAgent), { minLength: 1, maxLength: 6 });

// --- properties ----------------------------------------------------------------------------------

describe('parseRobotsTxt, isAllowed, explain and lintRobotsTxt (fuzzed)', () => {
  it('never throw on arbitrary bytes', { timeout: fuzzTimeoutMs(6, 2) }, () => {
    fc.assert(
      fc.property(hostileBytes, questions, (bytes, asked) => {
        const robots = parseRobotsTxt(bytes);
        checkParse(robots, bytes.length);
        for (const [u, ua] of asked) checkQuestion(robots, u, ua);
        checkLint(bytes, lineCountOf(bytes));
      }),
      fuzzParams(2),
    );
  });

  it('never throw on arbitrary text, lone surrogates included', { timeout: fuzzTimeoutMs(6, 2) }, () => {
    fc.assert(
      fc.property(hostileText, questions, (text, asked) => {
        const robots = parseRobotsTxt(text);
        const bytes = new TextEncoder().encode(text);
        checkParse(robots, bytes.length);
        for (const [u, ua] of asked) checkQuestion(robots, u, ua);
        checkLint(text, lineCountOf(bytes));
      }),
      fuzzParams(2),
    );
  });

  it('never throw on hostile robots.txt files: BOM fragments, NULs, CR/LF mixes, lines at the cap, wildcard runs, bad escapes', {
    timeout: fuzzTimeoutMs(10, 4),
  }, () => {
    fc.assert(
      fc.property(robotsFile, questions, (file, asked) => {
        const bytes = bytesOf(file);
        const robots = parseRobotsTxt(bytes);
        checkParse(robots, bytes.length);
        for (const [u, ua] of asked) {
          checkQuestion(robots, u, ua);
          const object = urlObjectOf(u);
          if (object !== null) checkQuestion(robots, object, ua);
        }
        checkLint(bytes, lineCountOf(bytes));
      }),
      fuzzParams(4),
    );
  });

  it('answer deterministically: twice the same file, bytes or text, one object asked many questions or a fresh one per question', {
    timeout: fuzzTimeoutMs(8, 4),
  }, () => {
    // Other agents and URLs in between fill the per-agent rule-set cache and the per-character buckets.
    const noiseAgents = Array.from({ length: 80 }, (_, i) => `noise${String.fromCharCode(97 + (i % 26))}${i}`);
    const noiseUrls = Array.from({ length: 120 }, (_, i) => `http://h.test/${String.fromCharCode(33 + (i % 94))}${i}`);
    fc.assert(
      fc.property(robotsFile, questions, (file, asked) => {
        const bytes = bytesOf(file);
        const shared = parseRobotsTxt(bytes);
        const first = asked.map(([u, ua]) => shared.isAllowed(u, ua));
        for (const noise of noiseAgents) shared.isAllowed('http://h.test/x', noise);
        for (const noise of noiseUrls) shared.isAllowed(noise, asked[0]![1]);
        const again = asked.map(([u, ua]) => shared.explain(u, ua).allowed);
        const fresh = asked.map(([u, ua]) => parseRobotsTxt(bytes).isAllowed(u, ua));
        expect(again).toEqual(first);
        expect(fresh).toEqual(first);
        // Valid UTF-8 parses the same as bytes and as the text they spell (BOM kept as U+FEFF).
        let text: string | null = null;
        try {
          text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
        } catch {
          // not UTF-8: only bytes can say it
        }
        if (text !== null) expect(asked.map(([u, ua]) => parseRobotsTxt(text).isAllowed(u, ua))).toEqual(first);
        expect(lintRobotsTxt(bytes)).toEqual(lintRobotsTxt(bytes));
      }),
      fuzzParams(4),
    );
  });
});

describe('matchPathOf (fuzzed)', () => {
  it('never throws, and gives a "/"-rooted path of printable ASCII', { timeout: fuzzTimeoutMs(1, 0.5) }, () => {
    fc.assert(
      fc.property(url, (u) => {
        const path = matchPathOf(u);
        expect(path.startsWith('/')).toBe(true);
        expect(path).toMatch(/^[\x21-\x7e]*$/);
      }),
      fuzzParams(0.5),
    );
  });

  it('reads a hierarchical URL the same from its string as from its URL object (the fast path agrees with WHATWG)', {
    timeout: fuzzTimeoutMs(1, 0.5),
  }, () => {
    fc.assert(
      fc.property(url, (u) => {
        const object = urlObjectOf(u);
        if (object === null || !object.pathname.startsWith('/')) return;
        expect(matchPathOf(u)).toBe(matchPathOf(object));
      }),
      fuzzParams(0.5),
    );
  });
});

// --- linear time ----------------------------------------------------------------------------------

/** Rule sets written to make a backtracking matcher explode, in one file (all apply to `*`). */
const WILDCARD_HEAVY = parseRobotsTxt(
  [
    'User-agent: *',
    `Disallow: /${'*'.repeat(10_000)}x`,
    `Disallow: /${'a*'.repeat(5_000)}b`,
    `Disallow: /*b${'a'.repeat(8_000)}`,
    `Disallow: /*${'a'.repeat(8_000)}b`,
    `Allow: /*${'ab'.repeat(4_000)}$`,
    `Disallow: /${'*a'.repeat(40)}*b$`,
    `Disallow: /*%2A*%24*${'%'.repeat(50)}*$`,
    ...Array.from({ length: 500 }, (_, i) => `Disallow: /*a*${i}*a*$`),
  ].join('\n'),
);

/** URL shapes, each of (about) `length` characters. */
const LONG_URLS: Readonly<Record<string, (length: number) => string>> = {
  'a run of "a" (fast path)': (n) => `http://h.test/${'a'.repeat(n)}`,
  '"ab" repeated': (n) => `http://h.test/${'ab'.repeat(n >> 1)}`,
  'characters that need encoding (slow path)': (n) => `http://h.test/${'a b%zz^é'.repeat(Math.ceil(n / 8))}`,
  'a relative path with dot segments': (n) => `/a/${'../a/'.repeat(Math.ceil(n / 5))}`,
  'a query of stars and dollars': (n) => `https://h.test/a?${'*$'.repeat(n >> 1)}`,
};

describe('time stays linear (CPU time, medians; 8× the input may cost at most 30× the time)', () => {
  for (const [shape, urlOf] of Object.entries(LONG_URLS)) {
    it(`isAllowed: wildcard-heavy rules against URLs of length n and 8n: ${shape}`, async () => {
      const small = urlOf(4_000);
      const large = urlOf(32_000);
      const scaling = await measureScaling(
        () => WILDCARD_HEAVY.isAllowed(small, 'Googlebot'),
        () => WILDCARD_HEAVY.isAllowed(large, 'Googlebot'),
      );
      expect(scaling.ratio, JSON.stringify(scaling)).toBeLessThan(MAX_RATIO_FOR_8X);
    });
  }

  it('isAllowed: a file of n and 8n wildcard-heavy rules against a long URL', async () => {
    const rules = (n: number) =>
      'User-agent: *\n' + Array.from({ length: n }, (_, i) => `Disallow: /*a*a*${i}*$\nAllow: /a*${i}a\n`).join('');
    const few = parseRobotsTxt(rules(100));
    const many = parseRobotsTxt(rules(800));
    const target = `http://h.test/${'a'.repeat(2_000)}`;
    const scaling = await measureScaling(
      () => few.isAllowed(target, 'x'),
      () => many.isAllowed(target, 'x'),
    );
    expect(scaling.ratio, JSON.stringify(scaling)).toBeLessThan(MAX_RATIO_FOR_8X);
  });

  /** Files of about `bytes` bytes, each built from one repeated unit. */
  const FILE_SHAPES: Readonly<Record<string, string>> = {
    'many short rules': 'User-agent: a\nDisallow: /*a*b$\nAllow: /%E9%zz*\n',
    'lines at the cap': `Disallow: /${'*a'.repeat(MAX_LINE_BYTES)}\n`,
    'non-ASCII and invalid UTF-8, CR line ends': 'User-agent: \xc3\xa9\rDisallow: /\xff\xfe*\xc3\x28$\r',
    'NULs, comments and typos': 'dissallow /\0x # c\nuseragent: b\0\nsitemap: nope\ncrawl-delay: x\n',
  };
  const fileOf = (unit: string, bytes: number) => bytesOf(unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes));

  for (const [shape, unit] of Object.entries(FILE_SHAPES)) {
    it(`parseRobotsTxt and lintRobotsTxt: files of n and 8n bytes: ${shape}`, async () => {
      // 8n stays under the 500 KiB parse cap, so both sizes are parsed whole.
      const small = fileOf(unit, 16_000);
      const large = fileOf(unit, 128_000);
      const parse = await measureScaling(
        () => parseRobotsTxt(small),
        () => parseRobotsTxt(large),
        { warmups: 1 },
      );
      expect(parse.ratio, `parse ${JSON.stringify(parse)}`).toBeLessThan(MAX_RATIO_FOR_8X);
      const lint = await measureScaling(
        () => lintRobotsTxt(small),
        () => lintRobotsTxt(large),
        { warmups: 1 },
      );
      expect(lint.ratio, `lint ${JSON.stringify(lint)}`).toBeLessThan(MAX_RATIO_FOR_8X);
    });
  }

  it('matchPathOf: URLs of length n and 8n that take the slow (WHATWG) path', async () => {
    const urlOf = (n: number) => `http://h.test/${'%2e%2E/./a b/é?'.repeat(Math.ceil(n / 15))}#${'x'.repeat(n)}`;
    const small = urlOf(4_000);
    const large = urlOf(32_000);
    const scaling = await measureScaling(
      () => matchPathOf(small),
      () => matchPathOf(large),
    );
    expect(scaling.ratio, JSON.stringify(scaling)).toBeLessThan(MAX_RATIO_FOR_8X);
  });
});

// --- the saved corpus --------------------------------------------------------------------------------

/** URLs asked of every saved file. */
const CORPUS_URLS = [
  'http://h.test/',
  'http://h.test/x',
  'http://h.test/after-the-long-line',
  `http://h.test/long/${'a'.repeat(16_700)}`,
  `http://h.test/${'a'.repeat(100_000)}x`,
  `http://h.test/${'*'.repeat(20_000)}`,
  'http://h.test/a\0/b',
  'http://h.test/%C3%28',
  'http://h.test/日本/x',
  'mailto:someone@h.test',
  '/relative?q#f',
  '',
  '\ud800',
];
const CORPUS_AGENTS = ['Googlebot', 'botq16', 'bøt', '*', ''];

/** What some saved files must parse to, beyond not throwing. */
const CORPUS_EXPECTATIONS: Readonly<Record<string, (robots: RobotsTxt) => void>> = {
  'line-16664-bytes.txt.gz': (robots) => {
    const rules = robots.groups[0]!.rules;
    // The 16,664-byte line keeps its first 16,663 bytes; the rule after it is read whole.
    expect(rules[0]!.text.length).toBe(MAX_LINE_BYTES);
    expect(rules[0]!.value.endsWith('Z')).toBe(false);
    expect(rules[1]).toMatchObject({ value: '/after-the-long-line', line: 3 });
    expect(robots.isAllowed('http://h.test/after-the-long-line', 'x')).toBe(false);
  },
  'bom-only.txt': (robots) => expect(robots.groups).toEqual([]),
  'bom-partial-then-rules.txt': (robots) => expect(robots.isAllowed('http://h.test/x', 'x')).toBe(false),
  'disallow-1mb.txt.gz': (robots) => {
    expect(robots.truncated).toBe(true);
    expect(robots.isAllowed('http://h.test/x', 'x')).toBe(false);
  },
  'html-page.txt': (robots) => expect(robots.isAllowed('http://h.test/inside-pre', 'x')).toBe(false),
  'stars-10000.txt.gz': (robots) => expect(robots.isAllowed(`http://h.test/${'a'.repeat(50_000)}x`, 'x')).toBe(false),
};

describe('the saved corpus of nasty robots.txt files', () => {
  const corpus = readCorpus('robots');

  it('holds the files the fuzz tests rely on', () => {
    const names = corpus.map((file) => file.name);
    for (const name of Object.keys(CORPUS_EXPECTATIONS)) expect(names).toContain(name);
  });

  for (const file of corpus) {
    it(`replays ${file.name}: no throw, answers agree, time and size bounded`, async () => {
      const text = new TextDecoder().decode(file.bytes);
      const lines = lineCountOf(file.bytes);
      const cpuMs = await cpuMsOf(() => {
        const robots = parseRobotsTxt(file.bytes);
        checkParse(robots, file.bytes.length);
        CORPUS_EXPECTATIONS[file.name]?.(robots);
        for (const ua of CORPUS_AGENTS) for (const u of CORPUS_URLS) checkQuestion(robots, u, ua);
        // The file read as text (invalid UTF-8 replaced) must not throw either.
        const fromText = parseRobotsTxt(text);
        for (const u of CORPUS_URLS) checkQuestion(fromText, u, CORPUS_AGENTS[0]!);
        checkLint(file.bytes, lines);
      });
      // Generous: a few ms per KB of input on a loaded machine; a blow-up takes far longer.
      expect(cpuMs).toBeLessThan(3_000 + 4 * (file.bytes.length / 1024));
    });
  }
});
