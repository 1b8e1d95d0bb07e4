// What README.md and the docs claim about robots.txt conformance, held to the vectors file: how
// many of Google's reference vectors politely answers as Google does, and which it answers
// otherwise on purpose (a vector with `deviation` and `google_allowed`). A change of the vectors
// fails here until the docs say the new numbers.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string): string => readFileSync(join(REPO, path), 'utf8');

interface Vector {
  readonly id: string;
  readonly allowed: boolean;
  readonly google_allowed?: boolean;
  readonly deviation?: string;
}

const vectors: Vector[] = read('test/conformance/google-reference-vectors.jsonl')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Vector);
const deviations = vectors.filter((vector) => vector.deviation !== undefined);
const total = vectors.length;
const asGoogle = total - deviations.length;

/** The files that state the numbers, and name every deviation. */
const CLAIMS = ['README.md', 'docs/politeness.md', 'packages/core/README.md', 'test/conformance/README.md'];
const NAMING = ['README.md', 'docs/politeness.md', 'test/conformance/README.md'];

/** Every Markdown file a reader may take a claim from. */
function markdownFiles(): string[] {
  const packages = readdirSync(join(REPO, 'packages')).map((folder) => `packages/${folder}/README.md`);
  const docs = readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  const conformance = readdirSync(join(REPO, 'test/conformance'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `test/conformance/${name}`);
  return ['README.md', ...docs, ...packages, ...conformance].filter((path) => {
    try {
      read(path);
      return true;
    } catch {
      return false;
    }
  });
}

/** The text's sentences, without emphasis and with whitespace collapsed. */
function sentencesOf(text: string): string[] {
  return text
    .replaceAll('**', '')
    .replace(/\s+/g, ' ')
    .split(/(?<=[.;!?])\s+/);
}

const aboutTheVectors = (sentence: string): boolean =>
  /vectors?\b/i.test(sentence) && /google|reference/i.test(sentence);

describe('the conformance claims', () => {
  it('a deviation is a vector with `deviation` whose `google_allowed` differs from `allowed`, and only such', () => {
    expect(total).toBeGreaterThan(0);
    for (const vector of vectors) {
      const differs = vector.google_allowed !== undefined && vector.google_allowed !== vector.allowed;
      expect(vector.deviation !== undefined, vector.id).toBe(differs);
    }
  });

  it.each(CLAIMS)('%s states how many vectors politely answers as Google does, and how many it does not', (path) => {
    const text = sentencesOf(read(path)).join(' ');
    expect(text, path).toMatch(new RegExp(`\\b${total} (test )?vectors\\b`));
    expect(text, path).toMatch(new RegExp(`\\b${asGoogle} of the ${total}\\b|\\banswers ${asGoogle}\\b`));
    expect(text, path).toMatch(new RegExp(`\\b[Tt]he other ${deviations.length}\\b`));
  });

  it.each(NAMING)('%s names every deliberate deviation', (path) => {
    const text = read(path);
    for (const { id } of deviations) expect(text, `${path}: ${id}`).toContain(`\`${id}\``);
  });

  it('no Markdown file claims more: no "byte for byte" beside the reference parser, no other count of the vectors', () => {
    const wrong: string[] = [];
    for (const path of markdownFiles()) {
      for (const sentence of sentencesOf(read(path))) {
        if (/byte[- ]for[- ]byte/i.test(sentence) && /reference parser|google/i.test(sentence)) {
          wrong.push(`${path}: "${sentence}"`);
        }
        if (!aboutTheVectors(sentence)) continue;
        if (/\b(all|every)\b[^.]*\bvectors?\b[^.]*\bpass/i.test(sentence)) wrong.push(`${path}: "${sentence}"`);
        for (const [claim, part, whole] of sentence.matchAll(/\b(\d+) of the (\d+)\b/g)) {
          if (Number(whole) === total && Number(part) !== asGoogle) wrong.push(`${path}: "${claim}"`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('README.md states politeness across workers with its conditions, in docs/politeness.md', () => {
    expect(read('README.md')).toContain('(docs/politeness.md#politeness-across-workers)');
    const politeness = read('docs/politeness.md');
    expect(politeness).toMatch(/^## Politeness across workers$/m);
    expect(politeness).toContain("**the store's clock**");
  });
});
