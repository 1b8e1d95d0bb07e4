import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResolveRobotsDirectivesInput } from '../../src/extract/meta-robots.js';
import { resolveRobotsDirectives } from '../../src/extract/meta-robots.js';

const resolve = (input: Partial<ResolveRobotsDirectivesInput>) =>
  resolveRobotsDirectives({ metaRobots: [], metaAgent: [], xRobotsTag: [], productToken: 'MyBot', ...input });
const flags = (input: Partial<ResolveRobotsDirectivesInput>) => {
  const { noindex, nofollow } = resolve(input);
  return { noindex, nofollow };
};

describe('resolveRobotsDirectives', () => {
  it('allows everything when there is nothing to read', () => {
    expect(resolve({})).toEqual({ noindex: false, nofollow: false, sources: [] });
  });

  it('reads noindex and nofollow from meta robots, and reports the value', () => {
    expect(resolve({ metaRobots: ['noindex, nofollow'] })).toEqual({
      noindex: true,
      nofollow: true,
      sources: [{ source: 'meta-robots', value: 'noindex, nofollow' }],
    });
    expect(flags({ metaRobots: ['nofollow'] })).toEqual({ noindex: false, nofollow: true });
    expect(flags({ metaRobots: ['noindex'] })).toEqual({ noindex: true, nofollow: false });
  });

  it('none means noindex and nofollow', () => {
    expect(flags({ metaRobots: ['none'] })).toEqual({ noindex: true, nofollow: true });
  });

  it('all, index and follow are no-ops that never undo a restriction', () => {
    expect(resolve({ metaRobots: ['all', 'index, follow'] })).toEqual({ noindex: false, nofollow: false, sources: [] });
    expect(flags({ metaRobots: ['nofollow', 'follow, all'], xRobotsTag: ['index'] })).toEqual({
      noindex: false,
      nofollow: true,
    });
  });

  it('is case-insensitive and whitespace tolerant', () => {
    expect(flags({ metaRobots: ['  NoIndex ,NOFOLLOW  '] })).toEqual({ noindex: true, nofollow: true });
    expect(flags({ metaRobots: ['\tNONE\n'] })).toEqual({ noindex: true, nofollow: true });
    expect(flags({ metaRobots: ['noindex  nofollow'] })).toEqual({ noindex: true, nofollow: true });
    expect(resolve({ metaRobots: ['  nofollow  '] }).sources).toEqual([{ source: 'meta-robots', value: 'nofollow' }]);
  });

  it('ignores unknown directives and valued directives', () => {
    expect(
      resolve({
        metaRobots: ['noarchive, nosnippet, max-snippet: 20, max-image-preview:large, noimageindex, nofollowing'],
      }),
    ).toEqual({ noindex: false, nofollow: false, sources: [] });
    // An RFC 850 date holds a comma and colons; none of it is an agent prefix or a directive.
    expect(flags({ xRobotsTag: ['unavailable_after: Wednesday, 03-Dec-25 13:09:34 GMT'] })).toEqual({
      noindex: false,
      nofollow: false,
    });
  });

  it('reads the meta tag named for our product token as its own source', () => {
    expect(resolve({ metaAgent: ['nofollow'] })).toEqual({
      noindex: false,
      nofollow: true,
      sources: [{ source: 'meta-agent', value: 'nofollow' }],
    });
  });

  it('x-robots-tag: without an agent prefix, applies to every crawler', () => {
    expect(resolve({ xRobotsTag: ['noindex'] })).toEqual({
      noindex: true,
      nofollow: false,
      sources: [{ source: 'x-robots-tag', value: 'noindex' }],
    });
  });

  it('x-robots-tag: a prefix naming another agent does not apply to us', () => {
    expect(resolve({ xRobotsTag: ['googlebot: noindex'] })).toEqual({ noindex: false, nofollow: false, sources: [] });
    expect(flags({ xRobotsTag: ['otherbot: nofollow, noindex'] })).toEqual({ noindex: false, nofollow: false });
  });

  it('x-robots-tag: a prefix naming our token applies, ignoring case, with or without a space', () => {
    expect(flags({ xRobotsTag: ['mybot: nofollow'] })).toEqual({ noindex: false, nofollow: true });
    expect(flags({ xRobotsTag: ['MYBOT:noindex, nofollow'] })).toEqual({ noindex: true, nofollow: true });
  });

  it('x-robots-tag: a prefix scopes the directives after it until the next prefix', () => {
    expect(flags({ xRobotsTag: ['otherbot: noindex, nofollow, MyBot: none'] })).toEqual({
      noindex: true,
      nofollow: true,
    });
    expect(flags({ xRobotsTag: ['MyBot: nofollow, otherbot: noindex'] })).toEqual({ noindex: false, nofollow: true });
    expect(flags({ xRobotsTag: ['noindex, otherbot: nofollow'] })).toEqual({ noindex: true, nofollow: false });
  });

  it('x-robots-tag: a prefix is the prefix of an agent, not of a longer one', () => {
    expect(flags({ xRobotsTag: ['MyBot-News: noindex'] })).toEqual({ noindex: false, nofollow: false });
    expect(flags({ xRobotsTag: ['MyBo: noindex'] })).toEqual({ noindex: false, nofollow: false });
  });

  it('x-robots-tag: several header values are read one by one, each unscoped at its start', () => {
    const robots = resolve({ xRobotsTag: ['otherbot: noindex', 'nofollow', 'max-snippet: 10'] });
    expect(robots).toEqual({
      noindex: false,
      nofollow: true,
      sources: [{ source: 'x-robots-tag', value: 'nofollow' }],
    });
  });

  it('combines every source, most restrictive wins, and reports each that restricted', () => {
    const robots = resolve({
      metaRobots: ['index, follow', 'noindex'],
      metaAgent: ['nofollow'],
      xRobotsTag: ['googlebot: none', 'noindex'],
    });
    expect(robots.noindex).toBe(true);
    expect(robots.nofollow).toBe(true);
    expect(robots.sources).toEqual([
      { source: 'meta-robots', value: 'noindex' },
      { source: 'meta-agent', value: 'nofollow' },
      { source: 'x-robots-tag', value: 'noindex' },
    ]);
  });

  it('an empty product token never matches an agent prefix', () => {
    expect(flags({ productToken: '', xRobotsTag: [': noindex', 'bot: nofollow'] })).toEqual({
      noindex: false,
      nofollow: false,
    });
  });

  it('reads any mix of pieces, prefixes, case and whitespace as the split-and-regex reading did', () => {
    const parts = ['noindex', 'NoFollow', 'none', 'NONE', 'follow', 'all', 'mybot', 'MyBot', 'otherbot', 'max-snippet'];
    const glue = [',', ':', ' ', '\t', '\n', '\u00a0', '\u3000', '\ufeff', '_', '-', '-1', 'x', '\u0130'];
    const value = fc.array(fc.constantFrom(...parts, ...glue), { maxLength: 12 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 3 }), fc.constantFrom('MyBot', ''), (values, productToken) => {
        const input = { metaRobots: values, metaAgent: [], xRobotsTag: values, productToken };
        expect(resolveRobotsDirectives(input)).toEqual(referenceResolve(input));
      }),
      { numRuns: 3000 },
    );
  });
});

