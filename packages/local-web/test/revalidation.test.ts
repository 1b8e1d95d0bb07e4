// Fleets revalidate like the demo web (validators, 304s, changing pages), and send a
// Cache-Control when asked.
import { describe, expect, it } from 'vitest';
import { LocalWebError, startFleet } from '../src/index.js';
import { type RawResponse, rawGet } from './helpers.js';

const header = (response: RawResponse, name: string): string => {
  const value = response.headers[name];
  if (typeof value !== 'string') throw new Error(`no ${name} header`);
  return value;
};

describe('fleets', () => {
  it('revalidate and change generated pages, and send a Cache-Control when asked', async () => {
    const fleet = await startFleet({ hosts: 2, pagesPerHost: 20, firstAddress: 200, cacheControl: 'max-age=60' });
    try {
      const url = `${fleet.hosts[1]?.origin ?? ''}/pages/7`;
      const full = await rawGet(url);
      expect(header(full, 'cache-control')).toBe('max-age=60');
      const etag = header(full, 'etag');
      expect(header(await rawGet(url), 'etag')).toBe(etag);
      const notModified = await rawGet(url, { 'if-none-match': etag });
      expect(notModified.status).toBe(304);
      expect(header(notModified, 'cache-control')).toBe('max-age=60');
      fleet.changePages([url]);
      const changed = await rawGet(url, { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.body.toString('utf8')).toContain('<p class="revision">revision 1</p>');
      expect(fleet.revisionOf(url)).toBe(1);
      expect(() => fleet.changePages(['/pages/20'])).toThrow(LocalWebError);
    } finally {
      await fleet.close();
    }
  });

  it('refuses a cacheControl that is no header value', async () => {
    await expect(startFleet({ hosts: 1, pagesPerHost: 2, cacheControl: 'max-age=1\r\nx: y' })).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
    });
  });
});
