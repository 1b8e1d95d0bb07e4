// A small real HTTP forward proxy on loopback for tests: CONNECT tunnels (what undici's
// ProxyAgent uses) and absolute-form GETs, with a log of what it was asked to reach. It forwards
// anywhere it is asked, as a careless proxy would: the tests prove that the crawler's SSRF guard
// refuses a target before the proxy is asked (the target never appears in this log).

import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface ProxyLogEntry {
  /** `CONNECT` or the method of an absolute-form request. */
  readonly method: string;
  /** `host:port` for CONNECT, the absolute URL otherwise. */
  readonly target: string;
}

export interface LoopbackProxy {
  /** `http://<host>:<port>`. */
  readonly url: string;
  readonly port: number;
  readonly log: ProxyLogEntry[];
  close(): Promise<void>;
}

export async function startLoopbackProxy(host = '127.0.0.1'): Promise<LoopbackProxy> {
  const log: ProxyLogEntry[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((req, res) => {
    log.push({ method: req.method ?? 'GET', target: req.url ?? '' });
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form requests only');
      return;
    }
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', track);
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    log.push({ method: 'CONNECT', target });
    const colon = target.lastIndexOf(':');
    const upstream = connect(Number(target.slice(colon + 1)), target.slice(0, colon).replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    log,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
