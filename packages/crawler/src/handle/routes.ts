// Which handler a page goes to: the crawl's one `handler`, or `handlers[label]` by the label its
// request carries, `handlers.default` for a request without a label (every link the crawler
// follows by itself). A label with no route is refused when its request is queued
// (`labelProblem`), so no page is fetched for a route that does not exist. PURE.

import { nearestName } from '@politely/core/internal';
import type { LabelCheck } from '../frontier/frontier.js';
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
    const route = label === undefined ? fallback : routes.get(label);
    if (route !== undefined) return route;
    return {
      handler: null,
      missing:
        label === undefined
          ? 'a request without a label, and handlers has no default'
          : `no handler for label ${JSON.stringify(label)}`,
    };
  };
}

/**
 * The label check of the options: with `handlers`, a label must name one of them (`default`
 * serves requests without a label; it takes no unknown label). With one `handler`, or none,
 * any label goes (the handler sees it in `page.request.label`).
 */
export function labelCheckOf(handlers: RouteHandlers | undefined): LabelCheck {
  if (handlers === undefined) return () => undefined;
  const labels = Object.keys(handlers).filter((label) => handlers[label] !== undefined);
  const known = new Set(labels);
  const listed = labels.map((label) => JSON.stringify(label)).join(', ');
  return (label) => {
    if (known.has(label)) return undefined;
    const nearest = nearestName(label, labels);
    const hint = nearest === undefined ? '' : ` (did you mean ${JSON.stringify(nearest)}?)`;
    return `label ${JSON.stringify(label)} names no route in handlers${hint}; the routes are ${listed || 'none'}`;
  };
}
