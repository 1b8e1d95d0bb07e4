// What a host serves at one path: status, headers and body bytes, built once and sent many times.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { escapeHtml } from './html.js';
import { entityTag, notModified, type Validators } from './validators.js';

export interface Resource {
  readonly status: number;
  /** Header names in lower case. `content-length` is added when sent. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Text worth gzipping when the client accepts it (`Content-Encoding: gzip`). */
  readonly compressible: boolean;
}

const HTML = 'text/html; charset=utf-8';
// Bodies below this size go out as they are, like most servers do.
const MIN_GZIP_BYTES = 1024;

export function htmlResource(html: string, status = 200): Resource {
  return { status, headers: { 'content-type': HTML }, body: Buffer.from(html), compressible: true };
}

export function textResource(text: string, contentType: string, status = 200): Resource {
  return { status, headers: { 'content-type': contentType }, body: Buffer.from(text), compressible: true };
}

/** Bytes served as they are, never re-encoded (a `.xml.gz` sitemap is a gzip file, not gzip-encoded XML). */
export function binaryResource(body: Buffer, contentType: string): Resource {
  return { status: 200, headers: { 'content-type': contentType }, body, compressible: false };
}

export function redirectResource(status: 301 | 302 | 303 | 307 | 308, location: string): Resource {
  const html = `<!doctype html><title>Moved</title><p>Moved to <a href="${escapeHtml(location)}">${escapeHtml(location)}</a></p>`;
  return { status, headers: { 'content-type': HTML, location }, body: Buffer.from(html), compressible: false };
}

export function notFoundResource(path: string): Resource {
  const html =
    '<!doctype html><html lang="en"><head><title>Not found</title></head><body><h1>404 Not found</h1>' +
    `<p>Nothing lives at ${escapeHtml(path)}.</p></body></html>`;
  return htmlResource(html, 404);
}

export function statusResource(status: number, text: string, extraHeaders: Record<string, string> = {}): Resource {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...extraHeaders },
    body: Buffer.from(text),
    compressible: false,
  };
}

const gzipCache = new WeakMap<Resource, Buffer>();

function gzipped(resource: Resource): Buffer {
  let body = gzipCache.get(resource);
  if (body === undefined) {
    body = gzipSync(resource.body);
    gzipCache.set(resource, body);
  }
  return body;
}

function acceptsGzip(req: IncomingMessage): boolean {
  const accept = req.headers['accept-encoding'];
  return typeof accept === 'string' && /\bgzip\b(?!\s*;\s*q=0(?:\.0*)?\s*(?:,|$))/i.test(accept);
}

/**
 * Sends `resource` (gzip-encoded when `gzip` allows and the client accepts it); HEAD gets no body.
 * With `validators`, a 200 carries `ETag`, `Last-Modified` (and `Cache-Control` if set), and a
 * GET or HEAD whose preconditions say the client holds it already is answered 304 without a body.
 * Returns the body bytes written (0 for HEAD and 304).
 */
export function sendResource(
  req: IncomingMessage,
  res: ServerResponse,
  resource: Resource,
  gzip: boolean,
  validators?: Validators,
): number {
  const headers: Record<string, string> = { ...resource.headers };
  let encode = false;
  if (gzip && resource.compressible) {
    headers['vary'] = 'Accept-Encoding';
    encode = resource.body.length >= MIN_GZIP_BYTES && acceptsGzip(req);
  }
  if (validators !== undefined && resource.status === 200) {
    const etag = entityTag(resource, encode);
    headers['etag'] = etag;
    headers['last-modified'] = validators.lastModified;
    if (validators.cacheControl !== undefined) headers['cache-control'] = validators.cacheControl;
    if (notModified(req.headers, etag, validators.lastModifiedMs)) {
      // RFC 9110 §15.4.5: a 304 repeats the validators and caching headers, nothing about a body.
      const kept: Record<string, string> = { etag, 'last-modified': validators.lastModified };
      if (headers['vary'] !== undefined) kept['vary'] = headers['vary'];
      if (validators.cacheControl !== undefined) kept['cache-control'] = validators.cacheControl;
      res.writeHead(304, kept);
      res.end();
      return 0;
    }
  }
  const body = encode ? gzipped(resource) : resource.body;
  if (encode) headers['content-encoding'] = 'gzip';
  headers['content-length'] = String(body.length);
  res.writeHead(resource.status, headers);
  if (req.method === 'HEAD') {
    res.end();
    return 0;
  }
  res.end(body);
  return body.length;
}
