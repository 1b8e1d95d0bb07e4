// How a host name becomes addresses. Injectable, so the SSRF guard, the address book and the
// client can all resolve through one function: tests map made-up names to loopback addresses,
// and a deployment can bring its own DNS.

import { lookup as dnsLookup } from 'node:dns';

/** One address of a host name, with the DNS record's TTL when known. */
export interface ResolvedAddress {
  /** An IP literal (`93.184.215.14`, `2606:2800:21f:cb07:6820:80da:af6b:8b2c`). */
  readonly address: string;
  readonly family: 4 | 6;
  /** The record's time to live, in seconds, when the resolver knows it. */
  readonly ttlSeconds?: number;
}

/**
 * Resolves a host name to its addresses (all of them, in the order a connection should try
 * them). Injectable: tests map names to loopback addresses; a deployment may bring custom DNS.
 * Rejects when the name does not resolve.
 */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/**
 * The system's resolver: node's `dns.lookup` with `{ all: true }` (getaddrinfo, so /etc/hosts
 * and the system's resolver configuration apply). getaddrinfo gives no TTL, so none is reported.
 */
export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error !== null) return reject(error);
      resolve(addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 })));
    });
  });
