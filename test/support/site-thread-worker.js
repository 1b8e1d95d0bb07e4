// The HTTP server of site-thread.ts, in a worker thread of its own: it logs each request's
// arrival on its own event loop, so a crawler busy on the test's thread cannot make an arrival
// look later than it was. Plain JS: a worker thread runs it without the test's TypeScript loader.

import { createServer } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {Record<string, { body: string; contentType?: string; delaysMs?: number[] }>} */
const routes = workerData.routes;
const log = [];
// Answers of delayed routes, counted across them: the n-th waits delaysMs[n] (the last one past the end).
let delayed = 0;

const server = createServer((req, res) => {
  const path = req.url ?? '';
  // The clock of every thread of the process: times from here and from the test compare.
  log.push({
    path,
    at: performance.timeOrigin + performance.now(),
    userAgent: req.headers['user-agent'],
    headers: req.headers,
  });
  const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
  if (route === undefined) {
    res.statusCode = 404;
    res.end('not found');
    return;
  }
  const answer = () => {
    res.setHeader(
      'content-type',
      route.contentType ?? (path === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8'),
    );
    res.end(route.body);
  };
  const delays = route.delaysMs ?? [];
  if (delays.length === 0) answer();
  else setTimeout(answer, delays[Math.min(delayed++, delays.length - 1)]);
});

parentPort.on('message', (message) => {
  if (message === 'log') parentPort.postMessage({ type: 'log', log });
  else if (message === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort.close());
  }
});

server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