/** The reading as it was written first (split, trim, a regex per piece): the model the scanner keeps to. */
function referenceResolve(input: ResolveRobotsDirectivesInput) {
  const valued = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);
  const readValue = (value: string) => {
    const found = { noindex: false, nofollow: false };
    let appliesToUs = true;
    for (const rawPiece of value.split(',')) {
      let piece = rawPiece.trim();
      const prefix = /^([A-Za-z_-]+)\s*:(.*)$/s.exec(piece);
      if (prefix !== null) {
        const name = (prefix[1] ?? '').toLowerCase();
        if (!valued.has(name)) {
          appliesToUs = input.productToken !== '' && name === input.productToken.toLowerCase();
          piece = (prefix[2] ?? '').trim();
        }
      }
      if (!appliesToUs || piece.includes(':')) continue;
      for (const word of piece.split(/\s+/)) {
        const lower = word.toLowerCase();
        if (lower === 'noindex' || lower === 'none') found.noindex = true;
        if (lower === 'nofollow' || lower === 'none') found.nofollow = true;
      }
    }
    return found;
  };
  let noindex = false;
  let nofollow = false;
  const sources: { source: string; value: string }[] = [];
  const read = (source: string, values: readonly string[]) => {
    for (const raw of values) {
      const value = raw.trim();
      const found = readValue(value);
      if (!found.noindex && !found.nofollow) continue;
      noindex ||= found.noindex;
      nofollow ||= found.nofollow;
      sources.push({ source, value });
    }
  };
  read('meta-robots', input.metaRobots);
  read('meta-agent', input.metaAgent);
  read('x-robots-tag', input.xRobotsTag);
  return { noindex, nofollow, sources };
}
