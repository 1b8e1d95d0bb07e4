// A frontier entry as a queue member: `<retries> <JSON of the entry without retries and revisit>`,
// then, for a URL that reopenDue put back, `\n<LastFetch record>` (its `revisit`).
// The retry count stands apart so that the retry script can raise it by string surgery in Lua:
// decoding and re-encoding the JSON there (cjson) would round numbers in `data` to 14 digits.
// An entry without `retries` has an empty count (`" {…}"`), so it decodes exactly as it came.
// JSON.stringify never writes a raw newline, so the first `\n` ends the entry's JSON.
//
// A LastFetch record: `<dueAt>\n<hints JSON, or nothing>\n<JSON of the rest>`. The two fields a
// sitemap's hints change (frontier-scripts.ts, applyHints) stand apart, so Lua rewrites them
// without re-encoding the rest (a cachePolicy, big timestamps) through cjson.

import type { FrontierEntry, LastFetch, RevisitHints } from '@politely/frontier';

export function encodeEntry(entry: FrontierEntry): string {
  const { retries, revisit, ...rest } = entry;
  const head = `${retries === undefined ? '' : String(retries)} ${JSON.stringify(rest)}`;
  return revisit === undefined ? head : `${head}\n${encodeLastFetch(revisit)}`;
}

export function decodeEntry(member: string): FrontierEntry {
  const space = member.indexOf(' ');
  const newline = member.indexOf('\n', space + 1);
  const count = member.slice(0, space);
  const entry = JSON.parse(newline < 0 ? member.slice(space + 1) : member.slice(space + 1, newline)) as FrontierEntry;
  const revisit = newline < 0 ? undefined : decodeLastFetch(member.slice(newline + 1));
  if (count === '' && revisit === undefined) return entry;
  return {
    ...entry,
    ...(count === '' ? {} : { retries: Number(count) }),
    ...(revisit === undefined ? {} : { revisit }),
  };
}

export function encodeLastFetch(last: LastFetch): string {
  const { dueAt, hints, ...rest } = last;
  return `${String(dueAt)}\n${hints === undefined ? '' : JSON.stringify(hints)}\n${JSON.stringify(rest)}`;
}

export function decodeLastFetch(record: string): LastFetch {
  const first = record.indexOf('\n');
  const second = record.indexOf('\n', first + 1);
  const hints = record.slice(first + 1, second);
  const rest = JSON.parse(record.slice(second + 1)) as Omit<LastFetch, 'dueAt' | 'hints'>;
  const dueAt = Number(record.slice(0, first));
  return hints === '' ? { ...rest, dueAt } : { ...rest, dueAt, hints: JSON.parse(hints) as RevisitHints };
}
