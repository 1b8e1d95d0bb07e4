// A page's bytes and URL → its main content as text and Markdown, with its metadata. One parse
// builds the light tree; the selection, the metadata and both renderings read it.

import { decodeText } from '@politely/core/internal';
import { blocksOf, withoutTitle } from './blocks.js';
import { withoutEdgeLines } from './edge-lines.js';
import { markdownOf } from './markdown.js';
import { metadataOf, type PageMetadata } from './metadata.js';
import { type ExtractContentOptions, resolveExtractContentOptions } from './options.js';
import { selectContent } from './select-content.js';
import { textOf } from './text.js';
import { parsePage } from './tree.js';
import { baseUrlOf } from './url.js';

/** The main content of a page and its metadata, as {@link extractContent} returns them. */
export interface ContentResult extends PageMetadata {
  /** The main content as plain text: blocks separated by a blank line, `<pre>` text verbatim. */
  readonly text: string;
  /** The main content as CommonMark with GFM tables; links and images absolute. */
  readonly markdown: string;
}

/**
 * Extracts the main content of an HTML page: the text without navigation, headers, footers,
 * share bars, comment sections, cookie banners and ads, as text and Markdown, with the page's
 * metadata. Pure: no I/O. Bytes are decoded as the crawler decodes them (byte order mark,
 * `contentType`'s charset, `<meta charset>`, else UTF-8).
 *
 * @throws PolitelyError `ERR_INVALID_OPTION` when an option is unknown or `url` is not an
 *   absolute http(s) or file URL.
 */
export function extractContent(html: string | Uint8Array, options: ExtractContentOptions): ContentResult {
  const { url, contentType } = resolveExtractContentOptions(options);
  const source = typeof html === 'string' ? html : decodeText(html, contentType);
  const { root, head } = parsePage(source);
  const base = baseUrlOf(url, head.baseHref);
  const selection = selectContent(root);
  const metadata = metadataOf(head, root, base);
  const blocks = withoutEdgeLines(
    withoutTitle(blocksOf(selection.nodes, selection.drop, base), [metadata.title, head.title]),
  );
  return {
    ...metadata,
    text: textOf(blocks),
    markdown: markdownOf(blocks),
  };
}
