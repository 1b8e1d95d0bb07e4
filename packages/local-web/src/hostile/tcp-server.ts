// A bare TCP server on one loopback address, for the hosts that speak broken HTTP or none at
// all. It keeps every socket, so close() can destroy the ones a client left hanging.

import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { listenError } from '@politely/demo-web/internal';

export interface TcpHost {
  readonly address: string;
  readonly port: number;
  readonly origin: string;
  /** Stops listening, destroys every open socket, and resolves when the port is free. */
  close(): Promise<void>;
}

export function listenTcp(address: string, port: number, onSocket: (socket: Socket) => void): Promise<TcpHost> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A client that resets is this web's daily bread, not an error worth crashing for.
    socket.on('error', () => {});
    onSocket(socket);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, address, port)));
    server.listen({ host: address, port }, () => {
      const actual = (server.address() as AddressInfo).port;
      resolve({
        address,
        port: actual,
        origin: `http://${address}:${actual}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}

/** What the first bytes of a connection asked for. */
export interface RequestHead {
  readonly method: string;
  /** The request target as sent (`/path?query`). */
  readonly path: string;
  readonly userAgent: string | undefined;
}

/** Request heads longer than this are refused, like any server refuses them. */
export const MAX_REQUEST_HEAD_BYTES = 64 * 1024;
const REQUEST_LINE = /^([A-Z]{1,16}) (\S{1,16384}) HTTP\/1\.[01]$/;
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * Reads the socket until the end of the request head and calls `onHead` once with the parsed
 * head, or with `null` if the head is malformed or longer than MAX_REQUEST_HEAD_BYTES. Bytes after
 * the head (a body, pipelined requests) are ignored.
 */
export function readRequestHead(socket: Socket, onHead: (head: RequestHead | null) => void): void {
  let buffered = Buffer.alloc(0);
  const onData = (chunk: Buffer): void => {
    buffered = Buffer.concat([buffered, chunk]);
    // Search from a little before the new chunk, in case the blank line straddles two chunks.
    const end = buffered.indexOf(HEAD_END, Math.max(0, buffered.length - chunk.length - 3));
    if (end === -1 && buffered.length <= MAX_REQUEST_HEAD_BYTES) return;
    // Whatever follows is read and dropped, so that a client's FIN still closes the socket.
    socket.off('data', onData);
    onHead(
      end === -1 || end > MAX_REQUEST_HEAD_BYTES
        ? null
        : parseRequestHead(buffered.subarray(0, end).toString('latin1')),
    );
  };
  socket.on('data', onData);
}

function parseRequestHead(text: string): RequestHead | null {
  const [requestLine = '', ...headerLines] = text.split('\r\n');
  const match = REQUEST_LINE.exec(requestLine);
  if (match === null) return null;
  const userAgentLine = headerLines.find((line) => /^user-agent\s*:/i.test(line));
  const userAgent = userAgentLine?.slice(userAgentLine.indexOf(':') + 1).trim();
  return { method: match[1] ?? 'GET', path: match[2] ?? '/', userAgent };
}
