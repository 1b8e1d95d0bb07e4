// Header, meta and tdmrep.json sources, and the conservative verdict over all of them.

import {
  headerUsageSources,
  matchTdmrep,
  metaUsageSources,
  parseRobotsDirectives,
  parseRobotsTxt,
  parseTdmrepJson,
  reservedPurposes,
  type UsageReport,
  usageBeforeFetch,
  usageOf,
} from '@politely/core';
import { describe, expect, it } from 'vitest';

const statuses = (report: UsageReport) =>
  Object.fromEntries(Object.entries(report.purposes).map(([p, v]) => [p, v.status]));
const URL_ = 'https://provider.com/directory-b/html/page.html';

describe('Content-Usage header field (draft-ietf-aipref-attach-05 §2)', () => {
  it('§1.2 example: `Content-Usage: train-ai=n`', () => {
    const report = usageOf({ url: URL_, headers: { 'Content-Type': 'text/plain', 'Content-Usage': 'train-ai=n' } });
    expect(report.purposes['ai-train']).toEqual({
      status: 'reserved',
      sources: [
        expect.objectContaining({
          kind: 'header-content-usage',
          text: 'Content-Usage: train-ai=n',
          label: 'train-ai',
          preference: 'reserved',
        }),
      ],
    });
    expect(report.purposes.search.status).toBe('unknown');
  });

  it('works with a WHATWG Headers object and with repeated fields', () => {
    const headers = new Headers([
      ['content-usage', 'train-ai=n'],
      ['content-usage', 'search=y'],
    ]);
    expect(statuses(usageOf({ url: URL_, headers }))).toMatchObject({ 'ai-train': 'reserved', search: 'allowed' });
    expect(statuses(usageOf({ url: URL_, headers: { 'content-usage': ['train-ai=n', 'search=y'] } }))).toMatchObject({
      search: 'allowed',
    });
  });

  it('a malformed field states nothing', () => {
    expect(headerUsageSources({ 'content-usage': 'TRAIN-AI=N' })[0]?.purposes).toEqual({});
  });
});

describe('TDMRep (W3C CG Final Report, 10 May 2024)', () => {
  it('header example: `tdm-reservation: 1` with `tdm-policy`', () => {
    const report = usageOf({
      url: URL_,
      headers: { 'tdm-reservation': '1', 'tdm-policy': 'https://provider.com/policies/policy.json' },
    });
    expect(report.purposes.tdm.sources).toEqual([
      expect.objectContaining({
        kind: 'tdm-header',
        text: 'tdm-reservation: 1',
        policy: 'https://provider.com/policies/policy.json',
        preference: 'reserved',
      }),
    ]);
    // TDM includes AI training and AI input: they inherit the reservation; search does not.
    expect(statuses(report)).toMatchObject({
      tdm: 'reserved',
      'ai-train': 'reserved',
      'ai-input': 'reserved',
      search: 'unknown',
    });
    expect(report.purposes['ai-train'].sources[0]).toMatchObject({ inheritedFrom: 'tdm' });
  });

  it('meta example: `<meta name="tdm-reservation" content="1">` and `tdm-policy`', () => {
    const sources = metaUsageSources([
      { name: 'tdm-reservation', content: '1' },
      { name: 'tdm-policy', content: 'https://provider.com/policies/policy.json' },
    ]);
    expect(sources).toEqual([
      expect.objectContaining({ kind: 'tdm-meta', policy: 'https://provider.com/policies/policy.json' }),
    ]);
  });

  it('an invalid value is unset, not an error', () => {
    expect(headerUsageSources({ 'tdm-reservation': 'yes' })).toEqual([]);
    expect(metaUsageSources([{ name: 'TDM-Reservation', content: '2' }])).toEqual([]);
  });

  it("tdmrep.json: the spec's three-group example, first match in sequence", () => {
    const file = parseTdmrepJson(`[
      { "location": "/directory-a/", "tdm-reservation": 1 },
      { "location": "/directory-b/html/", "tdm-reservation": 1, "tdm-policy": "https://provider.com/policies/policy.json" },
      { "location": "/directory-b/images/*.jpg", "tdm-reservation": 0 }
    ]`);
    expect(file.issues).toEqual([]);
    expect(matchTdmrep(file, 'https://provider.com/directory-a/doc.pdf')?.index).toBe(0);
    expect(matchTdmrep(file, URL_)).toMatchObject({ index: 1, policy: 'https://provider.com/policies/policy.json' });
    expect(matchTdmrep(file, 'https://provider.com/directory-b/images/cat.jpg')).toMatchObject({
      index: 2,
      reservation: 'allowed',
    });
    expect(matchTdmrep(file, 'https://provider.com/other')).toBeNull();
    const report = usageBeforeFetch({ url: URL_, tdmrep: file });
    expect(report.purposes.tdm.sources[0]).toMatchObject({ kind: 'tdmrep-json', entry: 1, path: '/directory-b/html/' });
    expect(reservedPurposes(report, ['search', 'ai-train'])).toEqual(['ai-train']);
  });

  it('tdmrep.json: opt-out for every file (`"location": "/"`), bytes with a BOM', () => {
    const bytes = new TextEncoder().encode('\uFEFF[{"location": "/", "tdm-reservation": 1}]');
    expect(matchTdmrep(parseTdmrepJson(bytes), 'https://provider.com/any')?.reservation).toBe('reserved');
  });

  it('tdmrep.json: malformed files and rules give no rules, never an error', () => {
    expect(parseTdmrepJson('not json').rules).toEqual([]);
    expect(parseTdmrepJson('{"location": "/"}').rules).toEqual([]);
    const file = parseTdmrepJson([
      null,
      { 'tdm-reservation': 1 },
      { location: 'relative', 'tdm-reservation': 1 },
      { location: '/a', 'tdm-reservation': 'yes' },
      { location: '/a', 'tdm-reservation': 1, extra: true },
    ]);
    expect(file.rules.map((rule) => rule.index)).toEqual([4]);
    expect(file.issues).toHaveLength(4);
  });
});

