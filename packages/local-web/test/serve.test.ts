// The serve script (`pnpm web`) starts each web in its own process and prints its manifest.

import type { RenderCrawlTruth, UsagePageTruth } from '@politely/demo-web';
import { renderManifest, startRenderWeb, startUsageWeb, USAGE_HOST_NAMES } from '@politely/demo-web';
import { describe, expect, it } from 'vitest';
import { rawGet, withServeJson } from './helpers.js';

describe('serve --render', () => {
  it('starts the render web in its own process and prints its manifest with --json', async () => {
    // The manifest printed is that of a render web started here, but for its addresses.
    const web = await startRenderWeb({ firstAddress: 248 });
    const truth = renderManifest(web);
    await web.close();
    await withServeJson(['--render', '--port', '0', '--first-address', '246', '--json'], async (json) => {
      const printed = json as {
        entryUrl: string;
        hosts: { name: string; address: string }[];
        manifest: RenderCrawlTruth;
      };
      expect(printed.entryUrl).toMatch(/^http:\/\/127\.0\.0\.246:\d+\/$/);
      expect(printed.hosts.map((host) => [host.name, host.address])).toEqual([
        ['app', '127.0.0.246'],
        ['cdn', '127.0.0.247'],
      ]);
      expect(printed.manifest.entryUrl).toBe(printed.entryUrl);
      expect(Object.values(printed.manifest.renderedTitles).sort()).toEqual(Object.values(truth.renderedTitles).sort());
      expect(printed.manifest.requested).toHaveLength(truth.requested.length);
      expect(printed.manifest.neverRequested).toHaveLength(truth.neverRequested.length);
      expect((await rawGet(printed.entryUrl)).status).toBe(200);
    });
  });
});

describe('serve --usage', () => {
  it('starts the usage web in its own process and prints its manifest with --json', async () => {
    const web = await startUsageWeb({ firstAddress: 215 });
    await web.close();
    await withServeJson(['--usage', '--port', '0', '--first-address', '210', '--json'], async (json) => {
      const printed = json as {
        entryUrl: string;
        hosts: { name: string }[];
        usagePages: UsagePageTruth[];
        tdmrepFiles: unknown[];
      };
      expect(printed.entryUrl).toMatch(/^http:\/\/127\.0\.0\.210:\d+\/$/);
      expect(printed.hosts.map((host) => host.name)).toEqual([...USAGE_HOST_NAMES]);
      expect(printed.usagePages).toHaveLength(web.usagePages.length);
      expect(printed.tdmrepFiles).toHaveLength(1);
      expect((await fetch(printed.entryUrl)).status).toBe(200);
    });
  });
});
