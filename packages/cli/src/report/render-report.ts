// renderCrawlReport (PURE): the report's data → one self-contained HTML file (inline CSS and
// SVG, no script, no external resource). Its first screen answers "was the crawl polite?";
// the rest shows why: per host, every request on a time axis, every gap against its delay,
// and every robots.txt decision with the line that made it.

import { maskSecrets } from '@politely/core';
import { type RankedHosts, rankHosts } from './host-ranking.js';
import {
  hostSection,
  hostTitle,
  hostVerdict,
  renderTable,
  revisitTable,
  robotsSummary,
  tightest,
} from './host-section.js';
import { bytes, count, duration, escapeHtml, meter, table } from './html.js';
import { overviewSvg } from './overview-svg.js';
import type { CrawlReportData, HostReport } from './report-data.js';
import { REPORT_CSS } from './report-style.js';
import { KIND_COLORS } from './timeline-svg.js';

/** Renders the crawl report as a complete HTML document. */
export function renderCrawlReport(data: CrawlReportData): string {
  const ranked = rankHosts(data.hosts);
  const ids = anchorsOf(data.hosts, ranked);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(data.title)}</title>
<link rel="icon" href="data:,">
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(data.title)}</h1>
<p class="meta">${escapeHtml(metaLine(data))}</p>
${politenessBanner(data, ids)}
${(data.runs ?? 1) > 1 ? `<div class="banner info">One crawl in ${escapeHtml(count(data.runs ?? 1))} runs: it was stopped and resumed from its store; the figures cover every run.</div>` : ''}
${data.aborted ? `<div class="banner warn">Stopped before the end (interrupted): ${escapeHtml(count(data.totals.queued))} URLs were still queued.</div>` : ''}
<h2>At a glance</h2>
${glanceTable(ranked.shown, ids)}
${glanceNote(data.hosts.length, ranked)}
${ranked.shown.length > 1 ? `<h4>Requests over time, one lane per host (its delay at the end)</h4>\n${overviewSvg(ranked.shown, data.startedAt, data.finishedAt, ids)}` : ''}
${notCrawledTable(ranked)}
<h2>Totals</h2>
${totalCards(data)}
${data.totals.revisits === undefined ? '' : `<h4>Recrawl: what the revisits found (bytes saved: the bodies the 304s did not send, against a full recrawl)</h4>\n${revisitTable(data.totals.revisits)}`}
${data.totals.rendering === undefined ? '' : `<h4>Rendering: pages loaded in Chromium, and what they asked for (sent through robots.txt, the address guard and each host's clock, or refused)</h4>\n${renderTable(data.totals.rendering)}`}
${settingsBlock(data)}
<h2>Status codes</h2>
${countsWithBars(data.statuses, 'status', '#2563eb', 'No responses.')}
<h2>Skipped URLs, by reason</h2>
${countsWithBars(data.skips, 'reason', '#7c3aed', 'Nothing was skipped.')}
<h2>Slowest hosts</h2>
${slowestHosts(data.hosts, ids)}
<h2>Hosts</h2>
<p class="legend">${legend()}</p>
${ranked.shown.map((host) => hostSection(host, ids.get(host) ?? '', data.startedAt, data.finishedAt)).join('\n')}
${otherHostsTable(ranked.rest, ids)}
${errorsBlock(data)}
<footer>Made by politely. Marks on the timelines are when each request started; gaps are measured between requests that reached the server, from when each was written to its socket, as the crawler saw it; the dashed line is the gap each host's clock had to keep (the larger of robots.txt's Crawl-delay and the crawl's minimum delay).</footer>
</main>
</body>
</html>
`;
}

/**
 * Each host's anchor: its own section or row, or (a large crawl's unreachable host) its group's
 * row. Numbered in the report's host order, so a host keeps its anchor whatever is shown.
 */
function anchorsOf(hosts: readonly HostReport[], ranked: RankedHosts): Map<HostReport, string> {
  const ids = new Map(hosts.map((host, i) => [host, `host-${i + 1}`]));
  if (ranked.grouped)
    ranked.unreachable.forEach((group, i) => {
      for (const host of group.hosts) ids.set(host, `not-crawled-${i + 1}`);
    });
  return ids;
}

/** What the glance table leaves out, and where it is. */
function glanceNote(total: number, ranked: RankedHosts): string {
  if (!ranked.grouped) return '';
  const notCrawled = ranked.unreachable.reduce((n, group) => n + group.hosts.length, 0);
  const parts = [`The ${count(ranked.shown.length)} busiest of ${count(total)} hosts, busiest first.`];
  if (ranked.rest.length > 0)
    parts.push(
      `${count(ranked.rest.length)} more crawled hosts are listed under <a href="#other-hosts">Other hosts</a>.`,
    );
  if (notCrawled > 0)
    parts.push(`${count(notCrawled)} hosts were not crawled: <a href="#not-crawled">grouped by why</a>.`);
  return `<p class="muted">${parts.join(' ')}</p>`;
}

/** Hosts whose robots.txt could not be read (and that saw nothing else), grouped by why. */
function notCrawledTable(ranked: RankedHosts): string {
  if (ranked.unreachable.length === 0) return '';
  const rows = ranked.unreachable.map((group, i) => {
    const names = group.hosts.slice(0, 8).map((host) => escapeHtml(host.label ?? host.hostKey));
    const more = group.hosts.length > 8 ? ` … and ${escapeHtml(count(group.hosts.length - 8))} more` : '';
    const id = ranked.grouped ? ` id="not-crawled-${i + 1}"` : '';
    return [
      `<span${id}>${escapeHtml(group.reason)}</span>`,
      escapeHtml(count(group.hosts.length)),
      names.join(', ') + more,
    ];
  });
  return `<h4 id="not-crawled">Hosts not crawled: robots.txt could not be read, by why</h4>${table(['why', 'hosts', 'which'], rows, 'not-crawled')}`;
}

/** Crawled hosts past the shown ones: one row each, with its anchor. */
function otherHostsTable(hosts: readonly HostReport[], ids: ReadonlyMap<HostReport, string>): string {
  if (hosts.length === 0) return '';
  const rows = hosts.map((host) => [
    `<span id="${escapeHtml(ids.get(host) ?? '')}">${hostTitle(host)}</span>`,
    escapeHtml(count(host.requestCount)),
    escapeHtml(robotsSummary(host)),
    escapeHtml(duration(host.delayMs)),
    escapeHtml(tightest(host)),
  ]);
  return `<h3 id="other-hosts">Other hosts (${escapeHtml(count(hosts.length))}), busiest first</h3>${table(['host', 'requests', 'robots.txt', 'delay', 'tightest gap'], rows, 'other-hosts')}`;
}

function metaLine(data: CrawlReportData): string {
  const started = new Date(data.startedAt)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  const seeds = data.seeds.length === 1 ? `seed ${data.seeds[0]}` : `${data.seeds.length} seeds`;
  return `${started} · ${duration(data.totals.durationMs)} · user agent ${data.userAgent} · ${seeds}`;
}

/** Was the crawl polite? Each host named in a ✗ links to its section, where its tightest gap is shown. */
function politenessBanner(data: CrawlReportData, ids: ReadonlyMap<HostReport, string>): string {
  const impolite = data.hosts.filter((host) => !hostVerdict(host).polite);
  const disallowed = data.hosts.reduce(
    (sum, host) => sum + host.decisions.filter((d) => !d.allowed).reduce((n, d) => n + d.count, 0),
    0,
  );
  const robotsLine = `${count(disallowed)} URL${disallowed === 1 ? '' : 's'} that robots.txt disallowed (or could not be read for) were skipped, never requested.`;
  if (impolite.length === 0) {
    return `<div class="banner ok"><span class="verdict ok">✓</span> Polite: at every one of ${count(data.hosts.length)} hosts, requests reached the server at least the host's delay apart (attempts that failed before being sent make no gap).<small>${escapeHtml(robotsLine)}</small></div>`;
  }
  const names = impolite
    .map((host) => `<a href="#${escapeHtml(ids.get(host) ?? '')}">${escapeHtml(host.label ?? host.hostKey)}</a>`)
    .join(', ');
  return `<div class="banner bad"><span class="verdict bad">✗</span> Gaps shorter than the delay at ${escapeHtml(count(impolite.length))} host(s): ${names}.<small>${escapeHtml(robotsLine)}</small></div>`;
}

