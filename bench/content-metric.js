// The article-extraction benchmark's quality metric (scrapinghub/article-extraction-benchmark,
// evaluate.py), in JavaScript, so that `pnpm bench` scores extractors with the same yardstick
// as the published table. Pure functions: no I/O.
//
// - A text is a sequence of word tokens: maximal runs of letters, digits and `_` (Unicode-aware,
//   no case folding); everything else separates tokens.
// - A page's shingles are its runs of 4 consecutive tokens, counted as a multiset; a text of 1–3
//   tokens has one shorter shingle, an empty text none.
// - On a page, shingles found in both texts (with multiplicity) are true positives, extra ones in
//   the prediction false positives, missing ones false negatives. The three counts are divided by
//   their sum, so that every page weighs the same whatever its length.
// - Precision is the mean over the pages where the prediction has any shingle, recall the mean
//   over the pages where the ground truth has any; F1 is their harmonic mean (not a mean of
//   per-page F1). A missing or empty prediction therefore costs recall only.
// - Accuracy is the share of pages whose token sequences are equal.

const TOKEN = /[\p{L}\p{N}_]+/gu;
/** Tokens never contain a space, so a space-joined shingle is a faithful key. */
const SEPARATOR = ' ';

/** The word tokens of `text` (`null` and `undefined` read as empty). */
export function tokenize(text) {
  return text ? (text.match(TOKEN) ?? []) : [];
}

/** How many times each run of `n` consecutive tokens occurs, keyed by the space-joined run. */
export function shingleCounts(tokens, n = 4) {
  const counts = new Map();
  const starts = Math.max(1, tokens.length - n + 1);
  for (let i = 0; i < starts && i < tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(SEPARATOR);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * True positives, false positives and false negatives of `prediction` against `truth`, over
 * shingles, each as a share of their sum (all 0 when both texts are empty).
 */
export function matchShingles(truth, prediction, n = 4) {
  const want = shingleCounts(tokenize(truth), n);
  const got = shingleCounts(tokenize(prediction), n);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, wanted] of want) {
    const found = got.get(key) ?? 0;
    tp += Math.min(wanted, found);
    fn += Math.max(0, wanted - found);
  }
  for (const [key, found] of got) fp += Math.max(0, found - (want.get(key) ?? 0));
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

/** Precision of one page's normalised counts (evaluate.py's precision_score). */
export function precisionOf({ tp, fp, fn }) {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

/** Recall of one page's normalised counts (evaluate.py's recall_score). */
export function recallOf({ tp, fp, fn }) {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

/** Whether the two texts have exactly the same tokens. */
export function isExact(truth, prediction) {
  const a = tokenize(truth);
  const b = tokenize(prediction);
  return a.length === b.length && a.every((token, i) => token === b[i]);
}

function mean(values) {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Corpus precision, recall and F1 from per-page normalised counts (evaluate.py's metrics_from_tp_fp_fns). */
export function aggregate(matches) {
  const precision = mean(matches.filter((m) => m.tp + m.fp > 0).map(precisionOf));
  const recall = mean(matches.filter((m) => m.tp + m.fn > 0).map(recallOf));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { f1, precision, recall };
}

/**
 * Scores `predictions` (page id → text; a missing id or a null reads as empty) against `truths`
 * (page id → text): corpus F1, precision, recall and accuracy, and each page's counts.
 */
export function scoreExtraction(truths, predictions) {
  const pages = Object.keys(truths).map((id) => {
    const truth = truths[id];
    const prediction = predictions[id] ?? '';
    return { id, ...matchShingles(truth, prediction), exact: isExact(truth, prediction) };
  });
  return {
    ...aggregate(pages),
    accuracy: mean(pages.map((page) => (page.exact ? 1 : 0))),
    pages,
  };
}
