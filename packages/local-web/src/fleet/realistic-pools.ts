// What the fleet's realistic pages are assembled from: paragraphs with inline markup,
// stylesheets, minified scripts and an icon sprite, each generated once per process from fixed
// seeds and kept UTF-8 encoded. A page picks its pieces by hash, so rendering one is copying
// bytes, never generating or encoding them: the fleet serves thousands of 40 KB pages a second
// from one core.

import { createRandom, escapeHtml, pick, type Random, randomInt } from '@politely/demo-web/internal';
import { type Encoded, encode } from './html-pieces.js';

export interface Person {
  /** The name, HTML-escaped. */
  readonly name: string;
  /** `ines.novak`: the name without accents, for a `mailto:` address. */
  readonly mailbox: string;
}

export interface RealisticPools {
  /** Paragraph HTML (the inside of a `<p>`): sentences with `<strong>`, `<em>`, `<code>` and entities. */
  readonly paragraphs: readonly Encoded[];
  /** Section headings, HTML-escaped. */
  readonly headings: readonly string[];
  /** Short sentences for list items, captions and descriptions, HTML-escaped. */
  readonly snippets: readonly string[];
  /** Minified CSS of 1.5–7 KB, for an inline `<style>`. */
  readonly stylesheets: readonly Encoded[];
  /** Minified-looking JavaScript of 2–8 KB, for an inline `<script>` (never contains `</script`). */
  readonly scripts: readonly Encoded[];
  /** Bits of those scripts, HTML-escaped, for `<pre><code>` blocks. */
  readonly codeSamples: readonly Encoded[];
  /** An inline SVG sprite of icons (`<symbol id="icon-…">`), the same on every page. */
  readonly sprite: Encoded;
  /** The ids of the sprite's icons. */
  readonly icons: readonly string[];
  /** People, for bylines and comments: a name and an ASCII e-mail local part. */
  readonly people: readonly Person[];
}

const PARAGRAPHS = 384;
const HEADINGS = 96;
const SNIPPETS = 128;
const STYLESHEETS = 8;
const SCRIPTS = 12;
const CODE_SAMPLES = 24;
const ICONS = ['search', 'menu', 'close', 'share', 'mail', 'phone', 'rss', 'arrow-right', 'chevron-down', 'comment'];

// A vocabulary wide enough for text that does not look like a loop, with some non-ASCII words:
// real pages are UTF-8, and decoders have a fast path that plain ASCII would flatter.
const WORDS = (
  'the a of and to in is that for on with as by at from this be are was it or an which not have has ' +
  'more can will one all their there been its about other new some time when would what into them these ' +
  'polite crawler robots rules host delay request server page link sitemap feed archive garden kitchen ' +
  'market river harbour lantern meadow copper signal quiet morning letter window bridge orchard canvas ' +
  'thread pattern season harvest compass ledger village station engine record folder network module ' +
  'careful steady gentle modest honest simple local shared patient useful clear bright winter summer ' +
  'railway museum library council budget school teacher student weather forecast recipe bread cheese ' +
  'coffee café naïve façade Zürich São Paulo Kraków déjà vu résumé über jalapeño smörgåsbord crème brûlée ' +
  'report survey analysis figure chart table measure average median quarter annual growth decline ' +
  'customer service support release version update feature option setting default error warning ' +
  'history culture travel journey mountain valley coast island forest desert city street avenue square ' +
  'evening night weekend holiday festival concert theatre cinema gallery exhibition collection'
).split(' ');
const CAPITALISED = [
  'Harbour',
  'Orchard',
  'Lantern',
  'Ledger',
  'Meadow',
  'Compass',
  'Signal',
  'Bridge',
  'Canvas',
  'Station',
  'Council',
  'Museum',
];
const FIRST_NAMES = [
  'Ada',
  'Bruno',
  'Chiara',
  'Dmitri',
  'Eliška',
  'Farah',
  'Gustav',
  'Hana',
  'Ines',
  'José',
  'Kwame',
  'Lena',
  'Mateo',
  'Nadia',
  'Oskar',
  'Priya',
];
const LAST_NAMES = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Nakamura',
  'Ferreira',
  'Kowalski',
  'Haddad',
  'Brennan',
  'Novák',
  'Schäfer',
  'Rossi',
  'Takahashi',
];

