// TDMRep values (W3C TDMRep Community Group Final Report, "tdm-reservation"):
// 1 — TDM rights are reserved; 0 — not reserved; any other value is a protocol error and the
// reservation is "unset".

import type { UsagePreference } from './statement.js';
import { TDMREP_VOCABULARY } from './vocabulary.js';

/**
 * `tdm-reservation` as a preference: `1` reserved, `0` allowed, anything else undefined (unset).
 * Surrounding whitespace is ignored; a field repeated with one value (`1, 1`) is that value.
 * A JSON number or boolean-free string is accepted as tdmrep.json gives it.
 */
export function tdmReservationOf(value: unknown): UsagePreference | undefined {
  let text: string;
  if (typeof value === 'number') text = String(value);
  else if (typeof value === 'string') text = value;
  else return undefined;
  const parts = new Set(text.split(',').map((part) => part.trim()));
  if (parts.size !== 1) return undefined;
  const only = [...parts][0];
  if (only === TDMREP_VOCABULARY.reserve) return 'reserved';
  if (only === TDMREP_VOCABULARY.allow) return 'allowed';
  return undefined;
}
