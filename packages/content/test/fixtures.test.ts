// Labelled pages of each kind the extractor must read sensibly (written for these tests): what
// the main content must keep, and the furniture it must drop.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractContent } from '../src/index.js';

interface Label {
  readonly file: string;
  readonly url: string;
  readonly keep: readonly string[];
  readonly drop: readonly string[];
}

const LABELS: readonly Label[] = [
  {
    file: 'news-article.html',
    url: 'https://courier.example/news/2026/03/harbour-bridge-reopens?ref=home',
    keep: [
      'The Old Harbour bridge reopened to traffic on Monday morning',
      'What was repaired',
      '“It has been a long wait, but the bridge is now safer than it has been in a century,”',
      'A weight limit of 18 tonnes remains in place',
    ],
    drop: [
      'We use cookies',
      'Sport',
      'Share on Social',
      'Advertisement',
      'Get the morning briefing',
      'Related stories',
      'Ferry service extended',
      'My commute has been a nightmare',
      'Most read',
      'All rights reserved',
    ],
  },
  {
    file: 'forum-thread.html',
    url: 'https://bakers.example/t/4411',
    keep: [
      'My starter is three weeks old',
      'Not ruined at all.',
      'If you can, switch to a ratio of one part starter',
      'Two days of twice-daily feeds and the smell has gone.',
    ],
    drop: ['Forum index', 'Starters and levains', 'Newest first', 'Post reply', 'Who is online', 'Board rules'],
  },
  {
    file: 'mailing-list.html',
    url: 'https://lists.example/pipermail/tide-users/2026-February/004412.html',
    keep: [
      '> When a table ends exactly at midnight, the last row is dropped:\n>\n>     for (i = 0; i < rows - 1; i++)\n',
      '-    for (i = 0; i < rows - 1; i++)\n+    for (i = 0; i < rows; i++)\n',
      '>> (Nested quote from the first report, kept as written.)',
      '-- \nAda',
    ],
    drop: ['Previous message', 'Messages sorted by', '[ thread ]'],
  },
  {
    file: 'docs-page.html',
    url: 'https://docs.tidewater.example/2.4/retries.html',
    keep: [
      'Tidewater retries a request that fails with a network error',
      'retry_base_ms\t500\tThe first delay, in ms.',
      'client = Client(retries=5, retry_base_ms=1000)\nif client.retries > 3:\n    print("patient")',
      'A request with a body that cannot be replayed is never retried.',
    ],
    drop: ['Search docs', 'Installation', 'Edit on Git', 'Previous', '© Copyright', '¶'],
  },
  {
    file: 'product-page.html',
    url: 'https://shop.example/p/kettle-stove-k2',
    keep: ['The K2 is an enamelled steel kettle', 'Weight: 410 g', 'The lid locks with a quarter turn'],
    drop: ['Free shipping', 'Cart (0)', 'Cookware', 'Add to cart', 'Customers also bought', 'Enamel mug', 'Impressum'],
  },
];

const fixture = (file: string): Uint8Array => readFileSync(new URL(`./fixtures/${file}`, import.meta.url));

describe('extractContent on labelled pages', () => {
  for (const label of LABELS) {
    it(`keeps the content and drops the furniture of ${label.file}`, () => {
      const { text, markdown } = extractContent(fixture(label.file), { url: label.url });
      for (const kept of label.keep) expect(text, kept).toContain(kept);
      for (const dropped of label.drop) {
        expect(text, dropped).not.toContain(dropped);
        expect(markdown, dropped).not.toContain(dropped);
      }
    });
  }

  it('keeps a mailing-list body byte for byte in a fence, quoting and all', () => {
    const { markdown } = extractContent(fixture('mailing-list.html'), { url: LABELS[2]!.url });
    const body = /```\n([\s\S]*?)```/.exec(markdown)?.[1];
    expect(body).toBeDefined();
    expect(body).toContain('On Mon, Feb 9, 2026 at 22:01, Bo Sandgren wrote:\n> When a table ends');
    expect(body).toContain('> Is the `- 1` there on purpose?\n\nIt is not.');
    expect(body).not.toContain('\\>');
    expect(body!.endsWith('-- \nAda\n')).toBe(true);
  });

  it('reads the metadata of the news article', () => {
    const result = extractContent(fixture('news-article.html'), { url: LABELS[0]!.url });
    expect(result).toMatchObject({
      title: 'Harbour bridge reopens after two-year repair',
      authors: ['Mara Quinn', 'Tom Ellery'],
      published: '2026-03-02T08:15:00+00:00',
      modified: '2026-03-02T11:40:00+00:00',
      lang: 'en-GB',
      canonicalUrl: 'https://courier.example/news/2026/03/harbour-bridge-reopens',
      description: 'The Old Harbour bridge reopened to traffic on Monday after a two-year repair.',
      siteName: 'The Coastal Courier',
      openGraph: { 'og:title': 'Harbour bridge reopens after two-year repair', 'og:type': 'article' },
    });
    expect(result.jsonLd).toHaveLength(1);
    expect(result.markdown).toContain('![The reopened bridge at dawn](https://courier.example/img/bridge.jpg)');
  });

  it('makes the docs page links absolute against its <base href>', () => {
    const { markdown } = extractContent(fixture('docs-page.html'), { url: LABELS[3]!.url });
    expect(markdown).toContain('[the Client reference](https://docs.tidewater.example/2.4/api.html#client)');
    expect(markdown).toContain('[the 2.3 page](https://docs.tidewater.example/2.3/retries.html)');
    expect(markdown).toContain('| `retry_on` | `5xx\\|network` |');
  });
});
