// What a fleet page says, whatever its profile (small or realistic): the renderers share it.

export type Link = readonly [href: string, text: string];

/** Everything a page says, whatever its profile: its links come from the link graph only. */
export interface PageContent {
  readonly siteName: string;
  readonly title: string;
  /** The page's path (`/`, `/pages/7`, `/private/2`). */
  readonly path: string;
  readonly isPrivate: boolean;
  /** Header navigation. */
  readonly nav: readonly Link[];
  /** The page's own links (the "Read on" list): the link graph's edges, the private page's included. */
  readonly links: readonly Link[];
  /** The next host's `/`, linked from a front page (absolute), or undefined. */
  readonly nextSite: string | undefined;
  /** The footer's link back to `/` (public pages only). */
  readonly footerHome: boolean;
  /** "Page k of n" in the footer, for public pages. */
  readonly position: string | undefined;
  /** Seeds what the page's filler text is: one number per page, the same on every request. */
  readonly seed: number;
}
