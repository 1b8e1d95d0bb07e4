// The two pictures of a host's politeness, as inline SVG (PURE): a timeline of its requests on
// the crawl's time axis, and its gaps (one bar per gap between consecutive requests that reached
// the server, from when each was written) against the delay it owed, drawn as a reference line.
// A bar under the line is a gap that was too short, and is drawn red.

import { duration, escapeHtml } from './html.js';
import type { HostReport, ReportRequest } from './report-data.js';

const WIDTH = 960;
const PAD_LEFT = 56;
const PAD_RIGHT = 12;
const PLOT = WIDTH - PAD_LEFT - PAD_RIGHT;
/** Bars drawn at most; beyond, each bar is the shortest gap of a run of gaps (the one that matters). */
const MAX_BARS = 480;
/** Timeline marks drawn at most; beyond, every k-th request is drawn. */
const MAX_MARKS = 3000;

export const KIND_COLORS: Readonly<Record<string, string>> = {
  robots: '#7c3aed',
  page: '#2563eb',
  sitemap: '#0d9488',
  'sub-resource': '#ca8a04',
  other: '#64748b',
  failed: '#dc2626',
  client: '#ea580c',
};

/** One gap between two consecutive requests sent to a host, and the delay that applied. */
export interface RequestGap {
  readonly gapMs: number;
  readonly delayMs: number;
  /** The later request. */
  readonly request: ReportRequest;
}

/**
 * When a request reached its server: its `sentAt`; in a report made before send times were
 * recorded, its start if it was answered. Undefined for an attempt that never reached a server.
 */
export function sentAtOf(request: ReportRequest): number | undefined {
  if (request.sentAt !== undefined) return request.sentAt;
  return typeof request.status === 'number' ? request.at : undefined;
}

/**
 * The gaps between the host's requests that reached a server, in the order they were written
 * (as the collector measures them: a request's own delay, else the latest seen).
 */
export function requestGaps(host: Pick<HostReport, 'requests' | 'delayMs'>): RequestGap[] {
  const sent = host.requests
    .map((request) => ({ request, at: sentAtOf(request) }))
    .filter((entry): entry is { request: ReportRequest; at: number } => entry.at !== undefined)
    .sort((a, b) => a.at - b.at);
  const gaps: RequestGap[] = [];
  let latestDelay: number | undefined;
  let previousAt: number | undefined;
  for (const { request, at } of sent) {
    if (request.delayMs !== undefined) latestDelay = request.delayMs;
    if (previousAt !== undefined)
      gaps.push({ gapMs: at - previousAt, delayMs: request.delayMs ?? latestDelay ?? host.delayMs, request });
    previousAt = at;
  }
  return gaps;
}

/** A request's mark colour: by kind, or by what went wrong. */
export function colorOf(request: ReportRequest): string {
  if (request.status === null) return KIND_COLORS['failed'] as string;
  if (request.status !== undefined && request.status >= 400 && request.kind !== 'robots')
    return KIND_COLORS['client'] as string;
  return KIND_COLORS[request.kind] ?? (KIND_COLORS['other'] as string);
}

function statusText(request: ReportRequest): string {
  if (request.status === undefined) return 'no answer seen';
  if (request.status === null)
    return request.sentAt === undefined ? 'network error before it was sent: no gap' : 'network error';
  return `HTTP ${request.status}${request.durationMs === undefined ? '' : `, ${request.durationMs} ms`}`;
}

