import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseRobotsTxt } from '@politely/core';
import { describe, expect, it } from 'vitest';

// The reference parser's own test vectors (source, licence and semantics: README.md beside this file).
const VECTORS_FILE = fileURLToPath(new URL('./google-reference-vectors.jsonl', import.meta.url));

interface Vector {
  id: string;
  test: string;
  robots: string;
  ua: string;
  url: string;
  allowed: boolean;
  google_allowed?: boolean;
  deviation?: string;
}

const vectors: Vector[] = readFileSync(VECTORS_FILE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Vector);

describe('google reference vectors', () => {
  it('are all present', () => {
    expect(vectors).toHaveLength(145);
  });

  it.each(vectors.map((v) => [v.id, v] as const))('%s', (_id, vector) => {
    const robots = parseRobotsTxt(vector.robots);
    expect(robots.isAllowed(vector.url, vector.ua)).toBe(vector.allowed);
    // explain() must agree with isAllowed() on every vector.
    expect(robots.explain(vector.url, vector.ua).allowed).toBe(vector.allowed);
  });
});