let pools: RealisticPools | undefined;

/** The pools, built on first use (about 20 ms) and shared by every fleet of the process. */
export function realisticPools(): RealisticPools {
  pools ??= buildPools();
  return pools;
}

function buildPools(): RealisticPools {
  const random = createRandom(20_261_124);
  const iconShapes = ICONS.map((id) => [id, svgPath(random)] as const);
  const scripts = Array.from({ length: SCRIPTS }, () => script(random, randomInt(random, 2_000, 8_000)));
  return {
    paragraphs: Array.from({ length: PARAGRAPHS }, () => encode(richParagraph(random))),
    headings: Array.from({ length: HEADINGS }, () => escapeHtml(heading(random))),
    snippets: Array.from({ length: SNIPPETS }, () => escapeHtml(plainSentence(random, 6, 14))),
    stylesheets: Array.from({ length: STYLESHEETS }, () => encode(stylesheet(random, randomInt(random, 1_500, 7_000)))),
    scripts: scripts.map(encode),
    codeSamples: Array.from({ length: CODE_SAMPLES }, () =>
      encode(escapeHtml(pick(random, scripts).slice(0, randomInt(random, 120, 480)))),
    ),
    sprite: encode(
      '<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" style="position:absolute;width:0;height:0;overflow:hidden">' +
        iconShapes.map(([id, d]) => `<symbol id="icon-${id}" viewBox="0 0 24 24"><path d="${d}"/></symbol>`).join('') +
        '</svg>',
    ),
    icons: ICONS,
    people: FIRST_NAMES.flatMap((first) => LAST_NAMES.map((last) => person(first, last))),
  };
}

// ---------------------------------------------------------------------------------------------
// Text

function person(first: string, last: string): Person {
  const ascii = (name: string) =>
    name
      .normalize('NFD')
      .replace(/[^a-z]/gi, '')
      .toLowerCase();
  return { name: escapeHtml(`${first} ${last}`), mailbox: `${ascii(first)}.${ascii(last)}` };
}