describe('noai / noimageai', () => {
  it('in meta robots: noai reserves AI training and input; noimageai only training on the images', () => {
    const report = usageOf({ url: URL_, meta: [{ name: 'robots', content: 'noindex, noai' }] });
    expect(statuses(report)).toMatchObject({
      'ai-train': 'reserved',
      'ai-input': 'reserved',
      'ai-train-images': 'reserved',
      search: 'unknown',
      tdm: 'unknown',
    });
    const images = usageOf({ url: URL_, meta: [{ name: 'ROBOTS', content: 'noimageai' }] });
    expect(statuses(images)).toMatchObject({ 'ai-train': 'unknown', 'ai-train-images': 'reserved' });
  });

  it("a meta tag named after one of the crawler's tokens applies, one named after another crawler does not", () => {
    const meta = [
      { name: 'mybot-training', content: 'noai' },
      { name: 'otherbot', content: 'noai' },
    ];
    expect(usageOf({ url: URL_, meta, tokens: ['MyBot', 'MyBot-Training'] }).purposes['ai-train'].sources).toEqual([
      expect.objectContaining({ kind: 'meta-robots', token: 'mybot-training' }),
    ]);
    expect(usageOf({ url: URL_, meta, tokens: 'MyBot' }).purposes['ai-train'].status).toBe('unknown');
  });

  it('X-Robots-Tag: directive lists, crawler-scoped lists, joined field lines', () => {
    expect(parseRobotsDirectives('noai, noimageai')).toEqual([{ directive: 'noai' }, { directive: 'noimageai' }]);
    expect(parseRobotsDirectives('googlebot: noindex, otherbot: noai, max-snippet: 20', true)).toEqual([
      { directive: 'noindex', agent: 'googlebot' },
      { directive: 'noai', agent: 'otherbot' },
      { directive: 'max-snippet: 20', agent: 'otherbot' },
    ]);
    const scoped = { 'x-robots-tag': 'otherbot: noai' };
    expect(usageOf({ url: URL_, headers: scoped, tokens: 'MyBot' }).purposes['ai-train'].status).toBe('unknown');
    expect(usageOf({ url: URL_, headers: scoped, tokens: 'OtherBot/1.0' }).purposes['ai-train'].status).toBe(
      'reserved',
    );
    expect(
      usageOf({ url: URL_, headers: { 'X-Robots-Tag': ['noindex', 'noai'] } }).purposes['ai-input'].sources,
    ).toEqual([expect.objectContaining({ kind: 'x-robots-tag', text: 'X-Robots-Tag: noai', label: 'noai' })]);
  });
});

describe('combining sources: a stated reservation from any source wins', () => {
  const robots = parseRobotsTxt('User-agent: *\nContent-Signal: search=yes, ai-train=yes, ai-input=yes\n');

  it("robots.txt allows AI training, the page's header reserves it: reserved, citing the header", () => {
    const report = usageOf({ url: URL_, robots, headers: { 'content-usage': 'train-ai=n' } });
    expect(report.purposes['ai-train'].status).toBe('reserved');
    expect(report.purposes['ai-train'].sources.map((s) => s.kind)).toEqual(['header-content-usage']);
    expect(report.purposes.search).toMatchObject({
      status: 'allowed',
      sources: [expect.objectContaining({ kind: 'robots-content-signal', line: 2 })],
    });
    expect(report.sources).toHaveLength(2);
  });

  it("tdmrep.json reserves TDM, a meta tag says 0: still reserved (TDMRep's own priority would let meta supersede)", () => {
    const tdmrep = parseTdmrepJson([{ location: '/', 'tdm-reservation': 1 }]);
    const report = usageOf({ url: URL_, tdmrep, meta: [{ name: 'tdm-reservation', content: '0' }] });
    expect(report.purposes.tdm.status).toBe('reserved');
    expect(report.purposes.tdm.sources.map((s) => s.kind)).toEqual(['tdmrep-json']);
  });

  it('a broader reservation in one source beats a narrower permission in another (tdm=1 vs ai-train=yes)', () => {
    const report = usageOf({ url: URL_, robots, headers: { 'tdm-reservation': '1' } });
    expect(report.purposes['ai-train']).toMatchObject({
      status: 'reserved',
      sources: [expect.objectContaining({ kind: 'tdm-header', inheritedFrom: 'tdm' })],
    });
  });

  it('permissions from several sources are all cited; no source at all is unknown', () => {
    const report = usageOf({ url: URL_, robots, headers: { 'content-usage': 'train-ai=y' } });
    expect(report.purposes['ai-train'].sources.map((s) => s.kind)).toEqual([
      'robots-content-signal',
      'header-content-usage',
    ]);
    expect(statuses(usageOf({ url: URL_ }))).toEqual({
      search: 'unknown',
      tdm: 'unknown',
      'ai-train': 'unknown',
      'ai-input': 'unknown',
      'ai-train-images': 'unknown',
    });
  });

  it('usageBeforeFetch ignores headers and meta even if given', () => {
    const input = { url: URL_, robots, headers: { 'content-usage': 'train-ai=n' } };
    expect(usageBeforeFetch(input).purposes['ai-train'].status).toBe('allowed');
  });
});
