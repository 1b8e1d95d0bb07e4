// Input echoed back to a terminal: a stranger's bytes must not move the cursor, clear the
// screen, ring the bell or reorder the line. Every message that shows a value from the command
// line, a file or stdin shows it through `quoteInput` (or, for text that is not one value,
// `escapeControls`).

/** Longest value shown in full, in characters; longer ones are cut with an ellipsis. */
export const MAX_QUOTED_CHARS = 200;

// C0 controls, DEL, C1 controls, the Arabic letter mark, LRM/RLM, line and paragraph separators,
// bidi embeddings/overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_NEWLINE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

// JSON's own short escapes, so that an escaped value reads as JSON does.
const SHORT: Readonly<Record<string, string>> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

function escapeChar(c: string): string {
  return SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every character that a terminal acts on (C0, DEL, C1, bidi controls, line and
 * paragraph separators) written as a JSON-style escape (`\u001b`, `\n`, …); nothing else
 * changes. For text that is not a single value: whole messages, human-readable reports.
 * @param options.keepNewlines Leave `\n` as is (multi-line output we laid out ourselves).
 */
export function escapeControls(text: string, options: { readonly keepNewlines?: boolean } = {}): string {
  return text.replace(options.keepNewlines === true ? UNSAFE_BUT_NEWLINE : UNSAFE, escapeChar);
}

/**
 * One input value as a message shows it: in double quotes, escaped as JSON escapes a string,
 * plus DEL, C1 and bidi controls; a value longer than {@link MAX_QUOTED_CHARS} characters is cut,
 * with an ellipsis and its full length: `"http://example.com/aaaa…" (5000 characters)`.
 */
export function quoteInput(value: string): string {
  const length = countCodePoints(value);
  if (length <= MAX_QUOTED_CHARS) return escapeControls(JSON.stringify(value));
  const head = Array.from(value.slice(0, 2 * MAX_QUOTED_CHARS))
    .slice(0, MAX_QUOTED_CHARS)
    .join('');
  return `${escapeControls(JSON.stringify(`${head}…`))} (${length} characters)`;
}

/**
 * `JSON.stringify(value)` with DEL, C1 and bidi controls escaped too: still JSON that parses
 * to the same value, and safe to land on a terminal. For JSON lines written to stdout.
 */
export function toSafeJson(value: unknown, space?: number): string {
  // JSON escapes line breaks inside strings: a raw one is layout (`space`), kept.
  return escapeControls(JSON.stringify(value, null, space), { keepNewlines: true });
}

function countCodePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A low surrogate after a high one is the second half of one character.
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0 && isHighSurrogate(text.charCodeAt(i - 1))) continue;
    n++;
  }
  return n;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
