// A legacy-style undici request handler (onConnect, onHeaders…) that passes every call on to the
// handler it wraps. Legacy-style, so undici hands it the raw header Buffers and the reason phrase
// and uses it as it is, without an adapter in between (it has no `onRequestStart`). Subclasses
// override the calls they watch and call `super`.

import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';

type LegacyOnConnect = (abort: (error?: Error) => void, context?: unknown) => void;

export class ForwardingHandler implements Dispatcher.DispatchHandler {
  constructor(protected readonly inner: Dispatcher.DispatchHandler) {}

  onConnect(abort: (error?: Error) => void, context?: unknown): void {
    // `context` is undici's own, passed through untouched; its types omit it from the legacy signature.
    (this.inner.onConnect as LegacyOnConnect | undefined)?.(abort, context);
  }

  onResponseStarted(): void {
    this.inner.onResponseStarted?.();
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    return this.inner.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
  }

  onData(chunk: Buffer): boolean {
    return this.inner.onData?.(chunk) ?? true;
  }

  onComplete(trailers: string[] | null): void {
    this.inner.onComplete?.(trailers);
  }

  onError(error: Error): void {
    if (this.inner.onError === undefined) throw error;
    this.inner.onError(error);
  }

  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: Duplex): void {
    this.inner.onUpgrade?.(statusCode, headers, socket);
  }

  onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.inner.onBodySent?.(chunkSize, totalBytesSent);
  }
}

/**
 * `dispatcher`, with `onSent(at)` called the moment each request's head is about to be written
 * to its socket (undici calls onConnect just before it writes the head, after any wait for a
 * connection). A request that is never written (refused connection, aborted) never calls it.
 */
export function sendObservingDispatcher(dispatcher: Dispatcher, onSent: (at: number) => void): Dispatcher {
  return dispatcher.compose((dispatch) => (options, handler) => dispatch(options, new SendObserver(handler, onSent)));
}

class SendObserver extends ForwardingHandler {
  constructor(
    inner: Dispatcher.DispatchHandler,
    private readonly onSent: (at: number) => void,
  ) {
    super(inner);
  }

  override onConnect(abort: (error?: Error) => void, context?: unknown): void {
    this.onSent(Date.now());
    super.onConnect(abort, context);
  }
}
