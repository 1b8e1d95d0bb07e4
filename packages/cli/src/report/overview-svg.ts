// The crawl at a glance as one picture (PURE): a lane per shown host on the crawl's time axis,
// a mark per request (coloured as in the host timelines), and the host's delay at the lane's end.
// With hundreds of hosts a person would rather look than read: where time went, which hosts
// were busy, which waited.

import { duration, escapeHtml } from './html.js';
import type { HostReport } from './report-data.js';
import { colorOf, f, niceStep } from './timeline-svg.js';

const WIDTH = 960;
const LABEL_WIDTH = 190;
const DELAY_WIDTH = 70;
const PLOT = WIDTH - LABEL_WIDTH - DELAY_WIDTH;
const LANE = 16;
const TOP = 6;
/** Marks drawn per lane at most; beyond, every k-th request is drawn. */
const MAX_MARKS_PER_LANE = 600;
/** Characters of a host's name shown in its lane's label. */
const LABEL_CHARS = 30;

/** Lanes of requests over time for `hosts`, each label linking to the host's section by `ids`. */
export function overviewSvg(
  hosts: readonly HostReport[],
  startedAt: number,
  finishedAt: number,
  ids: ReadonlyMap<HostReport, string>,
): string {
  if (hosts.length === 0) return '';
  const span = Math.max(finishedAt - startedAt, 1);
  const x = (at: number): number => LABEL_WIDTH + (Math.min(Math.max(at - startedAt, 0), span) / span) * PLOT;
  const bottom = TOP + hosts.length * LANE;
  const height = bottom + 18;
  const step = niceStep(span, 8);
  const ticks: string[] = [];
  for (let t = 0; t <= span + 1e-6; t += step) {
    const at = f(x(startedAt + t));
    ticks.push(`<line class="tick" x1="${at}" x2="${at}" y1="${TOP}" y2="${bottom}"/>`);
    ticks.push(
      `<text class="axis" x="${at}" y="${bottom + 13}" text-anchor="middle">${escapeHtml(duration(t))}</text>`,
    );
  }
  const lanes = hosts.map((host, i) => lane(host, TOP + i * LANE, x, ids.get(host) ?? ''));
  const caption = `Requests over time at the ${hosts.length} hosts shown, one lane each, with each host's delay`;
  return `<svg class="overview" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeHtml(caption)}">
${ticks.join('\n')}
${lanes.join('\n')}
</svg>`;
}

function lane(host: HostReport, top: number, x: (at: number) => number, id: string): string {
  const name = host.label ?? host.hostKey;
  const shortName = name.length > LABEL_CHARS ? `${name.slice(0, LABEL_CHARS - 1)}…` : name;
  const every = Math.max(1, Math.ceil(host.requests.length / MAX_MARKS_PER_LANE));
  const marks = host.requests
    .filter((_, i) => i % every === 0)
    .map((request) => {
      const at = f(x(request.at));
      return `<line class="mark" x1="${at}" x2="${at}" y1="${top + 2}" y2="${top + LANE - 3}" stroke="${colorOf(request)}"/>`;
    });
  const middle = top + LANE / 2 + 4;
  return `<g class="lane"><title>${escapeHtml(`${name}: ${host.requestCount} requests, delay ${duration(host.delayMs)}`)}</title>
<a href="#${escapeHtml(id)}"><text class="lane-label" x="${LABEL_WIDTH - 8}" y="${middle}" text-anchor="end">${escapeHtml(shortName)}</text></a>
<line class="baseline" x1="${LABEL_WIDTH}" x2="${LABEL_WIDTH + PLOT}" y1="${top + LANE - 2}" y2="${top + LANE - 2}"/>
${marks.join('')}
<text class="axis" x="${LABEL_WIDTH + PLOT + 8}" y="${middle}">${escapeHtml(duration(host.delayMs))}</text></g>`;
}
