// Which requests share one politeness clock (`politenessKey`): the URL's host name (the
// default), its registrable domain (one platform's tenants, one site's subdomains), or the address
// its host name resolves to (every name a shared server hosts). The store schedules by the key;
// robots.txt stays per origin (RFC 9309).

import { isIP } from 'node:net';
import { PolitelyError } from '@politely/core';
import type { KeyVerdict } from '../frontier/frontier.js';
import { registrableDomainOf } from '../frontier/registrable-domain.js';

/** What one politeness clock is kept for: a host name, a registrable domain, or an IP address. */
export type PolitenessKeyMode = 'host' | 'domain' | 'ip';
/** Every `PolitenessKeyMode`, as the `politenessKey` option accepts them. */
export const POLITENESS_KEY_MODES: readonly PolitenessKeyMode[] = ['host', 'domain', 'ip'];

/** The pinned addresses of host names (core's AddressBook): one resolution, shared by the key and the connection. */
export interface AddressPins {
  address(hostname: string): Promise<{ readonly address: string }>;
  peek(hostname: string): { readonly address: string } | undefined;
}

export interface PolitenessKeys {
  readonly mode: PolitenessKeyMode;
  /** The key of a URL about to be queued; in `ip` mode its host's pinned address (resolved now if need be). */
  keyOf(url: URL): KeyVerdict | Promise<KeyVerdict>;
  /** The key as far as it is known now, without waiting (for events): the host name if not. */
  knownKeyOf(url: URL): string;
  /** The address a request for an entry of `key` must connect to (`ip` mode), else undefined. */
  connectAddressOf(key: string): string | undefined;
}

const bare = (hostname: string): string => hostname.replace(/^\[|\]$/g, '');

/** `pins` is required in `ip` mode (the crawler makes one from its `resolver`). */
export function createPolitenessKeys(mode: PolitenessKeyMode, pins: AddressPins | undefined): PolitenessKeys {
  if (mode === 'host') {
    return {
      mode,
      keyOf: (url) => ({ key: url.hostname }),
      knownKeyOf: (url) => url.hostname,
      connectAddressOf: () => undefined,
    };
  }
  if (mode === 'domain') {
    const keyOf = (url: URL): string => registrableDomainOf(url.hostname, false);
    return { mode, keyOf: (url) => ({ key: keyOf(url) }), knownKeyOf: keyOf, connectAddressOf: () => undefined };
  }
  if (pins === undefined)
    throw new PolitelyError(
      'ERR_INVALID_OPTION',
      "createCrawler: politenessKey 'ip' needs an address book to pin host names to addresses",
    );
  return {
    mode,
    keyOf: async (url) => {
      const host = bare(url.hostname);
      if (isIP(host) !== 0) return { key: host };
      try {
        return { key: (await pins.address(host)).address };
      } catch (error) {
        if (error instanceof PolitelyError && error.code === 'ERR_ADDRESS_BLOCKED')
          return { skip: { reason: 'blocked-address', detail: error.message } };
        // Unresolvable now: keyed by its name, so that its fetch meets the error, is retried and reported.
        return { key: url.hostname };
      }
    },
    knownKeyOf: (url) => {
      const host = bare(url.hostname);
      return isIP(host) !== 0 ? host : (pins.peek(host)?.address ?? url.hostname);
    },
    connectAddressOf: (key) => (isIP(key) !== 0 ? key : undefined),
  };
}
