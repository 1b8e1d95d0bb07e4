// One host's part of the crawl report (PURE): its politeness verdict, timeline, gap chart,
// robots.txt fetches and decisions (with the deciding lines), statuses and skips.

import { bytes, count, duration, escapeHtml, table } from './html.js';
import type {
  GapEnd,
  HostReport,
  RenderReport,
  RevisitReport,
  RobotsDecisionReport,
  RobotsFetchReport,
  UsageReservationReport,
} from './report-data.js';
import { gapChartSvg, timelineSvg } from './timeline-svg.js';

export interface HostVerdict {
  readonly polite: boolean;
  /** `✓` or `✗`. */
  readonly mark: string;
  /** One line for people. */
  readonly text: string;
}

/** Whether every gap at the host was at least the delay it owed. */
export function hostVerdict(host: HostReport): HostVerdict {
  const { gaps } = host;
  if (gaps.tooShort > 0) {
    return {
      polite: false,
      mark: '✗',
      text: `${count(gaps.tooShort)} of ${count(gaps.count)} gaps shorter than the delay`,
    };
  }
  if (gaps.count === 0 || gaps.minMs === null) {
    const sent = host.requestCount - (host.unsent ?? 0);
    return {
      polite: true,
      mark: '✓',
      text:
        host.requestCount === 0
          ? 'no request made'
          : sent === 0
            ? 'no request reached the server: no gap to measure'
            : 'one request: no gap to measure',
    };
  }
  return { polite: true, mark: '✓', text: `every gap ≥ its delay (tightest ${tightest(host)})` };
}

/** `201 ms ≥ 200 ms`. */
export function tightest(host: HostReport): string {
  const { minMs, delayAtMinMs } = host.gaps;
  if (minMs === null || delayAtMinMs === null) return '—';
  return `${duration(minMs)} ${minMs >= delayAtMinMs ? '≥' : '<'} ${duration(delayAtMinMs)}`;
}

/**
 * The two requests of the host's tightest gap, with when each was written (from the crawl's
 * start): the evidence behind a ✗. '' when the report has no pair (no gap, or an older report).
 */
export function tightestPair(host: HostReport, startedAt: number): string {
  const pair = host.gaps.tightest;
  if (pair === undefined) return '';
  const end = (request: GapEnd): string =>
    `${escapeHtml(request.kind === 'robots' ? 'robots.txt' : request.kind)} <span class="url">${escapeHtml(request.url)}</span> sent at +${escapeHtml(duration(Math.max(0, request.at - startedAt)))}`;
  const short = host.gaps.minMs !== null && host.gaps.delayAtMinMs !== null && host.gaps.minMs < host.gaps.delayAtMinMs;
  return `<p class="tightest${short ? ' bad' : ''}">Tightest gap ${escapeHtml(tightest(host))}: ${end(pair.before)}, then ${end(pair.after)}.</p>`;
}

/** The host's name as shown: its label and its host name. */
export function hostTitle(host: HostReport): string {
  const title =
    host.label === undefined
      ? escapeHtml(host.hostKey)
      : `${escapeHtml(host.label)} <span class="key">${escapeHtml(host.hostKey)}</span>`;
  // A key shared by several host names (--politeness-key domain or ip): they share one clock.
  const names = [...new Set(host.origins.map((origin) => new URL(origin).hostname))];
  if (names.length <= 1 || (names.length === 1 && names[0] === host.hostKey)) return title;
  return `${title} <span class="muted">(one politeness key: ${escapeHtml(String(names.length))} host names)</span>`;
}

/** How the host's robots.txt answered, in a few words (the latest fetch). */
export function robotsSummary(host: HostReport): string {
  const last = host.robotsFetches.at(-1);
  if (last === undefined) return 'not fetched';
  const status = last.status === null ? 'network error' : String(last.status);
  const meaning: Record<string, string> = {
    success: 'rules',
    unavailable: 'none: all allowed',
    unreachable: 'unreachable: all disallowed',
    redirect: 'redirect',
  };
  const tries = host.robotsFetches.length > 1 ? ` (${host.robotsFetches.length} fetches)` : '';
  return `${status} · ${meaning[last.outcome] ?? last.outcome}${tries}`;
}

