// Binding one HTTP server per host on its own loopback address 127.0.0.x, all on one port.
//
// The port: a fixed port (say 8080) makes friendly URLs but collides as soon as two webs run at
// once (parallel test files, a demo beside a benchmark). So port 0 (the default) lets the OS pick
// a free port for the first host and then binds every other host to that same port: origins
// differ only by address, as on the real web, and parallel webs never collide. If another
// process holds that port on one of the addresses, the whole set is retried on a new port, and
// after a few failed rounds each host falls back to a port of its own.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LocalWebError } from './errors.js';

/** Handles a request to the host with this index (0 = the first address). */
export type HostRequestListener = (hostIndex: number, req: IncomingMessage, res: ServerResponse) => void;

export interface BoundHost {
  readonly address: string;
  readonly port: number;
  readonly origin: string;
  readonly server: Server;
}

/** Lowest and highest last octet of a host address: 127.0.0.1 stays free for everything else. */
export const MIN_ADDRESS_OCTET = 2;
export const MAX_ADDRESS_OCTET = 254;
const SHARED_PORT_ROUNDS = 5;

export function loopbackAddress(octet: number): string {
  return `127.0.0.${octet}`;
}

/** Throws `ERR_INVALID_OPTION` unless `count` hosts from `firstAddress` fit in 127.0.0.2–254. */
export function checkAddressRange(firstAddress: number, count: number, caller: string): void {
  const last = firstAddress + count - 1;
  if (!Number.isInteger(firstAddress) || firstAddress < MIN_ADDRESS_OCTET || last > MAX_ADDRESS_OCTET) {
    throw new LocalWebError(
      'ERR_INVALID_OPTION',
      `${caller}: hosts must lie in 127.0.0.${MIN_ADDRESS_OCTET}–127.0.0.${MAX_ADDRESS_OCTET}, ` +
        `got ${count} host(s) from 127.0.0.${String(firstAddress)}`,
    );
  }
}

/** Throws `ERR_INVALID_OPTION` unless `port` is 0 or a valid TCP port. */
export function checkPort(port: number, caller: string): void {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new LocalWebError('ERR_INVALID_OPTION', `${caller}: port must be an integer in 0–65535, got ${String(port)}`);
  }
}

/**
 * Starts `count` servers on 127.0.0.(firstAddress + i). With `port` 0, all share one free port
 * when possible (see the top of this file); any other port is used as given, and a host that
 * cannot bind it fails the whole call with an error that names its address.
 */
export async function listenHosts(
  count: number,
  firstAddress: number,
  port: number,
  listener: HostRequestListener,
): Promise<BoundHost[]> {
  const addresses = Array.from({ length: count }, (_, i) => loopbackAddress(firstAddress + i));
  if (port !== 0) return listenAll(addresses, () => port, listener);
  for (let round = 0; round < SHARED_PORT_ROUNDS; round++) {
    const first = await listenOne(addresses[0] ?? loopbackAddress(firstAddress), 0, 0, listener);
    try {
      const rest = await listenAll(addresses.slice(1), () => first.port, listener, 1);
      return [first, ...rest];
    } catch (error) {
      await closeHosts([first]);
      if (!(error instanceof LocalWebError) || error.code !== 'ERR_ADDRESS_IN_USE') throw error;
    }
  }
  return listenAll(addresses, () => 0, listener);
}

/** Binds every address, or none: on a failure the ones already bound are closed again. */
async function listenAll(
  addresses: readonly string[],
  portOf: () => number,
  listener: HostRequestListener,
  indexOffset = 0,
): Promise<BoundHost[]> {
  const results = await Promise.allSettled(
    addresses.map((address, i) => listenOne(address, portOf(), i + indexOffset, listener)),
  );
  const bound = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure === undefined) return bound;
  await closeHosts(bound);
  throw failure.reason;
}

function listenOne(
  address: string,
  port: number,
  hostIndex: number,
  listener: HostRequestListener,
): Promise<BoundHost> {
  const server = createServer((req, res) => listener(hostIndex, req, res));
  server.keepAliveTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, address, port)));
    server.listen({ host: address, port }, () => {
      const actual = (server.address() as AddressInfo).port;
      resolve({ address, port: actual, origin: `http://${address}:${actual}`, server });
    });
  });
}

/** A listen failure as an error that names the address, with a hint where one helps. */
export function listenError(error: NodeJS.ErrnoException, address: string, port: number): LocalWebError {
  const where = `${address}:${port === 0 ? '(any port)' : String(port)}`;
  if (error.code === 'EADDRNOTAVAIL') {
    return new LocalWebError(
      'ERR_ADDRESS_NOT_AVAILABLE',
      `local web: cannot listen on ${where}: address not available. The local web gives each host ` +
        `its own loopback address 127.0.0.x; Linux routes all of 127.0.0.0/8 to loopback, but ` +
        `macOS needs an alias per address (sudo ifconfig lo0 alias ${address} up).`,
      { cause: error },
    );
  }
  if (error.code === 'EADDRINUSE') {
    return new LocalWebError(
      'ERR_ADDRESS_IN_USE',
      `local web: cannot listen on ${where}: address already in use (another web or server holds ` +
        `it; use port 0 to let the OS choose, or another firstAddress).`,
      { cause: error },
    );
  }
  return new LocalWebError('ERR_LISTEN_FAILED', `local web: cannot listen on ${where}: ${error.message}`, {
    cause: error,
  });
}

/** Closes the servers and drops their open (keep-alive) connections. */
export async function closeHosts(hosts: readonly BoundHost[]): Promise<void> {
  await Promise.all(
    hosts.map(
      ({ server }) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
}
