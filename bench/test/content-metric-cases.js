// Prediction sets for checking the metric port against the benchmark's own evaluate.py: each is
// a pure function of a corpus page (and its neighbour), so the test and a one-off evaluate.py run
// see the same texts.

/** Every page's text without markup: scripts, styles and comments dropped, tags turned to spaces. */
export function wholePageText(html) {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Named prediction sets: page id → { articleBody } (or {} for a missing body), in the format of
 * the benchmark's output/*.json.
 */
export function predictionSets(pages) {
  const sets = { truncated: {}, 'whole-page-text': {}, mixed: {} };
  pages.forEach((page, i) => {
    const next = pages[(i + 1) % pages.length];
    sets.truncated[page.id] = { articleBody: page.truth.slice(0, Math.floor(page.truth.length * 0.6)) };
    sets['whole-page-text'][page.id] = { articleBody: wholePageText(page.html) };
    sets.mixed[page.id] = mixedPrediction(page, next, i);
  });
  return sets;
}

/** Edge cases in turn: no body, an empty body, extra text, paragraphs reordered, a 1–3 token body. */
function mixedPrediction(page, next, i) {
  switch (i % 8) {
    case 0:
      return {};
    case 4:
      return { articleBody: '' };
    case 1:
    case 5:
      return { articleBody: `${page.truth}\n\nRelated: ${next.truth.slice(0, 300)}` };
    case 2:
    case 6:
      return { articleBody: page.truth.split('\n').reverse().join('\n') };
    default:
      return {
        articleBody: page.truth
          .split(/\s+/)
          .slice(0, 1 + (i % 3))
          .join(' '),
      };
  }
}
