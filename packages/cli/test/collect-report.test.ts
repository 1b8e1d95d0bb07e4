// The report collector reads the crawler's events as data: a robots skip's deciding rule arrives
// as `{ line, text }` on the event and lands in the report as is (no text parsed back).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCrawlReportCollector } from '@politely/cli';
import { createCrawler } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UA = 'ReportBot/1.0';
const ROBOTS = 'User-agent: *\n# private pages\nDisallow: /private\n';
const PAGES: Record<string, string> = {
  '/': '<a href="/private/one">one</a> <a href="/private/two">two</a> <a href="/open">open</a>',
  '/open': 'open',
};

describe('createCrawlReportCollector', () => {
  let server: Server;
  let origin: string;
  const requested: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? '');
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
      const page = PAGES[req.url ?? ''];
      if (page === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${page}</body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a robots skip lands in the report with its deciding line and text, from the event’s rule', async () => {
    const collector = createCrawlReportCollector({ userAgent: UA, seeds: [`${origin}/`], minDelayMs: 0 });
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`${origin}/`],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      robotsCache: collector.robotsCache(),
    });
    const skips: unknown[] = [];
    crawler.on('skip', (event) => {
      if (event.reason === 'robots') skips.push(event);
    });
    collector.attach(crawler);
    const data = collector.finish(await crawler.run());

    expect(requested.filter((path) => path.startsWith('/private'))).toEqual([]);
    expect(skips).toEqual([
      expect.objectContaining({ url: `${origin}/private/one`, rule: { line: 3, text: 'Disallow: /private' } }),
      expect.objectContaining({ url: `${origin}/private/two`, rule: { line: 3, text: 'Disallow: /private' } }),
    ]);
    const refused = data.hosts.flatMap((host) => host.decisions).filter((decision) => !decision.allowed);
    expect(refused).toEqual([
      expect.objectContaining({ basis: 'rules', line: 3, text: 'Disallow: /private', count: 2 }),
    ]);
    expect(refused[0]).not.toHaveProperty('detail');
  });
});
