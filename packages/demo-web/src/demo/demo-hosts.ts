// The names of the demo web's hosts, in address order, and what each is there to show.

/** The sites of the demo web, in the order of their addresses. */
export const DEMO_HOST_NAMES = ['hub', 'shop', 'news', 'docs', 'events', 'legacy', 'cdn', 'status'] as const;

/** The name of a site of the demo web (`hub`, `shop`, `news`, …). */
export type DemoHostName = (typeof DEMO_HOST_NAMES)[number];

/** Origins of the demo hosts by name (`http://127.0.0.x:port`). */
export type DemoOrigins = Readonly<Record<DemoHostName, string>>;

/** The product token the demo's robots.txt files name in their own groups. */
export const DEMO_USER_AGENT_TOKEN = 'PolitelyDemo';

/** Footer shared by the demo's sites: every page links back to the directory. */
export function demoFooter(origins: DemoOrigins): string {
  return `<p>More sites on this web: <a href="${origins.hub}/">the demo web directory</a>.</p>`;
}
