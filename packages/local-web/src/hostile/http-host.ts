// One HTTP host of the hostile web: its manifest facts and a responder that may stream, stall or
// lie, which the shared resource machinery (built once, sent whole) cannot.

import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  a,
  escapeHtml,
  htmlResource,
  notFoundResource,
  type Resource,
  renderPage,
  sendResource,
} from '@politely/demo-web/internal';
import type { HostileCase, HostileHostFacts } from './hostile-types.js';

/** Writes the response to a GET or HEAD of `path` (never `/robots.txt`, which the server answers). */
export type Responder = (req: IncomingMessage, res: ServerResponse, path: string) => void;

export interface HttpHostileHost extends HostileHostFacts {
  readonly respond: Responder;
}

/** A route that answers some paths itself and returns false for the others. */
export type Route = (req: IncomingMessage, res: ServerResponse, path: string) => boolean;

/** Answers from `routes` in order, then from the fixed `pages`, then with a 404 page. */
export function responder(pages: ReadonlyMap<string, Resource>, ...routes: readonly Route[]): Responder {
  return (req, res, path) => {
    for (const route of routes) if (route(req, res, path)) return;
    sendResource(req, res, pages.get(path) ?? notFoundResource(path), false);
  };
}

/** An ordinary page in the house layout of the hostile web. */
export function hostilePage(host: string, title: string, main: string): Resource {
  return htmlResource(renderPage({ siteName: `The hostile web: ${host}`, title, nav: [['/', 'Index']], main }));
}

/** A list of case links with their descriptions, for index pages. */
export function caseList(cases: readonly HostileCase[]): string {
  const items = cases.map((c) => `<li>${a(c.entryUrl, c.name)}: ${escapeHtml(c.description)}</li>`);
  return `<ul class="cases">\n${items.join('\n')}\n</ul>`;
}

/** A robots.txt that allows everything to everyone. */
export const ALLOW_ALL_ROBOTS_TXT = 'User-agent: *\nAllow: /\n';
