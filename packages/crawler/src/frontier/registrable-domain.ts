// The registrable domain of a host name (the public suffix list, through tldts), for the scope
// (which site a URL belongs to) and the politeness key (which servers it is likely to reach).

import { getDomain } from 'tldts';

const WITH_PRIVATE = { allowPrivateDomains: true, extractHostname: false } as const;
const ICANN_ONLY = { allowPrivateDomains: false, extractHostname: false } as const;

export function withoutTrailingDot(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/**
 * The registrable domain (`shop.example.co.uk` → `example.co.uk`), or the host itself for IP
 * addresses, `localhost` and bare public suffixes. `privateSuffixes`: count the private section of
 * the list too (`github.io`, `blogspot.com`), whose tenants are different sites; without it,
 * `a.github.io` and `b.github.io` are one domain, as they are one platform's servers.
 */
export function registrableDomainOf(hostname: string, privateSuffixes: boolean): string {
  const host = withoutTrailingDot(hostname);
  return getDomain(host, privateSuffixes ? WITH_PRIVATE : ICANN_ONLY) ?? host;
}
