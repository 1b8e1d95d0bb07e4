// Pages that change between two crawls: a changed page serves its old body plus a visible
// revision marker, so its bytes, ETag and Last-Modified change while its links stay the same.

import { LocalWebError } from './errors.js';
import type { Resource } from './resource.js';

/** How a revision shows in a body of this kind, or `undefined` when it cannot change. */
function markerFor(resource: Resource, path: string, revision: number): ((body: string) => string) | undefined {
  const type = resource.headers['content-type'] ?? '';
  if (type.startsWith('text/html')) {
    const marker = `<p class="revision">revision ${revision}</p>\n`;
    return (body) => insertBefore(body, ['</main>', '</body>'], marker);
  }
  // A comment after the root element is well-formed XML and changes nothing a feed or sitemap says.
  if (type.includes('xml')) return (body) => `${body}<!-- revision ${revision} -->\n`;
  if (path === '/robots.txt' && type.startsWith('text/plain')) return (body) => `${body}# revision ${revision}\n`;
  return undefined;
}

function insertBefore(body: string, closers: readonly string[], marker: string): string {
  const lower = body.toLowerCase();
  for (const closer of closers) {
    const at = lower.lastIndexOf(closer);
    if (at >= 0) return body.slice(0, at) + marker + body.slice(at);
  }
  return body + marker;
}

/** Whether the 200 `resource` at `path` can change: HTML pages, XML files (sitemaps, feeds), robots.txt. */
export function canRevise(resource: Resource, path: string): boolean {
  return resource.status === 200 && markerFor(resource, path, 1) !== undefined;
}

// Most resources are built once: build each revision once (generated ones are rebuilt, as they are anyway).
const revisions = new WeakMap<Resource, { readonly revision: number; readonly resource: Resource }>();

/** `resource` at its `revision` (1, 2, …), or `resource` itself when it cannot change. */
export function revisedResource(resource: Resource, path: string, revision: number): Resource {
  const cached = revisions.get(resource);
  if (cached !== undefined && cached.revision === revision) return cached.resource;
  const mark = resource.status === 200 ? markerFor(resource, path, revision) : undefined;
  if (mark === undefined) return resource;
  const revised: Resource = { ...resource, body: Buffer.from(mark(resource.body.toString('utf8'))) };
  revisions.set(resource, { revision, resource: revised });
  return revised;
}

interface LocatedPage {
  readonly index: number;
  /** Path and query, as a request line carries them. */
  readonly path: string;
  readonly url: string;
}

/** Finds the host and path of an absolute URL, or of a path on the entry host; `ERR_UNKNOWN_PAGE` for any other. */
export function pageLocator(origins: readonly string[], entryUrl: string): (urlOrPath: string) => LocatedPage {
  return (urlOrPath) => {
    let url: URL | undefined;
    try {
      url = new URL(urlOrPath, entryUrl);
    } catch {
      url = undefined;
    }
    const index = url === undefined ? -1 : origins.indexOf(url.origin);
    if (url === undefined || index < 0) {
      throw new LocalWebError('ERR_UNKNOWN_PAGE', `local web: ${JSON.stringify(urlOrPath)} is on no host of this web`);
    }
    url.hash = '';
    return { index, path: url.pathname + url.search, url: url.href };
  };
}