function glanceTable(hosts: readonly HostReport[], ids: ReadonlyMap<HostReport, string>): string {
  if (hosts.length === 0) return '<p class="muted">No host was contacted.</p>';
  const rows = hosts.map((host) => {
    const verdict = hostVerdict(host);
    const disallowed = host.decisions.filter((d) => !d.allowed).reduce((n, d) => n + d.count, 0);
    return [
      `<span class="verdict ${verdict.polite ? 'ok' : 'bad'}">${verdict.mark}</span>`,
      `<a href="#${escapeHtml(ids.get(host) ?? '')}">${hostTitle(host)}</a>`,
      escapeHtml(count(host.requestCount)),
      escapeHtml(robotsSummary(host)),
      escapeHtml(duration(host.delayMs)),
      escapeHtml(tightest(host)),
      escapeHtml(count(disallowed)),
    ];
  });
  return table(
    ['polite', 'host', 'requests', 'robots.txt', 'delay', 'tightest gap', 'disallowed, skipped'],
    rows,
    'glance',
  );
}

function totalCards(data: CrawlReportData): string {
  const t = data.totals;
  const cards: [string, string][] = [
    [count(t.pages), 'pages fetched'],
    [count(t.requests), 'requests'],
    [count(t.robotsRequests), 'robots.txt requests'],
    [count(data.hosts.length), 'hosts'],
    [duration(t.durationMs), 'duration'],
    [t.pagesPerSecond.toFixed(1), 'pages / s'],
    [bytes(t.bytes), 'received (decoded)'],
    [count(t.errors), 'errors'],
    [count(t.retries), 'retries'],
    [count(t.queued), 'still queued'],
  ];
  if (t.signedRequests !== undefined) cards.splice(3, 0, [count(t.signedRequests), 'signed requests (Web Bot Auth)']);
  // Requests a stop aborted: their URLs went back to the store, and a resumed run fetches them again.
  if (t.releasedAtStop !== undefined) cards.push([count(t.releasedAtStop), 'cut by a stop: fetched again']);
  return `<div class="cards">${cards.map(([value, label]) => `<div class="card"><b>${escapeHtml(value)}</b><span>${escapeHtml(label)}</span></div>`).join('')}</div>`;
}