function delayText(host: HostReport): string {
  const robots =
    host.crawlDelaySeconds === undefined ? 'no Crawl-delay for us' : `Crawl-delay ${host.crawlDelaySeconds} s`;
  return `delay kept ${duration(host.delayMs)} (${robots})`;
}

function fetchRows(fetches: readonly RobotsFetchReport[], startedAt: number): string[][] {
  return fetches.map((fetch) => [
    `+${escapeHtml(duration(Math.max(0, fetch.at - startedAt)))}`,
    `<span class="url">${escapeHtml(fetch.url)}</span>`,
    fetch.status === null ? 'network error' : escapeHtml(fetch.status),
    `<span class="outcome ${escapeHtml(fetch.outcome)}">${escapeHtml(fetch.outcome)}</span>${fetch.error === undefined ? '' : ` <span class="muted">${escapeHtml(fetch.error)}</span>`}`,
    escapeHtml(duration(fetch.durationMs)),
  ]);
}

/** What decided: the line (`line 5: Disallow: /cart`) or why robots.txt gave no line. */
function basisText(decision: RobotsDecisionReport): string {
  if (decision.line !== undefined)
    return `<code>line ${escapeHtml(decision.line)}: ${escapeHtml(decision.text ?? '')}</code>`;
  const words: Record<string, string> = {
    rules: decision.allowed ? 'no rule matched' : 'disallowed',
    unavailable: 'robots.txt unavailable (4xx): all allowed',
    cached: 'last good robots.txt (site unreachable now)',
    'unreachable-too-long': 'unreachable for too long: all allowed',
    'robots-unreachable': 'robots.txt unreachable: all disallowed',
  };
  const detail = decision.detail === undefined ? '' : ` <span class="muted">${escapeHtml(decision.detail)}</span>`;
  return `${escapeHtml(words[decision.basis] ?? decision.basis)}${detail}`;
}

function decisionRows(decisions: readonly RobotsDecisionReport[]): string[][] {
  return decisions.map((decision) => [
    decision.allowed ? '<span class="ok">allowed</span>' : '<span class="bad">disallowed</span>',
    basisText(decision),
    escapeHtml(count(decision.count)),
    decision.examples.map((url) => `<span class="url">${escapeHtml(url)}</span>`).join('<br>'),
  ]);
}

function reservationRows(reservations: readonly UsageReservationReport[]): string[][] {
  return reservations.map((reservation) => [
    `<span class="${reservation.skipped > 0 ? 'bad' : 'muted'}">${escapeHtml(reservation.purpose)}</span>`,
    `<code>${escapeHtml(reservation.source)}</code>`,
    escapeHtml(count(reservation.count)),
    reservation.skipped > 0 ? escapeHtml(count(reservation.skipped)) : '<span class="muted">0 (not a --purpose)</span>',
    reservation.examples.map((url) => `<span class="url">${escapeHtml(url)}</span>`).join('<br>'),
  ]);
}

/** Which purposes the host's usage preferences reserve, and by which source; '' for an old report. */
export function usageSection(host: HostReport): string {
  if (host.usage === undefined) return '';
  const body =
    host.usage.length === 0
      ? '<p class="muted">No usage reservation seen (no robots.txt Content-Usage/Content-Signal line, tdmrep.json rule, header or meta tag reserved a purpose).</p>'
      : table(['purpose reserved', 'by', 'URLs', 'skipped', 'examples'], reservationRows(host.usage));
  return `<h4>Usage preferences</h4>\n${body}\n`;
}

/** What revisits found: one table row of counts (a host's, or the crawl's). */
export function revisitTable(revisits: RevisitReport): string {
  const header = ['revisited', '304 not modified', 'unchanged 200', 'changed', 'bytes saved'];
  return table(
    header,
    [
      [
        count(revisits.revisited),
        count(revisits.notModified),
        count(revisits.unchanged),
        count(revisits.changed),
        bytes(revisits.bytesSaved),
      ].map(escapeHtml),
    ],
    'compact',
  );
}

