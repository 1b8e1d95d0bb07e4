// Which elements are boilerplate by their kind or their own markings, as data: tags that never
// hold a page's main content, ARIA roles of page furniture, and the words sites put in class
// and id attributes of navigation, share bars, comment sections, cookie banners and ads. No rule
// names a site: these words are what templates everywhere use.

import type { Element } from './tree.js';

/** Tags whose whole subtree is page furniture. */
export const BOILERPLATE_TAGS: ReadonlySet<string> = new Set([
  'nav',
  'footer',
  'aside',
  'header',
  'menu',
  'dialog',
  'input',
  'label',
  'fieldset',
  'legend',
  'option',
  'optgroup',
  'datalist',
  'output',
  'progress',
  'meter',
  'map',
  'area',
  'figcaption',
  'frameset',
  'frame',
  'link',
  'meta',
  'base',
  'head',
]);

/** ARIA roles of furniture. */
export const BOILERPLATE_ROLES: ReadonlySet<string> = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'dialog',
  'alertdialog',
  'search',
  'menu',
  'menubar',
  'toolbar',
  'tablist',
]);

/**
 * Words of class and id attributes that mark furniture, matched as whole parts of a name split
 * on `-`, `_`, spaces and case changes (`share-bar`, `relatedPosts`, `cookie_notice`).
 */
export const BOILERPLATE_WORDS: ReadonlySet<string> = new Set([
  'comment',
  'comments',
  'share',
  'sharing',
  'social',
  'related',
  'sidebar',
  'menu',
  'breadcrumb',
  'breadcrumbs',
  'cookie',
  'cookies',
  'consent',
  'gdpr',
  'newsletter',
  'subscribe',
  'subscription',
  'signup',
  'advert',
  'advertisement',
  'ad',
  'ads',
  'adsense',
  'sponsor',
  'sponsored',
  'promo',
  'promotion',
  'banner',
  'popup',
  'modal',
  'overlay',
  'masthead',
  'navbar',
  'nav',
  'navigation',
  'footer',
  'toolbar',
  'pagination',
  'pager',
  'outbrain',
  'taboola',
  'disqus',
  'recommended',
  'recommendations',
  'trending',
  'popular',
  'skip',
  'print',
  'tags',
  'tagcloud',
  'byline',
  'dateline',
  'toc',
  'rating',
  'reactions',
  'login',
  'paywall',
  'caption',
  'credit',
  'credits',
]);

/** Words of comment sections: such a section is furniture even when its comments are <article>s. */
const COMMENT_WORDS: ReadonlySet<string> = new Set(['comment', 'comments', 'disqus']);

/** Whether an element's class or id names a comment section (`comments`, `comment-list`). */
export function namesComments(element: Element): boolean {
  return nameParts(element).some((part) => COMMENT_WORDS.has(part));
}

/** Words that mark content: an element carrying one is kept even when it carries a furniture word. */
export const CONTENT_WORDS: ReadonlySet<string> = new Set([
  'article',
  'content',
  'main',
  'body',
  'entry',
  'story',
  'post',
  'text',
  'message',
  'blog',
]);

const NAME_PARTS = /[\s_\-:.]+|(?<=[a-z])(?=[A-Z])/;

/** The lower-cased parts of an element's class and id. */
export function nameParts(element: Element): string[] {
  const names = `${element.attrs.class ?? ''} ${element.attrs.id ?? ''}`;
  if (names.trim() === '') return [];
  return names
    .split(NAME_PARTS)
    .filter((part) => part !== '')
    .map((part) => part.toLowerCase());
}

/** Whether an element is hidden by its own attributes. */
function isHidden(element: Element): boolean {
  const { attrs } = element;
  if (attrs.hidden !== undefined || attrs['aria-hidden'] === 'true') return true;
  const style = attrs.style;
  return style !== undefined && /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style);
}

/** Whether an element sits in a <figure> (a credit there is a caption's part, not the text's). */
function inFigure(element: Element): boolean {
  let ancestor = element.parent;
  for (let level = 0; ancestor !== null && level < 4; level++, ancestor = ancestor.parent) {
    if (ancestor.tag === 'figure') return true;
  }
  return false;
}

/** Whether an element is furniture by its tag, role or hidden state (always dropped). */
export function isBoilerplateByKind(element: Element): boolean {
  if (BOILERPLATE_TAGS.has(element.tag) || isHidden(element)) return true;
  if (element.tag === 'cite' && inFigure(element)) return true;
  const role = element.attrs.role;
  return role !== undefined && BOILERPLATE_ROLES.has(role.trim().toLowerCase());
}

/** Whether an element's class or id marks it as furniture, and nothing there marks it as content. */
export function isBoilerplateByName(element: Element): boolean {
  const parts = nameParts(element);
  if (parts.length === 0) return false;
  let furniture = false;
  for (const part of parts) {
    if (CONTENT_WORDS.has(part)) return false;
    if (BOILERPLATE_WORDS.has(part)) furniture = true;
  }
  return furniture;
}

/** Words of class and id attributes around captions and page furniture kept in the content flow. */
const MINOR_WORDS: ReadonlySet<string> = new Set([
  'caption',
  'credit',
  'image',
  'img',
  'photo',
  'figure',
  'gallery',
  'meta',
  'info',
  'author',
  'bio',
  'teaser',
  'card',
  'list',
  'listing',
  'feed',
]);

/** A candidate's weight from its class and id: more for content words, less for minor ones. */
export function nameWeight(element: Element): number {
  let weight = 1;
  const parts = nameParts(element);
  if (parts.some((part) => CONTENT_WORDS.has(part))) weight *= 1.3;
  if (parts.some((part) => MINOR_WORDS.has(part) || BOILERPLATE_WORDS.has(part))) weight *= 0.7;
  return weight;
}
