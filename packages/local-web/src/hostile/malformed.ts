// Broken HTML that a parser must get through without throwing or hanging. Where a well-formed
// link to the page's `/next` page exists, that page is good too; links inside scripts, inside an
// unterminated comment or in a tag cut off by the end of the file are not links at all.

import { createRandom, type Resource } from '@politely/demo-web/internal';
import { type HostileCase, pageCase } from './hostile-types.js';

interface MalformedPage {
  readonly name: string;
  readonly description: string;
  /** The body of the page at `path` (its next page is `${path}/next`). */
  readonly body: (path: string) => Buffer;
  /** False when the page has no link to follow. */
  readonly hasNext: boolean;
}

const HEAD = (title: string): string => `<!doctype html><html><head><title>${title}</title></head><body>`;
const NESTING_DEPTH = 50_000;
const HUGE_ATTRIBUTE_BYTES = 1_000_000;
const NOISE_BYTES = 64 * 1024;
const CONTROL_BYTES = [
  ...Array.from({ length: 9 }, (_, i) => i),
  0x0b,
  0x0c,
  ...Array.from({ length: 18 }, (_, i) => 0x0e + i),
  0x7f,
];

const MALFORMED_PAGES: readonly MalformedPage[] = [
  {
    name: 'unclosed-tags',
    description: 'No element is ever closed: div, p, b, i, li, table cells, the link itself, body and html.',
    hasNext: true,
    body: (path) =>
      Buffer.from(
        '<!doctype html><html><head><title>Unclosed tags</title><body><div><p><b><i>Bold and italic<ul><li>One<li>Two' +
          `<table><tr><td>Cell<td><span><em>Deep <p><a href="${path}/next">next page\n`,
      ),
  },
  {
    name: 'unclosed-href',
    description: 'A good link, then <a href=" left open at the end of the file.',
    hasNext: true,
    body: (path) =>
      Buffer.from(
        `${HEAD('Unclosed href')}<p><a href="${path}/next">next</a></p>\n<p>And then: <a href="${path}/dangling`,
      ),
  },
  {
    name: 'deep-nesting',
    description: `${NESTING_DEPTH} nested <div> elements with a link at the bottom.`,
    hasNext: true,
    body: (path) =>
      Buffer.from(
        `${HEAD('Deep nesting')}${'<div>'.repeat(NESTING_DEPTH)}<a href="${path}/next">next</a>` +
          `${'</div>'.repeat(NESTING_DEPTH)}</body></html>\n`,
      ),
  },
  {
    name: 'huge-attribute',
    description: `An attribute value of ${HUGE_ATTRIBUTE_BYTES} bytes before the link.`,
    hasNext: true,
    body: (path) =>
      Buffer.from(
        `${HEAD('Huge attribute')}<div title="${'a'.repeat(HUGE_ATTRIBUTE_BYTES)}">Big title</div>` +
          `<p><a href="${path}/next">next</a></p></body></html>\n`,
      ),
  },
  {
    name: 'control-bytes',
    description: 'NUL and other control bytes in the text around the link.',
    hasNext: true,
    body: (path) =>
      Buffer.concat([
        Buffer.from(`${HEAD('Control bytes')}<p>Before `),
        Buffer.from(CONTROL_BYTES),
        Buffer.from(' after, and a NUL \0 in the middle.</p>\0'),
        Buffer.from(`<p><a href="${path}/next">next</a>\0</p></body></html>\n`),
      ]),
  },
  {
    name: 'script-anchor',
    description: 'A script whose strings hold </a> and an <a href>, which are text, not links.',
    hasNext: true,
    body: (path) =>
      Buffer.from(
        `${HEAD('Script anchor')}<p><a href="${path}/next">next` +
          `<script>var close = "</a>"; var fake = '<a href="${path}/not-a-link">not a link</a>';` +
          ` document.title += close + fake;</script> still the next link</a></p></body></html>\n`,
      ),
  },
  {
    name: 'unterminated-comment',
    description: 'A good link, then <!-- a comment that never ends, holding another link.',
    hasNext: true,
    body: (path) =>
      Buffer.from(
        `${HEAD('Unterminated comment')}<p><a href="${path}/next">next</a></p>\n` +
          `<!-- this comment never ends <a href="${path}/hidden">hidden</a></body></html>\n`,
      ),
  },
  {
    name: 'binary-noise',
    description: `${NOISE_BYTES} bytes of random noise labelled text/html.`,
    hasNext: false,
    body: () => noise(NOISE_BYTES),
  },
];

/** Deterministic noise without a `<`, so it cannot hold a tag even by chance. */
function noise(length: number): Buffer {
  const random = createRandom(0x6e6f6973);
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    const byte = Math.floor(random() * 256);
    bytes[i] = byte === 0x3c ? 0x3e : byte;
  }
  return bytes;
}

export interface MalformedPages {
  readonly cases: readonly HostileCase[];
  readonly pages: ReadonlyMap<string, Resource>;
  readonly goodPaths: readonly string[];
}

export function buildMalformedPages(origin: string, nextPage: (title: string) => Resource): MalformedPages {
  const pages = new Map<string, Resource>();
  const goodPaths: string[] = [];
  const cases = MALFORMED_PAGES.map((page) => {
    const path = `/malformed/${page.name}`;
    const body = page.body(path);
    pages.set(path, {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body,
      compressible: false,
    });
    goodPaths.push(path);
    if (page.hasNext) {
      pages.set(`${path}/next`, nextPage(`After ${page.name}`));
      goodPaths.push(`${path}/next`);
    }
    return pageCase(page.name, page.description, `${origin}${path}`);
  });
  return { cases, pages, goodPaths };
}
