import { parseRobotsTxt } from '@politely/core';
import { extractLinks } from '@politely/demo-web/internal';
import { describe, expect, it } from 'vitest';
import { type LocalWeb, LocalWebError, startFleet } from '../src/index.js';
import { getText, rawGet, UA } from './helpers.js';

const KB = 1024;

/** Every page a fleet host serves: its public pages, then its private ones. */
function pathsOf(web: LocalWeb, host: number): string[] {
  const info = web.hosts[host];
  return info === undefined ? [] : [...info.expectedAllowedPaths, ...info.disallowedKnownPaths];
}

/** `<a href>` tags outside `<script>` elements (a tag in a script's string is not a link). */
function anchorCount(html: string): number {
  return html.replace(/<script\b[\s\S]*?<\/script>/g, '').match(/<a\s[^>]*href=/g)?.length ?? 0;
}

/**
 * The page's links that stay on the fleet, as host index + path (two fleets on different
 * addresses compare alike); the page itself counts as linked.
 */
function fleetLinks(web: LocalWeb, html: string, url: string): Set<string> {
  const hostIndex = new Map(web.hosts.map((host, i) => [host.origin, i]));
  const key = (link: string): string | undefined => {
    const parsed = new URL(link);
    const index = hostIndex.get(parsed.origin);
    return index === undefined ? undefined : `${index} ${parsed.pathname}${parsed.search}`;
  };
  const { followed, nofollow } = extractLinks(html, url);
  return new Set([...followed, ...nofollow, url].map(key).filter((link) => link !== undefined));
}

describe('startFleet pageProfile', () => {
  it('serves realistic pages of 20–60 KB with 20–60 links, the same bytes on every request', async () => {
    const web = await startFleet({ hosts: 2, pagesPerHost: 80, pageProfile: 'realistic', firstAddress: 70 });
    try {
      const sizes: number[] = [];
      const links: number[] = [];
      for (const [index, host] of web.hosts.entries()) {
        for (const path of pathsOf(web, index)) {
          const first = await rawGet(host.origin + path);
          const again = await rawGet(host.origin + path);
          expect(first.status).toBe(200);
          expect(again.body.equals(first.body), path).toBe(true);
          sizes.push(first.body.length);
          if (!path.startsWith('/private/')) links.push(anchorCount(first.body.toString('utf8')));
        }
      }
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(20 * KB);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(60 * KB);
      expect(Math.min(...links)).toBeGreaterThanOrEqual(20);
      expect(Math.max(...links)).toBeLessThanOrEqual(60);
    } finally {
      await web.close();
    }
  });

  it('gives a realistic page the parts of a real one', async () => {
    const web = await startFleet({ hosts: 1, pagesPerHost: 30, pageProfile: 'realistic', firstAddress: 73 });
    try {
      const url = `${web.hosts[0]?.origin ?? ''}/pages/7`;
      const { text, headers } = await getText(url);
      expect(headers['content-type']).toBe('text/html; charset=utf-8');
      for (const part of [
        '<meta charset="utf-8">',
        '<meta name="viewport"',
        '<meta name="description"',
        '<meta name="robots" content="index, follow',
        '<meta property="og:title"',
        '<meta name="twitter:card"',
        `<link rel="canonical" href="${url}">`,
        '<link rel="stylesheet"',
        '<style id="critical-css">',
        '<nav id="site-navigation"',
        '<ul class="sub-menu">',
        '<aside id="secondary"',
        '<footer id="colophon"',
        '<!-- ',
        'href="mailto:',
        'href="tel:',
        'href="#section-1"',
      ]) {
        expect(text, part).toContain(part);
      }
      const jsonLd = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(text)?.[1] ?? '';
      expect(JSON.parse(jsonLd)).toMatchObject({ '@context': 'https://schema.org' });
      const inlineScripts = [...text.matchAll(/<script(?: id="[^"]*")?>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
      expect(Math.max(...inlineScripts.map((script) => script.length))).toBeGreaterThan(3000);
      expect(text).toMatch(/[^\x00-\x7f]/); // UTF-8 text, not ASCII only
    } finally {
      await web.close();
    }
  });

  it('links the same fleet pages in both profiles; the extra links stay off the fleet or on pages linked anyway', async () => {
    const small = await startFleet({ hosts: 3, pagesPerHost: 60, firstAddress: 75 });
    const realistic = await startFleet({ hosts: 3, pagesPerHost: 60, firstAddress: 80, pageProfile: 'realistic' });
    try {
      for (const [index, host] of small.hosts.entries()) {
        const twin = realistic.hosts[index]?.origin ?? '';
        for (const path of pathsOf(small, index)) {
          const smallLinks = fleetLinks(small, (await getText(host.origin + path)).text, host.origin + path);
          const realisticLinks = fleetLinks(realistic, (await getText(twin + path)).text, twin + path);
          expect(realisticLinks, path).toEqual(smallLinks);
        }
      }
    } finally {
      await realistic.close();
      await small.close();
    }
  });

  it('lets a crawl of a realistic host reach exactly the pages of a small one', async () => {
    const web = await startFleet({ hosts: 2, pagesPerHost: 40, pageProfile: 'realistic', firstAddress: 84 });
    try {
      for (const host of web.hosts) {
        const robots = parseRobotsTxt((await rawGet(`${host.origin}/robots.txt`)).body);
        const queue = [`${host.origin}/`];
        const seen = new Set(queue);
        const reached: string[] = [];
        for (let head = 0; head < queue.length; head++) {
          const url = queue[head] ?? '';
          if (!robots.isAllowed(url, UA)) continue;
          const { text } = await getText(url);
          reached.push(url.slice(host.origin.length));
          for (const link of extractLinks(text, url).followed) {
            if (link.startsWith(`${host.origin}/`) && !seen.has(link)) {
              seen.add(link);
              queue.push(link);
            }
          }
        }
        expect(reached.sort()).toEqual(host.expectedAllowedPaths);
      }
    } finally {
      await web.close();
    }
  });

  it('rejects an unknown page profile with ERR_INVALID_OPTION', async () => {
    const error = await startFleet({ hosts: 1, pagesPerHost: 1, pageProfile: 'huge' as 'small' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LocalWebError);
    expect((error as LocalWebError).code).toBe('ERR_INVALID_OPTION');
  });
});
