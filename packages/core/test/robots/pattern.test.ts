import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompiledPattern, encodeRulePattern } from '../../src/robots/pattern.js';
import { referenceMatches } from './reference-matcher.js';

describe('encodeRulePattern', () => {
  it('google: MaybeEscapePattern cases (non-ASCII bytes encoded, %xx upper-cased)', () => {
    expect(encodeRulePattern('http://www.example.com')).toBe('http://www.example.com');
    expect(encodeRulePattern('/a/b/c')).toBe('/a/b/c');
    expect(encodeRulePattern('\xC3\xA1')).toBe('%C3%A1'); // "á" as UTF-8 bytes
    expect(encodeRulePattern('%aa')).toBe('%AA');
  });

  it('conformance rule 3: unreserved escapes decoded; %2A and %24 stay literal', () => {
    expect(encodeRulePattern('/foo/bar/%62%61%7A')).toBe('/foo/bar/baz');
    expect(encodeRulePattern('/a%2A%24*$')).toBe('/a%2A%24*$');
  });

  it('conformance rule 3: path and query characters are encoded as a URL serialiser would', () => {
    expect(encodeRulePattern('/a b"<>`{}')).toBe('/a%20b%22%3C%3E%60%7B%7D');
    expect(encodeRulePattern("/it's?q='x' {}`")).toBe("/it's?q=%27x%27%20{}`");
    expect(encodeRulePattern('/\x01\x7f')).toBe('/%01%7F');
    expect(encodeRulePattern('/caf\xE9')).toBe('/caf%E9'); // a Latin-1 byte keeps its value
  });
});

describe('CompiledPattern', () => {
  it('rfc9309 2.2.3: * matches any run of characters and a final $ anchors the end', () => {
    expect(new CompiledPattern('/fish').matches('/fish.html')).toBe(true);
    expect(new CompiledPattern('/*.php$').matches('/folder/filename.php')).toBe(true);
    expect(new CompiledPattern('/*.php$').matches('/filename.php?parameters')).toBe(false);
    expect(new CompiledPattern('/fish*.php').matches('/fishheads/catfish.php?parameters')).toBe(true);
    expect(new CompiledPattern('/a$b').matches('/a$b')).toBe(true); // $ is literal inside
    expect(new CompiledPattern('$').matches('/')).toBe(false);
    expect(new CompiledPattern('*$').matches('/anything')).toBe(true);
  });

  it('priority is the pattern length', () => {
    expect(new CompiledPattern('/x/page.html').priority).toBe(12);
  });

  it('agrees with the reference matcher on random patterns and paths', () => {
    const alphabet = fc.constantFrom('a', 'b', '/', '*', '$', '.');
    const text = (max: number) => fc.array(alphabet, { maxLength: max }).map((a) => a.join(''));
    fc.assert(
      fc.property(text(12), text(20), (pattern, tail) => {
        const path = '/' + tail.replace(/[*$]/g, 'a');
        expect(new CompiledPattern(pattern).matches(path)).toBe(referenceMatches(path, pattern));
      }),
      { numRuns: 20_000 },
    );
  });

  it('does not backtrack on pathological patterns', () => {
    const pattern = new CompiledPattern('/*a*a*a*a*a*a*a*a*a*a*b');
    const path = '/' + 'a'.repeat(2000);
    for (let i = 0; i < 1000; i++) expect(pattern.matches(path)).toBe(false);
    expect(pattern.matches(path + 'b')).toBe(true);
  });
});
