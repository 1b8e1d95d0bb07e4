// Which handler a page goes to: the crawl's one `handler`, or `handlers[label]` by the label its
// request carries, `handlers.default` for a request without a label (every link the crawler
// follows by itself) or whose label has no route of its own. PURE.

import type { PageHandler, RouteHandlers } from '../page-context.js';

/** The handler for a request, or why there is none. */
export type RouteChoice =
  | { readonly handler: PageHandler }
  /** No handler configured at all: pages are fetched and their links followed, nothing more. */
  | { readonly handler: null }
  /** Routes are configured but none takes this request: an error naming the label. */
  | { readonly handler: null; readonly missing: string };

export type Router = (label: string | undefined) => RouteChoice;

/** The router of the options (checked by `resolveCrawlerOptions`: one of the two at most). */
export function createRouter(handler: PageHandler | undefined, handlers: RouteHandlers | undefined): Router {
  if (handler !== undefined) {
    const choice: RouteChoice = { handler };
    return () => choice;
  }
  if (handlers === undefined) {
    const none: RouteChoice = { handler: null };
    return () => none;
  }
  const routes = new Map<string, RouteChoice>();
  for (const [label, route] of Object.entries(handlers)) {
    if (route !== undefined) routes.set(label, { handler: route });
  }
  const fallback = routes.get('default');
  return (label) => {
    const route = (label === undefined ? undefined : routes.get(label)) ?? fallback;
    if (route !== undefined) return route;
    return {
      handler: null,
      missing:
        label === undefined
          ? 'a request without a label, and handlers has no default'
          : `no handler for label ${JSON.stringify(label)}, and handlers has no default`,
    };
  };
}
