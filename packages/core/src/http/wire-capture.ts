// What one request looked like on the wire (`HttpRequest.capture`, for WARC archives): the request
// head exactly as undici wrote it, the socket it went out on, and the response head as received.
//
// undici gives no per-request hook with the written head, but its HTTP/1.1 writer (writeH1) calls
// the request handler's onConnect and then, synchronously in the same call, publishes the head on
// the diagnostics channel `undici:client:sendHeaders`. So the capturing handler's onConnect puts
// its capture in a one-request slot, and the channel's subscriber takes the slot on the very next
// publish. JavaScript runs that stretch without interruption, so no other request's write can come
// between the two; a request aborted in onConnect (it never publishes) has its slot cleared by the
// next publish or by a microtask, so it can never hand its slot to another request.

import { subscribe } from 'node:diagnostics_channel';
import type { Dispatcher } from 'undici';
import { ForwardingHandler } from './forwarding-handler.js';
import { concat } from './read-body.js';

/** What the handler and the channel saw of one request. */
export class WireCapture {
  /** When the head was written (ms since the epoch); until then, when the request was dispatched. */
  sentAt = Date.now();
  remoteAddress: string | undefined = undefined;
  /** The request head as written, the final empty line included; empty until written. */
  requestHead = '';
  /** The final response's status; 0 until its head arrived (1xx heads are not kept). */
  status = 0;
  statusText = '';
  rawHeaders: readonly (readonly [name: string, value: string])[] = [];
  /** The body as received, as `readBody` hands it on (`onRawChunk`). */
  readonly received = new ChunkList();

  constructor(
    readonly method: string,
    /** The URL's origin and path, to tell this request's head on the channel from another's. */
    readonly origin: string,
    readonly path: string,
  ) {}

  /** The final response head arrived: from here on the request has something to archive. */
  get answered(): boolean {
    return this.status !== 0;
  }
}

/** `dispatcher`, its requests' handlers wrapped to fill `capture`. Only for a captured request. */
export function capturingDispatcher(dispatcher: Dispatcher, capture: WireCapture): Dispatcher {
  subscribeOnce();
  return dispatcher.compose(
    (dispatch) => (options, handler) => dispatch(options, new CapturingHandler(handler, capture)),
  );
}

/** Fills its capture from the calls it sees, passing every call on (see forwarding-handler.ts). */
class CapturingHandler extends ForwardingHandler {
  constructor(
    inner: Dispatcher.DispatchHandler,
    private readonly capture: WireCapture,
  ) {
    super(inner);
  }

  override onConnect(abort: (error?: Error) => void, context?: unknown): void {
    super.onConnect(abort, context);
    // After the inner handler: when it aborted the request, undici writes nothing for it.
    awaitHead(this.capture);
  }

  override onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    if (statusCode >= 200) {
      this.capture.status = statusCode;
      this.capture.statusText = statusText ?? '';
      // Copied out now: undici's Buffers are views into the socket's data.
      this.capture.rawHeaders = headerFields(headers);
    }
    return super.onHeaders(statusCode, headers, resume, statusText);
  }
}

/** Raw header Buffers (name, value, name, value…) as latin1 pairs: one character per byte. */
function headerFields(raw: readonly unknown[]): [string, string][] {
  const fields: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = latin1(raw[i]);
    // A dispatcher of new-style handlers in between may hand a repeated field as one array.
    const values = raw[i + 1];
    for (const value of Array.isArray(values) ? values : [values]) fields.push([name, latin1(value)]);
  }
  return fields;
}

function latin1(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
}

/** The capture whose onConnect just ran; its head is the next one published. */
let awaitingHead: WireCapture | undefined;

function awaitHead(capture: WireCapture): void {
  awaitingHead = capture;
  // Normally taken synchronously; if nothing was published (the write failed), nobody may take it later.
  queueMicrotask(() => {
    if (awaitingHead === capture) awaitingHead = undefined;
  });
}

/** The fields of undici's `undici:client:sendHeaders` message this module reads. */
interface SendHeadersMessage {
  readonly request: { readonly method: string; readonly path: string };
  /** The head without its final empty line. */
  readonly headers: string;
  readonly socket: { readonly remoteAddress?: string | undefined };
}

let subscribed = false;

/** Subscribed on the first capture only: until then undici does not even build the message. */
function subscribeOnce(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe('undici:client:sendHeaders', takeHead);
}

function takeHead(message: unknown): void {
  const capture = awaitingHead;
  if (capture === undefined) return;
  // Any publish ends the wait: heads follow their onConnect at once, so a later one is never this request's.
  awaitingHead = undefined;
  const { request, headers, socket } = message as SendHeadersMessage;
  if (!isRequestOf(capture, request)) return;
  // A GET without a body: undici writes the head, then the empty line that ends it.
  capture.requestHead = `${headers}\r\n`;
  capture.sentAt = Date.now();
  capture.remoteAddress = socket.remoteAddress;
}

/** The path is the URL's own, or its absolute form when a dispatcher forwards to a proxy. */
function isRequestOf(capture: WireCapture, request: SendHeadersMessage['request']): boolean {
  return (
    request.method === capture.method &&
    (request.path === capture.path || request.path === capture.origin + capture.path)
  );
}

/** Raw body chunks in order, joined once at the end. */
class ChunkList {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  readonly add = (chunk: Uint8Array): void => {
    this.chunks.push(chunk);
    this.length += chunk.length;
  };

  bytes(): Uint8Array {
    return concat(this.chunks, this.length);
  }
}
