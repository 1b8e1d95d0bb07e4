// Response headers as Playwright's `route.fulfill` takes them: one record, names lower-cased.
// The body handed over is already decoded and whole, so what describes its transfer goes, and
// repeated names are joined the way Playwright splits them again (Set-Cookie on '\n').

/** Headers that describe the transfer, not the body: wrong for a decoded, whole body. */
const DROPPED = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
]);

/** The headers to fulfil a request with, from a response's list of headers (repeats kept). */
export function fulfilHeaders(headers: readonly (readonly [string, string])[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [rawName, value] of headers) {
    const name = rawName.toLowerCase();
    if (DROPPED.has(name)) continue;
    const before = result[name];
    // Set-Cookie cannot be joined with commas (dates contain them); Playwright splits it on '\n'.
    result[name] = before === undefined ? value : `${before}${name === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  return result;
}

/** Request headers with lower-cased names (Playwright's already are; this makes it certain). */
export function lowerCaseHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  return result;
}
