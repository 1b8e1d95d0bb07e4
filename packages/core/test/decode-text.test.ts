import { describe, expect, it } from 'vitest';
import { charsetOf, decodeText } from '../src/text/decode-text.js';

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (char) => char.charCodeAt(0));

describe('charsetOf', () => {
  it('takes a byte order mark before the header and the meta tag', () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...latin1('<meta charset="iso-8859-1">')]);
    expect(charsetOf('text/html; charset=windows-1252', body)).toBe('utf-8');
    expect(charsetOf(undefined, new Uint8Array([0xff, 0xfe, 0x41, 0]))).toBe('utf-16le');
  });

  it('takes the header charset before the meta tag, and the meta tag when the header has none', () => {
    const body = latin1('<meta charset="iso-8859-1">');
    expect(charsetOf('text/html; charset="koi8-r"', body)).toBe('koi8-r');
    expect(charsetOf('text/html', body)).toBe('iso-8859-1');
    expect(charsetOf(undefined, latin1('<p>plain'))).toBeUndefined();
  });
});

describe('decodeText', () => {
  it('decodes by the meta charset, and drops a byte order mark', () => {
    expect(decodeText(latin1('<meta charset=koi8-r><p>\xcd\xc9\xd2'), 'text/html')).toBe('<meta charset=koi8-r><p>мир');
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]), undefined)).toBe('hi');
  });

  it('falls back to UTF-8 on an unknown label, and never throws on bad bytes', () => {
    expect(decodeText(latin1('ok \xff'), 'text/html; charset=no-such-charset')).toBe('ok \ufffd');
  });
});
