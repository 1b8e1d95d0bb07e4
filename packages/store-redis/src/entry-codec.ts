// A frontier entry as a queue member: `<retries> <JSON of the entry without retries>`.
// The retry count stands apart so that the retry script can raise it by string surgery in Lua:
// decoding and re-encoding the JSON there (cjson) would round numbers in `data` to 14 digits.
// An entry without `retries` has an empty count (`" {…}"`), so it decodes exactly as it came.

import type { FrontierEntry } from '@politely/crawler';

export function encodeEntry(entry: FrontierEntry): string {
  const { retries, ...rest } = entry;
  return `${retries === undefined ? '' : String(retries)} ${JSON.stringify(rest)}`;
}

export function decodeEntry(member: string): FrontierEntry {
  const space = member.indexOf(' ');
  const count = member.slice(0, space);
  const entry = JSON.parse(member.slice(space + 1)) as FrontierEntry;
  return count === '' ? entry : { ...entry, retries: Number(count) };
}
