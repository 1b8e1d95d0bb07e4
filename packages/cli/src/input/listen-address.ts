// `--metrics [HOST:]PORT`: where a server listens. A bare port is loopback (127.0.0.1): serving
// metrics to the network is the user's choice, made by naming the address.

import { isIP } from 'node:net';
import { CliError } from '../cli-error.js';
import { quoteInput } from './quote-input.js';

export interface ListenAddress {
  /** An IP address (IPv6 without brackets) or `localhost`. */
  readonly host: string;
  /** 0: any free port (the bound one is printed). */
  readonly port: number;
}

/** `9464`, `127.0.0.1:9464`, `0.0.0.0:9464`, `[::1]:9464`, `localhost:9464`; anything else a usage error naming `flag`. */
export function parseListenAddress(command: string, flag: string, text: string): ListenAddress {
  const match = /^(?:(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):)?(\d{1,5})$/.exec(text.trim());
  const host = match === null ? undefined : (match[1] ?? match[2] ?? '127.0.0.1');
  const port = match === null ? Number.NaN : Number(match[3]);
  const hostOk = host !== undefined && (host === 'localhost' || isIP(host) !== 0);
  if (!hostOk || !(port >= 0 && port <= 65_535))
    throw new CliError(
      `${command}: ${flag}: expected [HOST:]PORT, an IP address (or localhost) and a port from 0 to 65535, e.g. 127.0.0.1:9464, got ${quoteInput(text)}`,
    );
  return { host, port };
}
