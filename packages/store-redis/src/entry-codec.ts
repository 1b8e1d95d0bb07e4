// A frontier entry as a queue member (layout 4). `<retries>` (digits; empty when the entry has
// none), then a separator that says which of three forms follows:
//
//   \t  a plain entry: `<url>\t<depth>\t<referrer>`. Plain: no kind, data, label, userData,
//       headers, hints, redirect or revisit, an integer priority the queue orders by exactly (the
//       priority band of its list gives it back), an integer depth, and no tab in its URL or
//       referrer. In a queue the URL is kept relative to the host's origin (`/path?query`; the
//       scripts strip and restore the origin kept once per host, see frontier-scripts.ts); the
//       referrer, on the URL's origin, as its path (`/…`), else whole ('' = none). The referrer
//       must come back whole on claim, so it is kept as text, not as a fingerprint.
//   ' ' an entry without a label: `<JSON of the entry without retries and revisit>`,
//   |   the same with a label (a relabel skips it without decoding it),
//
// then, for a JSON entry that reopenDue put back, `\n<LastFetch record>` (its `revisit`).
// The retry count stands apart so that the retry script can raise it by string surgery in Lua:
// decoding and re-encoding the JSON there (cjson) would round numbers in `data` to 14 digits.
// JSON.stringify never writes a raw newline, so the first `\n` ends the entry's JSON.
//
// A LastFetch record: `<dueAt>\n<hints JSON, or nothing>\n<JSON of the rest>`. The two fields a
// sitemap's hints change (frontier-scripts.ts, applyHints) stand apart, so Lua rewrites them
// without re-encoding the rest (a cachePolicy, big timestamps) through cjson. The rest's JSON
// starts with fetchedAt, which Lua reads as text (a record written before that is decoded).

import type { FrontierEntry, LastFetch, RevisitHints } from '@politely/frontier';
import { queuePriorityOf } from './queue-score.js';

/** The keys a plain entry may have (any other makes it a JSON entry). */
const PLAIN_KEYS = new Set(['url', 'hostKey', 'depth', 'priority', 'referrer', 'retries']);

export function encodeEntry(entry: FrontierEntry): string {
  const plain = plainMember(entry);
  if (plain !== undefined) return plain;
  const { retries, revisit, ...rest } = entry;
  const separator = rest.label === undefined ? ' ' : '|';
  const head = `${retries === undefined ? '' : String(retries)}${separator}${JSON.stringify(rest)}`;
  return revisit === undefined ? head : `${head}\n${encodeLastFetch(revisit)}`;
}

/**
 * An entry from a member with a whole URL (as a claim returns it), of the host and queue
 * priority its lease names (a plain member keeps neither).
 */
export function decodeEntry(member: string, hostKey: string, queuePriority: number): FrontierEntry {
  const at = member.search(/[^0-9]/);
  const count = member.slice(0, at);
  const retries = count === '' ? {} : { retries: Number(count) };
  if (member[at] === '\t') {
    const [url = '', depth = '', referrer = ''] = member.slice(at + 1).split('\t');
    const whole = referrer === '' ? {} : { referrer: referrer.startsWith('/') ? originOf(url) + referrer : referrer };
    return { url, hostKey, depth: Number(depth), priority: queuePriority, ...whole, ...retries };
  }
  const newline = member.indexOf('\n', at + 1);
  const entry = JSON.parse(newline < 0 ? member.slice(at + 1) : member.slice(at + 1, newline)) as FrontierEntry;
  const revisit = newline < 0 ? undefined : decodeLastFetch(member.slice(newline + 1));
  if (count === '' && revisit === undefined) return entry;
  return { ...entry, ...retries, ...(revisit === undefined ? {} : { revisit }) };
}

/** The plain member of an entry (whole URL), or undefined when it must be kept as JSON. */
function plainMember(entry: FrontierEntry): string | undefined {
  for (const key of Object.keys(entry)) if (!PLAIN_KEYS.has(key)) return undefined;
  const { url, depth, priority, referrer, retries } = entry;
  if (typeof url !== 'string' || url.includes('\t') || url.includes('\n')) return undefined;
  const origin = originOf(url);
  if (origin === '') return undefined;
  if (!Number.isSafeInteger(depth) || !Number.isSafeInteger(priority) || queuePriorityOf(priority) !== priority)
    return undefined;
  if (retries !== undefined && !(Number.isSafeInteger(retries) && retries >= 0)) return undefined;
  if (Object.hasOwn(entry, 'referrer') && typeof referrer !== 'string') return undefined;
  if (Object.hasOwn(entry, 'retries') && retries === undefined) return undefined;
  let ref = '';
  if (referrer !== undefined) {
    if (referrer === '' || referrer.startsWith('/') || referrer.includes('\t')) return undefined;
    ref = referrer.startsWith(`${origin}/`) ? referrer.slice(origin.length) : referrer;
  }
  return `${retries === undefined ? '' : String(retries)}\t${url}\t${String(depth)}\t${ref}`;
}

/**
 * The origin of a URL as text: what comes before the first `/` after `://` ('' when there is no
 * such `/`). The scripts cut URLs at the same place (frontier-scripts.ts, originOf).
 */
export function originOf(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme <= 0) return '';
  const slash = url.indexOf('/', scheme + 3);
  return slash < 0 ? '' : url.slice(0, slash);
}

export function encodeLastFetch(last: LastFetch): string {
  const { dueAt, hints, fetchedAt, ...rest } = last;
  // fetchedAt first: the scripts read it there as text (frontier-scripts.ts, fetchedAtOf).
  const others = JSON.stringify(rest);
  const json = `{"fetchedAt":${JSON.stringify(fetchedAt)}${others === '{}' ? '}' : `,${others.slice(1)}`}`;
  return `${String(dueAt)}\n${hints === undefined ? '' : JSON.stringify(hints)}\n${json}`;
}

export function decodeLastFetch(record: string): LastFetch {
  const first = record.indexOf('\n');
  const second = record.indexOf('\n', first + 1);
  const hints = record.slice(first + 1, second);
  const rest = JSON.parse(record.slice(second + 1)) as Omit<LastFetch, 'dueAt' | 'hints'>;
  const dueAt = Number(record.slice(0, first));
  return hints === '' ? { ...rest, dueAt } : { ...rest, dueAt, hints: JSON.parse(hints) as RevisitHints };
}
