// Building HTML from strings that may come from the web: every value goes through `escapeHtml`
// (text and attribute values alike), so a URL or a robots.txt line can never become markup.

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML and SVG, in element content and in quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A table row of cells that are already HTML. */
export function row(cells: readonly string[], tag: 'td' | 'th' = 'td'): string {
  return `<tr>${cells.map((cell) => `<${tag}>${cell}</${tag}>`).join('')}</tr>`;
}

/** A table with a header of plain-text labels and rows of HTML cells. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], className = ''): string {
  const head = row(header.map(escapeHtml), 'th');
  const cls = className === '' ? '' : ` class="${escapeHtml(className)}"`;
  return `<table${cls}><thead>${head}</thead><tbody>${rows.map((r) => row(r)).join('')}</tbody></table>`;
}

/** `1,234`. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `850 ms`, `12.3 s`, `4 min 05 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')} s`;
}

/** `1.2 MB`. */
export function bytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = n / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A horizontal bar (inline SVG, no script) for a value out of a maximum. */
export function meter(value: number, max: number, color: string): string {
  const width = max > 0 ? Math.max(1, Math.round((value / max) * 160)) : 0;
  return `<svg class="meter" width="160" height="10" role="img" aria-hidden="true"><rect width="${width}" height="10" rx="2" fill="${escapeHtml(color)}"/></svg>`;
}
