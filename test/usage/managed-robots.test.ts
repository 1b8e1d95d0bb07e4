// The demo's managed site serves Cloudflare's managed robots.txt block exactly as core's usage
// tests know it: across two packages, so here, outside both.

import { readFileSync } from 'node:fs';
import { MANAGED_ROBOTS_TXT } from '@politely/demo-web';
import { describe, expect, it } from 'vitest';

const FIXTURE = new URL('../../packages/core/test/usage/fixtures/cloudflare-managed-robots.txt', import.meta.url);

/** Everything before the end marker: the part Cloudflare writes. */
const managedPart = (text: string): string => text.slice(0, text.indexOf('# END Cloudflare Managed Content'));

describe('MANAGED_ROBOTS_TXT', () => {
  it("carries Cloudflare's comment block and managed content as in core's fixture", () => {
    const fixture = readFileSync(FIXTURE, 'utf8');
    expect(managedPart(fixture).length).toBeGreaterThan(0);
    expect(managedPart(MANAGED_ROBOTS_TXT)).toBe(managedPart(fixture));
  });
});
