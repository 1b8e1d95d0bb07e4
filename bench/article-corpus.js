// The article-extraction benchmark's pages and ground truth, vendored in
// fixtures/article-extraction/ (see its README.md): 181 article pages (gzipped HTML, UTF-8) and
// each page's hand-checked article body.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const ARTICLE_CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'article-extraction');

/** Page id → { articleBody, url }, as ground-truth.json has it. */
export function loadGroundTruth(dir = ARTICLE_CORPUS_DIR) {
  return JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8'));
}

/** Every page, in id order: its id, URL, decompressed HTML and ground-truth article body. */
export function loadArticleCorpus(dir = ARTICLE_CORPUS_DIR) {
  const truth = loadGroundTruth(dir);
  const ids = readdirSync(join(dir, 'html'))
    .filter((name) => name.endsWith('.html.gz'))
    .map((name) => name.slice(0, -'.html.gz'.length))
    .sort();
  return ids.map((id) => {
    const entry = truth[id];
    if (entry === undefined) throw new Error(`no ground truth for page ${id}`);
    const html = gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`))).toString('utf8');
    return { id, url: entry.url ?? null, html, truth: entry.articleBody ?? '' };
  });
}
