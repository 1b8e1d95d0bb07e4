import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, tokenizeLines } from '../../src/robots/tokenize.js';

const texts = (bytes: string) => tokenizeLines(bytes).map((line) => line.bytes);

describe('tokenizeLines', () => {
  it('google: LF, CRLF, CR, mixed endings and a missing final newline give the same lines', () => {
    const body = ['User-Agent: foo', 'Allow: /some/path', 'User-Agent: bar', '', '', 'Disallow: /'];
    const expected = body;
    expect(texts(body.join('\n'))).toEqual(expected);
    expect(texts(body.join('\r\n'))).toEqual(expected);
    expect(texts(body.join('\r'))).toEqual(expected);
    expect(texts('User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\nDisallow: /')).toEqual(expected);
  });

  it('google: a final newline yields one extra empty last line', () => {
    expect(texts('a: b\n')).toEqual(['a: b', '']);
    expect(tokenizeLines('a: b\n').map((l) => l.number)).toEqual([1, 2]);
  });

  it('google: "\\r\\n" is one line break and "\\r\\r" two', () => {
    expect(texts('a\r\nb')).toEqual(['a', 'b']);
    expect(texts('a\r\rb')).toEqual(['a', '', 'b']);
    expect(texts('a\n\rb')).toEqual(['a', '', 'b']);
  });

  it('google: a whole or partial BOM at the very start is skipped', () => {
    expect(texts('\xEF\xBB\xBFuser-agent: x')).toEqual(['user-agent: x']);
    expect(texts('\xEF\xBBuser-agent: x')).toEqual(['user-agent: x']);
    expect(texts('\xEFuser-agent: x')).toEqual(['user-agent: x']);
  });

  it('google: a broken BOM keeps its unmatched bytes, and a BOM in the middle is not skipped', () => {
    expect(texts('\xEF\x11\xBFuser-agent: x')).toEqual(['\x11\xBFuser-agent: x']);
    expect(texts('a: b\n\xEF\xBB\xBFc: d')).toEqual(['a: b', '\xEF\xBB\xBFc: d']);
  });

  it('google: a line is cut at 2083 * 8 - 1 bytes and flagged', () => {
    const long = 'x'.repeat(MAX_LINE_BYTES + 10);
    const [first, second] = tokenizeLines(`${long}\nnext`);
    expect(first?.bytes).toHaveLength(MAX_LINE_BYTES);
    expect(first?.tooLong).toBe(true);
    expect(second).toMatchObject({ bytes: 'next', tooLong: false, number: 2 });
  });
});
