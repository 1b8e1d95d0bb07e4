// The floor of a page's cost: the least a crawler must do for each page, and nothing else.
// - the HTTP exchange in undici (the client politely's core uses), the body read whole;
// - the body decoded to text once, and one pass of htmlparser2's Tokenizer over it (the
//   tokenizer politely's streaming extraction uses), keeping the href of every <a>;
// - each href resolved against the page's URL, its fragment dropped, kept if it is in scope and
//   new (a Set of strings).
// No robots.txt, no politeness, no store, no events, no records: what is above this is the cost
// of everything politely adds. Run by crawler-contestant.js as the contestant 'floor'.

import { Tokenizer } from 'htmlparser2';
import { Agent, request } from 'undici';

/** htmlparser2 Tokenizer callbacks that keep the hrefs of `<a>` tags and nothing else. */
function hrefCollector(html, hrefs) {
  let tag = '';
  let attribute = '';
  let value = '';
  const ignore = () => {};
  return {
    onopentagname(start, end) {
      tag = html.slice(start, end).toLowerCase();
    },
    onattribname(start, end) {
      attribute = tag === 'a' ? html.slice(start, end).toLowerCase() : '';
      value = '';
    },
    onattribdata(start, end) {
      if (attribute === 'href') value += html.slice(start, end);
    },
    onattribentity(codePoint) {
      if (attribute === 'href') value += String.fromCodePoint(codePoint);
    },
    onattribend() {
      if (attribute === 'href') hrefs.push(value);
      attribute = '';
    },
    onopentagend: ignore,
    onselfclosingtag: ignore,
    onclosetag: ignore,
    ontext: ignore,
    ontextentity: ignore,
    oncdata: ignore,
    oncomment: ignore,
    ondeclaration: ignore,
    onprocessinginstruction: ignore,
    onend: ignore,
  };
}

/** The hrefs of a page's `<a>` tags, in one tokenizer pass. */
export function scanHrefs(html) {
  const hrefs = [];
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, hrefCollector(html, hrefs));
  tokenizer.write(html);
  tokenizer.end();
  return hrefs;
}

/**
 * Crawls from `seeds` with `concurrency` requests in flight, following in-scope links once each.
 * Calls `sawPage(url, status)` per page; `signal` stops it. Resolves with the pages fetched.
 */
export async function crawlFloor({ seeds, scope, concurrency, sawPage, signal }) {
  const dispatcher = new Agent({ connections: concurrency });
  const seen = new Set(seeds);
  const queue = [...seeds];
  let pages = 0;
  const decoder = new TextDecoder();
  const fetchOne = async (url) => {
    const response = await request(url, { dispatcher, headers: { 'user-agent': 'PolitelyBenchFloor/1.0' } });
    const chunks = [];
    for await (const chunk of response.body) chunks.push(chunk);
    pages++;
    sawPage(url, response.statusCode);
    if (response.statusCode !== 200) return;
    const html = decoder.decode(Buffer.concat(chunks));
    for (const href of scanHrefs(html)) {
      let link;
      try {
        link = new URL(href, url);
      } catch {
        continue;
      }
      link.hash = '';
      const text = link.href;
      if (!seen.has(text) && scope.test(text)) {
        seen.add(text);
        queue.push(text);
      }
    }
  };
  // A pool without polling: each finished fetch starts the next ones; the last one ends the crawl.
  try {
    await new Promise((resolve, reject) => {
      let running = 0;
      const pump = () => {
        while (running < concurrency && queue.length > 0 && !signal?.aborted) {
          running++;
          fetchOne(queue.shift()).then(finished, reject);
        }
        if (running === 0) resolve();
      };
      const finished = () => {
        running--;
        pump();
      };
      pump();
    });
  } finally {
    await dispatcher.close();
  }
  return pages;
}
