// The reference parser's matcher (robots.cc Matches), as a test oracle: a set of positions in the
// path that can match the pattern so far, advanced one pattern byte at a time.

export function referenceMatches(path: string, pattern: string): boolean {
  let positions = [0];
  for (let p = 0; p < pattern.length; p++) {
    const ch = pattern[p];
    if (ch === '$' && p === pattern.length - 1) return positions[positions.length - 1] === path.length;
    if (ch === '*') {
      const first = positions[0]!;
      positions = Array.from({ length: path.length - first + 1 }, (_, i) => first + i);
    } else {
      positions = positions.filter((i) => i < path.length && path[i] === ch).map((i) => i + 1);
      if (positions.length === 0) return false;
    }
  }
  return true;
}
