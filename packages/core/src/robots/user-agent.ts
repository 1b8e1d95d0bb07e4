// User agents: what the crawler calls itself, and what a `user-agent` line names.

/**
 * The product token of a user agent: its leading run of `[A-Za-z_-]`
 * (`MyBot/1.2 (+https://x)` → `MyBot`; RFC 9309 2.2.1). Applied to the caller's user agent
 * and to each `user-agent` value alike, as the reference does with the values.
 */
export function productToken(userAgent: string): string {
  let end = 0;
  while (end < userAgent.length) {
    const code = userAgent.charCodeAt(end);
    const isLetter = (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
    if (!isLetter && code !== 0x2d && code !== 0x5f) break;
    end++;
  }
  return userAgent.slice(0, end);
}

/** `*`, or `*` followed by whitespace and anything (Google: still the global group). */
export function isGlobalAgentValue(value: string): boolean {
  if (value.charCodeAt(0) !== 0x2a) return false;
  if (value.length === 1) return true;
  const next = value.charCodeAt(1);
  return next === 0x20 || (next >= 0x09 && next <= 0x0d);
}
