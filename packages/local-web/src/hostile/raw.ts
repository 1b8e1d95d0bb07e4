// raw: HTTP/1.1 written by hand over node:net, so it can break the rules node:http keeps: reset
// the connection mid-body, send less than Content-Length promised, a status line that is no
// status line, or 200 KB of headers. Every answer is `Connection: close`.

import type { Socket } from 'node:net';
import {
  htmlResource,
  notFoundResource,
  type Resource,
  statusResource,
  textResource,
} from '@politely/demo-web/internal';
import { ERROR, type HostileCase, type HostileHostFacts, skip } from './hostile-types.js';
import { ALLOW_ALL_ROBOTS_TXT, caseList, hostilePage } from './http-host.js';
import type { Tasks } from './tasks.js';
import type { RequestHead } from './tcp-server.js';

export interface RawHostileHost extends HostileHostFacts {
  /** Answers one request and closes (or resets) the socket. */
  answer(socket: Socket, head: RequestHead | null): RawAnswer;
}

/** What `raw` sent: the status it claimed (0 for none) and the body bytes after its head. */
export interface RawAnswer {
  readonly status: number;
  readonly bodyBytes: number;
}

/** The Content-Length the broken bodies promise. */
export const RAW_DECLARED_BYTES = 100_000;
export const RESET_AFTER_BYTES = 1_000;
export const SHORT_BODY_BYTES = 100;
export const HUGE_HEADERS_BYTES = 200_000;
// Time for the bytes before a reset to reach the client, so it sees a body cut short, not just a reset.
const RESET_DELAY_MS = 50;

const GARBAGE = Buffer.concat([
  Buffer.from('HTTP/1.1 ABC nonsense\r\n\r\n'),
  Buffer.from([0x00, 0xff, 0xfe, 0x13, 0x37]),
  Buffer.from('\r\nthis is not HTTP at all\r\n'),
]);

type Answer = (socket: Socket, head: RequestHead) => RawAnswer;

export function buildRaw(origin: string, tasks: Tasks): RawHostileHost {
  const caseOf = (name: string, description: string, path: string, expect: HostileCase['expect']): HostileCase => ({
    name,
    description,
    entryUrl: `${origin}${path}`,
    reportedUrlPrefixes: [`${origin}${path}`],
    expect,
  });
  const cases: HostileCase[] = [
    caseOf(
      'reset-mid-body',
      `Promises ${RAW_DECLARED_BYTES} bytes, sends ${RESET_AFTER_BYTES}, then resets the connection (TCP RST).`,
      '/reset-mid-body',
      ERROR,
    ),
    caseOf(
      'short-body',
      `Promises ${RAW_DECLARED_BYTES} bytes, sends ${SHORT_BODY_BYTES}, then closes the connection.`,
      '/short-body',
      ERROR,
    ),
    caseOf('garbage-status', 'Answers "HTTP/1.1 ABC nonsense" and bytes that are not HTTP.', '/garbage-status', ERROR),
    caseOf(
      'huge-headers',
      `A 200 whose head holds ${HUGE_HEADERS_BYTES} bytes of X-Junk headers.`,
      '/huge-headers',
      skip('headers-too-large'),
    ),
  ];
  const fixed: ReadonlyMap<string, Resource> = new Map([
    ['/', hostilePage('raw', 'Hand-written HTTP', caseList(cases))],
    ['/robots.txt', textResource(ALLOW_ALL_ROBOTS_TXT, 'text/plain; charset=utf-8')],
  ]);
  const answers: ReadonlyMap<string, Answer> = new Map<string, Answer>([
    ['/reset-mid-body', (socket) => resetMidBody(socket, tasks)],
    ['/short-body', shortBody],
    ['/garbage-status', garbageStatus],
    ['/huge-headers', hugeHeaders],
  ]);
  return {
    name: 'raw',
    description:
      'Hand-written HTTP over node:net: a reset mid-body, a short body, a garbage status line, 200 KB of headers.',
    robotsTxt: ALLOW_ALL_ROBOTS_TXT,
    cases,
    goodPaths: ['/'],
    answer(socket, head) {
      if (head === null) return sendWhole(socket, statusResource(400, 'Bad request.\n'), false);
      if (head.method !== 'GET' && head.method !== 'HEAD') {
        return sendWhole(socket, statusResource(405, 'Method not allowed.\n', { allow: 'GET, HEAD' }), false);
      }
      const answer = answers.get(head.path);
      if (answer !== undefined) return answer(socket, head);
      const resource = fixed.get(head.path) ?? notFoundResource(head.path);
      return sendWhole(socket, resource, head.method === 'HEAD');
    },
  };
}

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
};

/** A status line and header block, `Connection: close` always. */
function responseHead(status: number, headers: Readonly<Record<string, string>>, extra = ''): Buffer {
  const lines = Object.entries({ ...headers, connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  return Buffer.from(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Unknown'}\r\n${lines.join('')}${extra}\r\n`, 'latin1');
}

function sendWhole(socket: Socket, resource: Resource, headOnly: boolean): RawAnswer {
  const head = responseHead(resource.status, { ...resource.headers, 'content-length': String(resource.body.length) });
  socket.end(headOnly ? head : Buffer.concat([head, resource.body]));
  return { status: resource.status, bodyBytes: headOnly ? 0 : resource.body.length };
}

function filler(length: number): Buffer {
  return Buffer.alloc(length, 'x');
}

function resetMidBody(socket: Socket, tasks: Tasks): RawAnswer {
  const head = responseHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(RAW_DECLARED_BYTES),
  });
  socket.write(Buffer.concat([head, Buffer.from('<!doctype html><p>'), filler(RESET_AFTER_BYTES - 18)]), () => {
    tasks.after(RESET_DELAY_MS, () => {
      if (!socket.destroyed) socket.resetAndDestroy();
    });
  });
  return { status: 200, bodyBytes: RESET_AFTER_BYTES };
}

function shortBody(socket: Socket): RawAnswer {
  const head = responseHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(RAW_DECLARED_BYTES),
  });
  socket.end(Buffer.concat([head, Buffer.from('<!doctype html><p>'), filler(SHORT_BODY_BYTES - 18)]));
  return { status: 200, bodyBytes: SHORT_BODY_BYTES };
}

function garbageStatus(socket: Socket): RawAnswer {
  socket.end(GARBAGE);
  return { status: 0, bodyBytes: 0 };
}

function hugeHeaders(socket: Socket, head: RequestHead): RawAnswer {
  const junk: string[] = [];
  let length = 0;
  for (let n = 0; length < HUGE_HEADERS_BYTES; n++) {
    const line = `X-Junk-${n}: ${'j'.repeat(80)}\r\n`;
    junk.push(line);
    length += line.length;
  }
  const body = htmlResource('<!doctype html><title>Huge headers</title><p>You read all the headers.</p>').body;
  const start = responseHead(
    200,
    { 'content-type': 'text/html; charset=utf-8', 'content-length': String(body.length) },
    junk.join(''),
  );
  socket.end(head.method === 'HEAD' ? start : Buffer.concat([start, body]));
  return { status: 200, bodyBytes: head.method === 'HEAD' ? 0 : body.length };
}