function words(random: Random, count: number): string[] {
  return Array.from({ length: count }, () => pick(random, WORDS));
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function plainSentence(random: Random, min: number, max: number): string {
  return `${capitalise(words(random, randomInt(random, min, max)).join(' '))}.`;
}

/** A sentence of 8–24 words; one in three carries inline markup, a name or an entity. */
function richSentence(random: Random): string {
  const parts = words(random, randomInt(random, 8, 24));
  const at = randomInt(random, 1, parts.length - 1);
  switch (randomInt(random, 0, 8)) {
    case 0:
      parts[at] = `<strong>${parts[at] ?? ''}</strong>`;
      break;
    case 1:
      parts[at] = `<em>${parts[at] ?? ''} ${pick(random, WORDS)}</em>`;
      break;
    case 2:
      parts[at] = `<code>${pick(random, WORDS)}_${pick(random, WORDS)}()</code>`;
      break;
    case 3:
      parts[at] = `${pick(random, CAPITALISED)} &amp; ${pick(random, CAPITALISED)}`;
      break;
    case 4:
      parts[at] = `${parts[at] ?? ''} &mdash;`;
      break;
    case 5:
      parts[at] = `&ldquo;${parts[at] ?? ''}&rdquo;`;
      break;
    default:
      break;
  }
  const ending = randomInt(random, 0, 9) === 0 ? '?' : '.';
  return capitalise(parts.join(' ')) + ending;
}

/** A paragraph of 2–7 sentences: about 150–1,100 bytes. */
function richParagraph(random: Random): string {
  return Array.from({ length: randomInt(random, 2, 7) }, () => richSentence(random)).join(' ');
}

function heading(random: Random): string {
  return `${pick(random, CAPITALISED)} ${words(random, randomInt(random, 2, 6)).join(' ')}`;
}

// ---------------------------------------------------------------------------------------------
// Stylesheets: the shape of a minified site stylesheet (BEM selectors, shorthands, media queries).

const BLOCKS = [
  'site-header',
  'site-footer',
  'nav',
  'menu',
  'card',
  'post',
  'sidebar',
  'widget',
  'btn',
  'hero',
  'breadcrumbs',
  'share',
  'comment',
  'toc',
  'newsletter',
  'modal',
];
const ELEMENTS = ['', '__title', '__body', '__item', '__link', '__icon', '__meta', '__media', '__list', '__inner'];
const MODIFIERS = ['', '', '', '--active', '--large', '--dark', '--open', '--compact'];
const PSEUDO = ['', '', '', ':hover', ':focus-visible', '::before', '>a', ' li+li', ':not(:last-child)'];
const DECLARATIONS: readonly ((random: Random) => string)[] = [
  (r) => `color:${colour(r)}`,
  (r) => `background-color:${colour(r)}`,
  (r) => `margin:${length(r)} ${length(r)}`,
  (r) => `padding:${length(r)} ${length(r)} ${length(r)}`,
  (r) => `font-size:${randomInt(r, 11, 40) / 10}rem`,
  (r) => `line-height:${randomInt(r, 10, 20) / 10}`,
  (r) => `display:${pick(r, ['flex', 'grid', 'block', 'inline-block', 'none'])}`,
  (r) => `border:${randomInt(r, 1, 3)}px solid ${colour(r)}`,
  (r) => `border-radius:${randomInt(r, 0, 12)}px`,
  (r) =>
    `transition:${pick(r, ['color', 'opacity', 'transform', 'background-color'])} .${randomInt(r, 1, 5)}s ease-in-out`,
  (r) => `box-shadow:0 ${randomInt(r, 1, 8)}px ${randomInt(r, 2, 24)}px rgba(0,0,0,.${randomInt(r, 5, 30)})`,
  (r) => `grid-template-columns:repeat(auto-fill,minmax(${randomInt(r, 12, 24)}rem,1fr))`,
  (r) =>
    `font-family:${pick(r, ['"Inter",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif', 'Georgia,"Times New Roman",serif', 'ui-monospace,SFMono-Regular,Menlo,monospace'])}`,
  (r) => `max-width:${randomInt(r, 20, 90)}rem`,
  (r) => `z-index:${randomInt(r, 1, 1000)}`,
];

function colour(random: Random): string {
  return randomInt(random, 0, 3) === 0
    ? `rgba(${randomInt(random, 0, 255)},${randomInt(random, 0, 255)},${randomInt(random, 0, 255)},.${randomInt(random, 1, 9)})`
    : `#${randomInt(random, 0, 0xffffff).toString(16).padStart(6, '0')}`;
}

function length(random: Random): string {
  return pick(random, [
    '0',
    'auto',
    `${randomInt(random, 1, 48)}px`,
    `.${randomInt(random, 1, 9)}rem`,
    `${randomInt(random, 1, 4)}rem`,
  ]);
}

function cssRule(random: Random): string {
  const selector = () =>
    `.${pick(random, BLOCKS)}${pick(random, ELEMENTS)}${pick(random, MODIFIERS)}${pick(random, PSEUDO)}`;
  const selectors = Array.from({ length: randomInt(random, 1, 3) }, selector).join(',');
  const declarations = Array.from({ length: randomInt(random, 2, 7) }, () => pick(random, DECLARATIONS)(random)).join(
    ';',
  );
  return `${selectors}{${declarations}}`;
}

function stylesheet(random: Random, bytes: number): string {
  let css =
    ':root{--brand:#1f5f8b;--ink:#1d1f23;--muted:#5b616e;--radius:6px}*,*::before,*::after{box-sizing:border-box}';
  while (css.length < bytes) {
    css +=
      randomInt(random, 0, 9) === 0
        ? `@media (min-width:${pick(random, ['480px', '768px', '1024px', '1280px'])}){${cssRule(random)}${cssRule(random)}}`
        : cssRule(random);
  }
  return css;
}

// ---------------------------------------------------------------------------------------------
// Scripts: minified-looking JavaScript (short names, string tables, HTML in strings, regexps).
// Never `</script` (it would end the element) nor `<!--` (script-data escape states).

const IDENTIFIERS = 'e t n r i o a s u c l d f p h m g v y b w x k'.split(' ');
const PROPERTIES = [
  'querySelector',
  'addEventListener',
  'classList',
  'dataset',
  'setAttribute',
  'getBoundingClientRect',
  'requestAnimationFrame',
  'innerHTML',
  'textContent',
  'push',
  'forEach',
  'length',
  'matches',
  'closest',
  'dispatchEvent',
];
const HTML_STRINGS = [
  '"<div class=\\"modal__body\\">"',
  '\'<span class="badge">\'',
  '"<\\/div>"',
  "'</span>'",
  '"<a href=\\"#\\" class=\\"js-close\\">&times;<\\/a>"',
  '\'<li class="menu__item">\'',
];

function identifier(random: Random): string {
  return randomInt(random, 0, 4) === 0
    ? `${pick(random, IDENTIFIERS)}${pick(random, IDENTIFIERS)}`
    : pick(random, IDENTIFIERS);
}

function expression(random: Random): string {
  const a = identifier(random);
  const b = identifier(random);
  switch (randomInt(random, 0, 9)) {
    case 0:
      return `${a}.${pick(random, PROPERTIES)}(${b},${randomInt(random, 0, 999)})`;
    case 1:
      return `${a}&&${a}.${pick(random, PROPERTIES)}?${a}.${pick(random, PROPERTIES)}:${b}`;
    case 2:
      return `"${pick(random, BLOCKS)}-${pick(random, WORDS.slice(40, 90))}"`;
    case 3:
      return pick(random, HTML_STRINGS);
    case 4:
      return `/^\\s+|\\s+$/g.test(${a})`;
    case 5:
      return `function(${a},${b}){return ${a}[${b}]||${randomInt(random, 0, 99)}}`;
    case 6:
      return `{${pick(random, PROPERTIES)}:${a},${pick(random, BLOCKS).replace('-', '')}:!${randomInt(random, 0, 1)},d:"${pick(random, WORDS)}"}`;
    case 7:
      return `${a}.length>${randomInt(random, 0, 64)}&&${b}<${a}`;
    case 8:
      return `(${a}=${b}.${pick(random, PROPERTIES)}(${pick(random, HTML_STRINGS)}))`;
    default:
      return `Math.max(${a}|0,${randomInt(random, 1, 4096)})`;
  }
}

function statement(random: Random): string {
  const a = identifier(random);
  switch (randomInt(random, 0, 5)) {
    case 0:
      return `var ${a}=${expression(random)},${identifier(random)}=${expression(random)};`;
    case 1:
      return `if(${expression(random)}){${a}.${pick(random, PROPERTIES)}(${expression(random)});return ${expression(random)}}`;
    case 2:
      return `for(var ${a}=0;${a}<${identifier(random)}.length;${a}++)${identifier(random)}+=${expression(random)};`;
    case 3:
      return `function ${capitalise(pick(random, BLOCKS).replace('-', ''))}${randomInt(random, 0, 99)}(${a},t){${expression(random)};return ${expression(random)}}`;
    case 4:
      return `try{${a}=JSON.parse(${identifier(random)})}catch(${identifier(random)}){${a}=${expression(random)}}`;
    default:
      return `${a}.addEventListener("${pick(random, ['click', 'scroll', 'resize', 'keydown', 'load'])}",${expression(random)},{passive:!0});`;
  }
}

function script(random: Random, bytes: number): string {
  let js = '!function(e,t){"use strict";';
  while (js.length < bytes) js += statement(random);
  return `${js}}(window,document);`;
}

// ---------------------------------------------------------------------------------------------
// Icons

function svgPath(random: Random): string {
  const point = () => `${randomInt(random, 0, 240) / 10} ${randomInt(random, 0, 240) / 10}`;
  let d = `M${point()}`;
  for (let k = randomInt(random, 4, 8); k > 0; k--) d += `${pick(random, ['L', 'C', 'Q', 'S'])}${point()} ${point()}`;
  return `${d}z`;
}
