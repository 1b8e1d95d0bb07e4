import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/extract/extract-links.js';
import { capHtmlNesting, MAX_HTML_NESTING } from '../../src/extract/nesting-cap.js';

const nested = (depth: number, inner: string): string =>
  `<html><body>${'<div>'.repeat(depth)}${inner}${'</div>'.repeat(depth)}</body></html>`;

/** Depth of the deepest element in a parsed document. */
function treeDepth(html: string): number {
  const $ = load(html);
  let deepest = 0;
  const stack: [import('domhandler').AnyNode, number][] = [[$.root()[0]!, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if ('children' in node) for (const child of node.children) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Median CPU time of `run`, in ms. */
function cpuMs(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[2]!;
}

describe('capHtmlNesting', () => {
  it('returns the very same string when nothing nests past the cap', () => {
    const html = nested(100, '<a href="/x">x</a>') + '<ul>' + '<li>item'.repeat(5000) + '</ul>';
    expect(capHtmlNesting(html)).toBe(html);
  });

  it('flattens elements past the cap and keeps their content and links', () => {
    const html = nested(5000, '<a href="/bottom">bottom</a> text at the bottom');
    const capped = capHtmlNesting(html);
    expect(capped.length).toBeLessThan(html.length);
    expect(capped).toContain('<a href="/bottom">bottom</a> text at the bottom');
    expect(treeDepth(capped)).toBeLessThanOrEqual(MAX_HTML_NESTING + 8);
    expect(extractPage(html, 'http://h.test/', { productToken: 'Bot' }).links).toEqual(['http://h.test/bottom']);
  });

  it('does not count tags inside scripts, comments or quoted attributes', () => {
    const fake = '<div>'.repeat(2000);
    const html = `<html><body><script>var s = "${fake}";</script><!-- ${fake} --><p title="${fake}">x</p></body></html>`;
    expect(capHtmlNesting(html, 10)).toBe(html);
  });

  it('keeps the document as it is below the cap: misnested and unclosed markup is left to the parser', () => {
    const html = `<div><span><b>bold <i>both</b> italic?</i></span>${'<div>'.repeat(20)}<a href="/a">a</a>`;
    expect(capHtmlNesting(html, 64)).toBe(html);
    expect(capHtmlNesting(html, 5)).toContain('<a href="/a">a</a>');
  });

  it('never throws and ends on unterminated tags, quotes and comments', () => {
    for (const html of [
      '<div',
      '<div title="x',
      "<div a='",
      '<!-- never closed',
      '<script>never closed',
      '<',
      '</',
      '<>'.repeat(3000),
      '<div>'.repeat(3000) + '<a href="',
    ]) {
      expect(() => capHtmlNesting(html, 16)).not.toThrow();
    }
  });

  it('takes time linear in the depth, and parsing after it too', () => {
    const small = nested(4000, '<a href="/x">x</a>');
    const large = nested(32_000, '<a href="/x">x</a>');
    const ratio =
      cpuMs(() => load(capHtmlNesting(large))('a').length) /
      Math.max(
        0.5,
        cpuMs(() => load(capHtmlNesting(small))('a').length),
      );
    // 8× the input: a linear pass is ~8×, the uncapped parse is ~64×.
    expect(ratio).toBeLessThan(30);
  });
});