/** What rendering cost: one table row (a host's, or the crawl's). */
export function renderTable(rendering: RenderReport): string {
  const refused = Object.entries(rendering.refused)
    .sort((a, b) => b[1] - a[1])
    .map(([why, n]) => `${count(n)} ${why}`)
    .join(', ');
  const header = ['pages rendered', 'sub-requests sent', 'answered by the cache', 'not sent'];
  return table(
    header,
    [
      [
        count(rendering.pageLoads),
        count(rendering.subRequests),
        count(rendering.fromCache),
        refused === '' ? 'none' : refused,
      ].map(escapeHtml),
    ],
    'compact',
  );
}

/** The host's rendering: '' when no rendered page loaded from it or asked anything of it. */
function renderSection(host: HostReport): string {
  if (host.rendering === undefined) return '';
  return `<h4>Rendering (every sub-request is in the timeline and the gap check above)</h4>\n${renderTable(host.rendering)}\n`;
}

/** The host's recrawl: '' when nothing of it was revisited. */
function revisitSection(host: HostReport): string {
  if (host.revisits === undefined || host.revisits.revisited === 0) return '';
  return `<h4>Recrawl</h4>\n${revisitTable(host.revisits)}\n`;
}

function countsTable(title: string, counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return '';
  return `<div><h4>${escapeHtml(title)}</h4>${table(
    ['', 'count'],
    entries.map(([key, n]) => [escapeHtml(key), escapeHtml(count(n))]),
    'compact',
  )}</div>`;
}

function kindsText(host: HostReport): string {
  const kinds = new Map<string, number>();
  for (const request of host.requests) kinds.set(request.kind, (kinds.get(request.kind) ?? 0) + 1);
  const parts = [...kinds].map(([kind, n]) => `${count(n)} ${kind === 'robots' ? 'robots.txt' : kind}`);
  const extra =
    host.requestCount > host.requests.length
      ? `, ${count(host.requestCount - host.requests.length)} more not drawn`
      : '';
  const unsent =
    host.unsent === undefined || host.unsent === 0
      ? ''
      : `; ${count(host.unsent)} never reached the server (failed before being sent: no gap measured)`;
  return `${count(host.requestCount)} requests (${parts.join(', ')}${extra})${unsent}`;
}

/** The host's section, with `id` as its anchor. */
export function hostSection(host: HostReport, id: string, startedAt: number, finishedAt: number): string {
  const verdict = hostVerdict(host);
  const facts = [kindsText(host), delayText(host), verdict.text];
  if (host.latency.meanMs !== null) facts.push(`mean latency ${duration(host.latency.meanMs)}`);
  const decisions =
    host.decisions.length === 0
      ? '<p class="muted">No robots.txt decision recorded.</p>'
      : table(['verdict', 'decided by', 'URLs', 'examples'], decisionRows(host.decisions));
  const fetches =
    host.robotsFetches.length === 0
      ? '<p class="muted">robots.txt was not fetched.</p>'
      : table(['at', 'URL', 'status', 'outcome', 'took'], fetchRows(host.robotsFetches, startedAt));
  return `<section class="host" id="${escapeHtml(id)}">
<h3><span class="verdict ${verdict.polite ? 'ok' : 'bad'}" title="${verdict.polite ? 'polite' : 'not polite'}">${verdict.mark}</span> ${hostTitle(host)}</h3>
<p class="facts">${facts.map(escapeHtml).join(' · ')}</p>
<p class="origins">${host.origins.map((origin) => `<span class="url">${escapeHtml(origin)}</span>`).join(' ')}</p>
${timelineSvg(host, startedAt, finishedAt)}
${gapChartSvg(host)}
${tightestPair(host, startedAt)}
<h4>robots.txt fetches</h4>
${fetches}
<h4>robots.txt decisions</h4>
${decisions}
${usageSection(host)}${revisitSection(host)}${renderSection(host)}<div class="cols">${countsTable('Statuses', host.statuses)}${countsTable('Skips', host.skips)}</div>
</section>`;
}