function settingsBlock(data: CrawlReportData): string {
  if (data.settings.length === 0) return '';
  // Settings come masked; masked again here for reports merged from runs that did not mask them.
  const rows = data.settings.map(([name, value]) => [
    escapeHtml(name),
    `<code>${escapeHtml(maskSecrets(value))}</code>`,
  ]);
  return `<h4>Settings</h4>${table(['setting', 'value'], rows, 'compact')}`;
}

function countsWithBars(counts: Readonly<Record<string, number>>, label: string, color: string, empty: string): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return `<p class="muted">${escapeHtml(empty)}</p>`;
  const max = Math.max(...entries.map(([, n]) => n));
  return table(
    [label, 'count', ''],
    entries.map(([key, n]) => [escapeHtml(key), escapeHtml(count(n)), meter(n, max, color)]),
    'compact',
  );
}

function slowestHosts(hosts: readonly HostReport[], ids: ReadonlyMap<HostReport, string>): string {
  const timed = hosts
    .filter((host) => host.latency.meanMs !== null)
    .sort((a, b) => (b.latency.meanMs ?? 0) - (a.latency.meanMs ?? 0));
  if (timed.length === 0) return '<p class="muted">No response was timed.</p>';
  const max = timed[0]?.latency.meanMs ?? 0;
  const rows = timed
    .slice(0, 10)
    .map((host) => [
      `<a href="#${escapeHtml(ids.get(host) ?? '')}">${hostTitle(host)}</a>`,
      escapeHtml(duration(host.latency.meanMs ?? 0)),
      escapeHtml(duration(host.latency.maxMs ?? 0)),
      escapeHtml(count(host.latency.count)),
      meter(host.latency.meanMs ?? 0, max, '#ea580c'),
    ]);
  return table(['host', 'mean latency', 'slowest', 'responses', ''], rows, 'compact');
}

function legend(): string {
  const items: [string, string][] = [
    ['robots', 'robots.txt'],
    ['page', 'page'],
    ['sitemap', 'sitemap'],
    ['sub-resource', "a rendered page's request"],
    ['client', '4xx/5xx'],
    ['failed', 'network error'],
  ];
  const marks = items.map(
    ([kind, label]) => `<span><i style="background:${KIND_COLORS[kind] ?? '#64748b'}"></i>${escapeHtml(label)}</span>`,
  );
  const bars =
    '<span><i style="background:#22c55e"></i>gap ≥ delay</span><span><i style="background:#dc2626"></i>gap shorter than the delay</span><span>- - - delay</span><span><i style="background:#86efac"></i>gap taller than the chart (cut)</span>';
  return marks.join('') + bars;
}

function errorsBlock(data: CrawlReportData): string {
  if (data.errors.length === 0) return '';
  const rows = data.errors.map((error) => [
    `<span class="url">${escapeHtml(error.url)}</span>`,
    escapeHtml(error.stage),
    escapeHtml(error.message),
  ]);
  const more =
    data.totals.errors > data.errors.length
      ? `<p class="muted">${escapeHtml(count(data.totals.errors - data.errors.length))} more not listed.</p>`
      : '';
  return `<h2>Errors</h2>${table(['URL', 'stage', 'error'], rows)}${more}`;
}
