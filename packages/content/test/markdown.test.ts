// The Markdown of real-world shapes, and its round trip: rendered back to HTML by a CommonMark
// parser (markdown-it), its text is the extracted text, whitespace aside.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ContentResult, extractContent } from '../src/index.js';
import { renderedText, squash } from './round-trip.js';

const URL_OF_PAGE = 'https://blog.example/posts/2026/notes.html';
const LEAD = '<p>This paragraph is long enough, and punctuated enough, to be the content of the page.</p>';

function extract(body: string, head = ''): ContentResult {
  return extractContent(`<html><head>${head}</head><body><article>${LEAD}${body}</article></body></html>`, {
    url: URL_OF_PAGE,
  });
}

function expectRoundTrip(result: ContentResult): void {
  expect(renderedText(result.markdown)).toBe(squash(result.text));
}

describe('extractContent markdown', () => {
  it('keeps a preformatted mail body byte for byte, > quoting unescaped, in a fence', () => {
    const mail =
      'On Monday, Bo wrote:\n> a < b && c > d\n>> *not emphasis* and [not a link]\n\n   indented  line\n-- \nAda';
    const pre = mail.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const result = extract(`<pre>${pre}</pre>`);
    expect(result.markdown).toContain(`\`\`\`\n${mail}\n\`\`\``);
    expect(result.text).toContain(mail);
    expectRoundTrip(result);
  });

  it('fences code with more backticks than any run inside, and keeps its language', () => {
    const code = 'Use ``` to fence:\n```js\nlet a = `b`;\n```';
    const result = extract(`<pre><code class="language-md">${code}</code></pre>`);
    expect(result.markdown).toContain(`\`\`\`\`md\n${code}\n\`\`\`\``);
    expectRoundTrip(result);
  });

  it('writes nested lists, ordered ones from their start', () => {
    const result = extract(
      '<ul><li>Fruit<ul><li>Apple</li><li>Pear<ol start="3"><li>Conference</li><li>Comice</li></ol></li></ul></li><li>Bread</li></ul>',
    );
    expect(result.markdown).toContain('- Fruit\n  - Apple\n  - Pear\n\n    3. Conference\n    4. Comice\n- Bread');
    expectRoundTrip(result);
  });

  it('writes a table with inline markup and escaped pipes', () => {
    const result = extract(
      '<table><tr><th>Flag</th><th>Meaning</th></tr><tr><td><code>-a|-b</code></td><td><em>either</em> one, see <a href="/flags">flags</a></td></tr><tr><td>x | y</td><td><strong>both</strong></td></tr></table>',
    );
    expect(result.markdown).toContain(
      '| Flag | Meaning |\n| --- | --- |\n| `-a\\|-b` | *either* one, see [flags](https://blog.example/flags) |\n| x \\| y | **both** |',
    );
    expectRoundTrip(result);
  });

  it('links a heading that sits inside a link', () => {
    const result = extract(
      '<a href="/posts/next.html"><h2>Next: <em>the harbour</em></h2></a><p>After the heading, more text follows here.</p>',
    );
    expect(result.markdown).toContain('## [Next: *the harbour*](https://blog.example/posts/next.html)');
    expectRoundTrip(result);
  });

  it('makes links and images absolute against <base href>', () => {
    const result = extract(
      '<p>See <a href="part-2.html">part two</a> and <a href="/about">about</a>: <img src="img/map.png" alt="A map"></p>',
      '<base href="https://cdn.example/archive/">',
    );
    expect(result.markdown).toContain('[part two](https://cdn.example/archive/part-2.html)');
    expect(result.markdown).toContain('[about](https://cdn.example/about)');
    expect(result.markdown).toContain('![A map](https://cdn.example/archive/img/map.png)');
    expectRoundTrip(result);
  });

  it('turns <br> into hard breaks, and a double <br> into a new paragraph', () => {
    const result = extract('<p>Roses are red,<br>violets are blue.<br><br>Second verse.</p>');
    expect(result.markdown).toContain('Roses are red,\\\nviolets are blue.\n\nSecond verse.');
    expect(result.text).toContain('Roses are red,\nviolets are blue.');
    expectRoundTrip(result);
  });

  it('escapes only what Markdown would read as markup', () => {
    const result = extract(
      '<p># not a heading, 2 * 3 = 6, snake_case stays, _under_ and [brackets], a &lt;div&gt; tag, &amp;amp; too</p><p>1. not a list item, and - dashes - stay.</p>',
    );
    expect(result.markdown).toContain(
      '\\# not a heading, 2 \\* 3 = 6, snake_case stays, \\_under\\_ and \\[brackets\\], a \\<div> tag, \\&amp; too',
    );
    expect(result.markdown).toContain('1\\. not a list item, and - dashes - stay.');
    expectRoundTrip(result);
  });

  it('round-trips the labelled pages', () => {
    for (const file of ['news-article', 'forum-thread', 'mailing-list', 'docs-page', 'product-page']) {
      const html = fixture(file);
      expectRoundTrip(extractContent(html, { url: `https://site.example/${file}` }));
    }
  });
});

function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}.html`, import.meta.url), 'utf8');
}
