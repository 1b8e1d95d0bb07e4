// @politely/content: the main content of a web page as text and Markdown, with its metadata.

export type { ContentResult } from './extract-content.js';
export { extractContent } from './extract-content.js';
export type { PageMetadata } from './metadata.js';
export type { ExtractContentOptions } from './options.js';
