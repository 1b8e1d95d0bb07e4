// Which handler a page goes to: the crawl's one `handler`, or `handlers[label]` by the label its
// request carries, `handlers.default` for a request without a label (every link the crawler
// follows by itself) or whose label has no route of its own. PURE.

import type { PageContext } from '../page-context.js';

/** A function that handles fetched pages; what it returns (or resolves with) is ignored. */
export type PageHandler = (page: PageContext) => unknown;

/**
 * Handlers by request label. `default` takes requests without a label, and those whose label has
 * no handler here.
 */
export interface RouteHandlers {
  readonly default?: PageHandler;
  readonly [label: string]: PageHandler | undefined;
}

/** The handler for a request, or why there is none. */
export type RouteChoice =
  | { readonly handler: PageHandler }
  /** No handler configured at all: pages are fetched and their links followed, nothing more. */
  | { readonly handler: null }
  /** Routes are configured but none takes this request: an error naming the label. */
  | { readonly handler: null; readonly missing: string };

export type Router = (label: string | undefined) => RouteChoice;

/**
 * The router of the options. `fail` reports a bad option (it throws). One of `handler` and
 * `handlers` may be given, not both.
 */
export function createRouter(handler: PageHandler | undefined, handlers: RouteHandlers | undefined, fail: (message: string) => never): Router {
  if (handler !== undefined && handlers !== undefined) fail('give either handler or handlers, not both');
  if (handler !== undefined) {
    if (typeof handler !== 'function') fail(`handler must be a function, got ${typeof handler}`);
    const choice: RouteChoice = { handler };
    return () => choice;
  }
  if (handlers === undefined) {
    const none: RouteChoice = { handler: null };
    return () => none;
  }
  if (typeof handlers !== 'object' || handlers === null || Array.isArray(handlers)) fail('handlers must be an object of functions by label');
  const routes = new Map<string, RouteChoice>();
  for (const [label, route] of Object.entries(handlers)) {
    if (route === undefined) continue;
    if (typeof route !== 'function') fail(`handlers[${JSON.stringify(label)}] must be a function, got ${typeof route}`);
    routes.set(label, { handler: route });
  }
  const fallback = routes.get('default');
  return (label) => {
    const route = (label === undefined ? undefined : routes.get(label)) ?? fallback;
    if (route !== undefined) return route;
    return { handler: null, missing: label === undefined ? 'a request without a label, and handlers has no default' : `no handler for label ${JSON.stringify(label)}, and handlers has no default` };
  };
}