/** Round steps for an axis: 1, 2 or 5 × a power of ten, about `target` of them over `span`. */
export function niceStep(span: number, target: number): number {
  const raw = Math.max(span / target, 1e-9);
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

/** A coordinate with one decimal at most. */
export const f = (n: number): string => (Math.round(n * 10) / 10).toString();

/** The host's requests as marks on the crawl's time axis (`startedAt` to `finishedAt`). */
export function timelineSvg(host: HostReport, startedAt: number, finishedAt: number): string {
  const span = Math.max(finishedAt - startedAt, 1);
  const x = (at: number): number => PAD_LEFT + (Math.min(Math.max(at - startedAt, 0), span) / span) * PLOT;
  const height = 58;
  const step = niceStep(span, 8);
  const ticks: string[] = [];
  for (let t = 0; t <= span + 1e-6; t += step) {
    ticks.push(`<line class="tick" x1="${f(x(startedAt + t))}" x2="${f(x(startedAt + t))}" y1="8" y2="40"/>`);
    const anchor = x(startedAt + t) > WIDTH - PAD_RIGHT - 24 ? 'end' : 'middle';
    ticks.push(
      `<text class="axis" x="${f(x(startedAt + t))}" y="54" text-anchor="${anchor}">${escapeHtml(duration(t))}</text>`,
    );
  }
  const every = Math.max(1, Math.ceil(host.requests.length / MAX_MARKS));
  const marks = host.requests
    .filter((_, i) => i % every === 0)
    .map((request) => {
      const top = request.kind === 'robots' ? 6 : 12;
      const label = `+${duration(request.at - startedAt)} ${request.kind} ${request.url} (${statusText(request)})`;
      return `<line class="mark" x1="${f(x(request.at))}" x2="${f(x(request.at))}" y1="${top}" y2="40" stroke="${colorOf(request)}"><title>${escapeHtml(label)}</title></line>`;
    });
  const caption = `Requests to ${host.label ?? host.hostKey} over time: ${host.requestCount} marks`;
  return `<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeHtml(caption)}">
<text class="axis" x="4" y="28">requests</text>
<line class="baseline" x1="${PAD_LEFT}" x2="${WIDTH - PAD_RIGHT}" y1="40" y2="40"/>
${ticks.join('\n')}
${marks.join('\n')}
</svg>`;
}

/** Runs of gaps reduced to at most `MAX_BARS` bars, each the gap with the smallest gap ÷ delay. */
function bars(gaps: readonly RequestGap[]): { gap: RequestGap; first: number; last: number }[] {
  const size = Math.max(1, Math.ceil(gaps.length / MAX_BARS));
  const result: { gap: RequestGap; first: number; last: number }[] = [];
  for (let start = 0; start < gaps.length; start += size) {
    const run = gaps.slice(start, start + size);
    const worst = run.reduce((a, b) => (ratioOf(b) < ratioOf(a) ? b : a));
    result.push({ gap: worst, first: start + 1, last: start + run.length });
  }
  return result;
}

const ratioOf = (gap: RequestGap): number => (gap.delayMs > 0 ? gap.gapMs / gap.delayMs : Infinity);

/** The gaps as bars against the delay line. Empty string when the host has fewer than two requests. */
export function gapChartSvg(host: HostReport): string {
  const gaps = requestGaps(host);
  if (gaps.length === 0) return '';
  const height = 150;
  const top = 14;
  const bottom = 120;
  const maxDelay = Math.max(...gaps.map((g) => g.delayMs));
  const maxGap = Math.max(...gaps.map((g) => g.gapMs));
  const yMax = maxDelay > 0 ? Math.max(maxDelay * 2, Math.min(maxGap, maxDelay * 6)) : Math.max(maxGap, 1);
  const y = (ms: number): number => bottom - (Math.min(ms, yMax) / yMax) * (bottom - top);
  const drawn = bars(gaps);
  const slot = PLOT / drawn.length;
  const barWidth = Math.min(28, Math.max(1, slot * 0.7));
  const rects = drawn.map(({ gap, first, last }, i) => {
    const short = gap.gapMs < gap.delayMs;
    const clipped = gap.gapMs > yMax;
    const left = PAD_LEFT + i * slot + (slot - barWidth) / 2;
    const which = first === last ? `gap ${first}` : `gaps ${first}–${last} (shortest shown)`;
    const label = `${which}: ${Math.round(gap.gapMs)} ms before ${gap.request.url}; delay ${Math.round(gap.delayMs)} ms${short ? ' (TOO SHORT)' : ''}`;
    const rect = `<rect class="${short ? 'bar short' : clipped ? 'bar clipped' : 'bar'}" x="${f(left)}" y="${f(y(gap.gapMs))}" width="${f(barWidth)}" height="${f(bottom - y(gap.gapMs))}"><title>${escapeHtml(label)}</title></rect>`;
    // A gap taller than the chart: cut at the top, with a mark saying so.
    return clipped ? `${rect}<rect class="cut" x="${f(left)}" y="${top}" width="${f(barWidth)}" height="3"/>` : rect;
  });
  const delays = drawn.map(({ gap }) => gap.delayMs);
  const constant = delays.every((d) => d === delays[0]);
  const delayLine = constant
    ? `<line class="delay" x1="${PAD_LEFT}" x2="${WIDTH - PAD_RIGHT}" y1="${f(y(maxDelay))}" y2="${f(y(maxDelay))}"/>`
    : `<polyline class="delay" fill="none" points="${drawn
        .flatMap(({ gap }, i) => [
          `${f(PAD_LEFT + i * slot)},${f(y(gap.delayMs))}`,
          `${f(PAD_LEFT + (i + 1) * slot)},${f(y(gap.delayMs))}`,
        ])
        .join(' ')}"/>`;
  const caption = `Gaps between consecutive requests to ${host.label ?? host.hostKey}, against the delay of ${Math.round(maxDelay)} ms`;
  return `<svg class="gaps" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeHtml(caption)}">
<line class="baseline" x1="${PAD_LEFT}" x2="${WIDTH - PAD_RIGHT}" y1="${bottom}" y2="${bottom}"/>
<text class="axis" x="${PAD_LEFT - 6}" y="${bottom + 4}" text-anchor="end">0</text>
<text class="axis" x="${PAD_LEFT - 6}" y="${top + 4}" text-anchor="end">${escapeHtml(duration(yMax))}</text>
${rects.join('\n')}
${delayLine}
<text class="delay-label" x="${WIDTH - PAD_RIGHT}" y="${f(y(maxDelay) - 4)}" text-anchor="end">delay ${escapeHtml(duration(maxDelay))}${constant ? '' : ' (largest)'}</text>
<text class="axis" x="${PAD_LEFT}" y="${height - 12}">gap 1</text>
<text class="axis" x="${WIDTH - PAD_RIGHT}" y="${height - 12}" text-anchor="end">gap ${gaps.length}</text>
</svg>`;
}
