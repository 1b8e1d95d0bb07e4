import { checkContactAddress, checkRequestHeaders, PolitelyError } from '@politely/core';
import { FORBIDDEN_REQUEST_HEADERS } from '@politely/core/internal';
import { describe, expect, it } from 'vitest';

/** The PolitelyError `run` throws (failing the test if it throws nothing or something else). */
function thrown(run: () => unknown): PolitelyError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PolitelyError);
    return error as PolitelyError;
  }
  throw new Error('expected an error');
}

const FORBIDDEN = [
  'Connection',
  'Keep-Alive',
  'Proxy-Connection',
  'TE',
  'Trailer',
  'Transfer-Encoding',
  'Upgrade',
  'Proxy-Authorization',
  'Proxy-Authenticate',
  'Host',
  'User-Agent',
  'Content-Length',
  'From',
];

describe('checkRequestHeaders', () => {
  it('returns the headers with names lower-cased and values trimmed', () => {
    expect(
      checkRequestHeaders({ 'Accept-Language': ' fr, en;q=0.5 ', 'X-Trace': 'a1', Cookie: 'a=b' }, 'test'),
    ).toEqual({
      'accept-language': 'fr, en;q=0.5',
      'x-trace': 'a1',
      cookie: 'a=b',
    });
    expect(checkRequestHeaders({}, 'test')).toEqual({});
  });

  it.each(FORBIDDEN)('refuses %s in any case, naming the header and where', (name) => {
    for (const spelled of [name, name.toLowerCase(), name.toUpperCase()]) {
      const error = thrown(() => checkRequestHeaders({ [spelled]: 'x' }, 'createCrawler: headers'));
      expect(error.code).toBe('ERR_INVALID_OPTION');
      expect(error.message).toContain('createCrawler: headers');
      expect(error.message).toContain(`the ${spelled} header may not be set`);
    }
    expect(FORBIDDEN_REQUEST_HEADERS.has(name.toLowerCase())).toBe(true);
  });

  it('says what to use instead of User-Agent and From', () => {
    expect(thrown(() => checkRequestHeaders({ 'User-Agent': 'x' }, 'w')).message).toContain('userAgent option');
    expect(thrown(() => checkRequestHeaders({ From: 'a@b.c' }, 'w')).message).toContain('from option');
  });

  it.each([
    ['a CR LF (header injection)', 'a\r\nX-Injected: 1'],
    ['a bare LF', 'a\nb'],
    ['a bare CR', 'a\rb'],
    ['a NUL', 'a\u0000b'],
    ['a DEL', 'a\u007fb'],
    ['a character past Latin-1', 'caf\u20ac'],
  ])('refuses a value with %s, naming the header', (_what, value) => {
    const error = thrown(() => checkRequestHeaders({ 'X-Note': value }, 'enqueue'));
    expect(error.message).toContain("the X-Note header's value");
    expect(error.message).toContain('enqueue');
  });

  it.each([['Bad Name'], ['X:Colon'], [''], ['X\r\nY'], ['Ünicode']])('refuses the header name %j', (name) => {
    expect(thrown(() => checkRequestHeaders({ [name]: 'v' }, 'w')).message).toContain('not a valid header name');
  });

  it('refuses values that are not strings, sets that are not objects, and a name given twice', () => {
    expect(thrown(() => checkRequestHeaders({ 'X-N': 1 }, 'w')).message).toContain(
      "the X-N header's value must be a string, got 1",
    );
    expect(thrown(() => checkRequestHeaders(['a'], 'w')).message).toContain('got an array');
    expect(thrown(() => checkRequestHeaders('a: b', 'w')).message).toContain('must be an object');
    expect(thrown(() => checkRequestHeaders(null, 'w')).message).toContain('got null');
    expect(thrown(() => checkRequestHeaders({ 'X-A': '1', 'x-a': '2' }, 'w')).message).toContain('given twice');
  });

  it('throws the code asked for (ERR_INVALID_INPUT for a request of a running crawl)', () => {
    expect(thrown(() => checkRequestHeaders({ Host: 'x' }, 'page.enqueue', 'ERR_INVALID_INPUT')).code).toBe(
      'ERR_INVALID_INPUT',
    );
  });
});

describe('checkContactAddress', () => {
  it('accepts an e-mail address, trimmed', () => {
    expect(checkContactAddress(' crawler-ops@example.com ', 'from')).toBe('crawler-ops@example.com');
    expect(checkContactAddress('a.b+bot@mail.example.co.uk', 'from')).toBe('a.b+bot@mail.example.co.uk');
  });

  it.each([
    ['not-an-address'],
    ['@example.com'],
    ['ops@'],
    ['ops@localhost'],
    ['ops@example.com\r\nX: y'],
    ['Ops <ops@example.com>'],
    [''],
    [42],
  ])('refuses %j, naming where', (value) => {
    const error = thrown(() => checkContactAddress(value, 'createCrawler: from'));
    expect(error.code).toBe('ERR_INVALID_OPTION');
    expect(error.message).toContain('createCrawler: from must be an e-mail address');
  });
});
