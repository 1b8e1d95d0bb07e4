// Which hosts the report shows in full, which it summarises, and which it groups (PURE). A crawl
// that meets hundreds of hosts, most of them unreachable, must still read at a glance: the hosts
// that were crawled come first, busiest first; the hosts whose robots.txt could not be read and
// that saw no other request are grouped by why; past `shownHosts`, contacted hosts are listed in
// one compact table. A host with a gap shorter than its delay is always shown in full.

import { hostVerdict } from './host-section.js';
import type { HostReport } from './report-data.js';

/** Hosts shown in full (glance table row, section, lane in the overview) unless told otherwise. */
export const SHOWN_HOSTS = 25;

/** Hosts that saw no request but robots.txt's, which could not be read, grouped by one reason. */
export interface UnreachableGroup {
  /** For people: `connection refused`, `robots.txt answered 503`, `no request made`. */
  readonly reason: string;
  readonly hosts: readonly HostReport[];
}

export interface RankedHosts {
  /** Busiest first (requests, then pages); every impolite host is among them. */
  readonly shown: readonly HostReport[];
  /** Contacted hosts past the shown ones, busiest first. */
  readonly rest: readonly HostReport[];
  /** Largest group first. */
  readonly unreachable: readonly UnreachableGroup[];
  /** The unreachable hosts are only in their groups (a large crawl), not also among `shown`. */
  readonly grouped: boolean;
}

/**
 * Splits a report's hosts into shown, rest and unreachable groups. A crawl of at most
 * `shownHosts` hosts shows every host in full (busiest first); its unreachable groups are a
 * summary beside them. A larger one shows the busiest crawled hosts, and its unreachable hosts
 * only in their groups.
 */
export function rankHosts(hosts: readonly HostReport[], shownHosts = SHOWN_HOSTS): RankedHosts {
  const groups = new Map<string, HostReport[]>();
  const crawled: HostReport[] = [];
  for (const host of hosts) {
    // An impolite host is shown in full, whatever else it is.
    const reason = hostVerdict(host).polite ? notCrawledReason(host) : null;
    if (reason === null) crawled.push(host);
    else groups.set(reason, [...(groups.get(reason) ?? []), host]);
  }
  const unreachable = [...groups]
    .map(([reason, members]) => ({ reason, hosts: members.sort((a, b) => byName(a, b)) }))
    .sort((a, b) => b.hosts.length - a.hosts.length || a.reason.localeCompare(b.reason));
  if (hosts.length <= shownHosts) return { shown: [...hosts].sort(byBusiest), rest: [], unreachable, grouped: false };
  crawled.sort(byBusiest);
  const shown = crawled.slice(0, shownHosts);
  const rest: HostReport[] = [];
  // Impolite hosts are never summarised away (nor grouped as not crawled: see above).
  for (const host of crawled.slice(shownHosts)) (hostVerdict(host).polite ? rest : shown).push(host);
  return { shown, rest, unreachable, grouped: true };
}

function byBusiest(a: HostReport, b: HostReport): number {
  return b.requestCount - a.requestCount || pagesOf(b) - pagesOf(a) || byName(a, b);
}

function pagesOf(host: HostReport): number {
  return host.requests.reduce((n, request) => n + (request.kind === 'page' ? 1 : 0), 0);
}

/**
 * Why a host was not crawled, or null when it was: no request at all, or only robots.txt requests
 * that never yielded rules (network errors, 5xx, 429).
 */
export function notCrawledReason(host: HostReport): string | null {
  if (host.requestCount === 0) {
    const decision = host.decisions[0];
    return decision === undefined ? 'no request made' : `no request made (${decision.detail ?? decision.basis})`;
  }
  if (host.requests.some((request) => request.kind !== 'robots')) return null;
  const last = host.robotsFetches[host.robotsFetches.length - 1];
  if (last === undefined || last.outcome !== 'unreachable') return null;
  if (last.status !== null) return `robots.txt answered ${last.status}`;
  return networkReason(last.error ?? '');
}

/** A network error's message as a reason shared by many hosts: no address, port or URL in it. */
export function networkReason(message: string): string {
  const known: [RegExp, string][] = [
    [/ECONNREFUSED/, 'connection refused'],
    [/ENOTFOUND|EAI_AGAIN|getaddrinfo|cannot resolve/, 'host name not found'],
    [/ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT|timed? ?out/i, 'timed out'],
    [/ECONNRESET|UND_ERR_SOCKET|socket hang up|other side closed/i, 'connection reset'],
    [
      /ERR_ADDRESS_BLOCKED|blocked address|not allowed by allowNet|refused to connect to/i,
      'address blocked (allowNet)',
    ],
    [/EHOSTUNREACH|ENETUNREACH/, 'host unreachable'],
    [/certificate|CERT_|self.signed|TLS|SSL/i, 'TLS error'],
  ];
  for (const [pattern, reason] of known) if (pattern.test(message)) return reason;
  const generic = message
    .replace(/\bhttps?:\/\/\S+/g, '<url>')
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '<address>')
    .replace(/\s+/g, ' ')
    .trim();
  return generic === '' ? 'network error' : `network error: ${generic.slice(0, 80)}`;
}

/** Host names in the order a person expects: 127.0.0.2 before 127.0.0.10. */
function byName(a: HostReport, b: HostReport): number {
  return a.hostKey.localeCompare(b.hostKey, 'en', { numeric: true });
}
