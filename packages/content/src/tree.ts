// One pass of htmlparser2's tokenizer over the page builds a light tree of the elements that can
// hold content, and collects on the way what the metadata needs (title, meta and link tags,
// <base href>, <html lang>, JSON-LD). Scripts, styles and embedded documents never enter the tree.

import { Parser } from 'htmlparser2';

/** An element of the light tree. Text is kept in `Text` children, adjacent text merged. */
export interface Element {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: Node[];
  readonly parent: Element | null;
}

/** A run of text, entities decoded. */
export interface Text {
  readonly tag: '#text';
  text: string;
  readonly parent: Element;
}

export type Node = Element | Text;

/** What the tree pass collects for the metadata. */
export interface HeadFacts {
  title: string | null;
  readonly metas: Readonly<Record<string, string>>[];
  readonly links: Readonly<Record<string, string>>[];
  baseHref: string | null;
  htmlLang: string | null;
  readonly jsonLd: string[];
}

export interface ParsedPage {
  readonly root: Element;
  readonly head: HeadFacts;
}

/** Elements whose content is never page text (their subtree is skipped as it streams by). */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'canvas',
  'audio',
  'video',
  'select',
  'textarea',
  'button',
]);

/**
 * Elements nested deeper than this are flattened into their ancestor at this depth (their text
 * kept): every later walk is recursive, and pages written by strangers may nest without end.
 */
const MAX_TREE_DEPTH = 256;

export function isText(node: Node): node is Text {
  return node.tag === '#text';
}

/** Parses `html` into the light tree and the head facts. Never throws on malformed HTML. */
export function parsePage(html: string): ParsedPage {
  const root: Element = { tag: '#root', attrs: {}, children: [], parent: null };
  const head: HeadFacts = { title: null, metas: [], links: [], baseHref: null, htmlLang: null, jsonLd: [] };
  let current = root;
  let depth = 0;
  let flattened = 0;
  let skipDepth = 0;
  let capture: 'title' | 'jsonld' | null = null;
  let captured = '';

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (skipDepth > 0) {
          skipDepth++;
          return;
        }
        if (name === 'meta') head.metas.push(attrs);
        else if (name === 'link') head.links.push(attrs);
        else if (name === 'base' && head.baseHref === null && attrs.href !== undefined) head.baseHref = attrs.href;
        else if (name === 'html' && head.htmlLang === null && attrs.lang) head.htmlLang = attrs.lang;
        if (name === 'title' && head.title === null) {
          capture = 'title';
          captured = '';
        } else if (name === 'script' && (attrs.type ?? '').trim().toLowerCase() === 'application/ld+json') {
          capture = 'jsonld';
          captured = '';
        }
        if (SKIPPED.has(name) || name === 'title') {
          skipDepth = 1;
          return;
        }
        if (depth >= MAX_TREE_DEPTH) {
          flattened++;
          return;
        }
        depth++;
        const element: Element = { tag: name, attrs, children: [], parent: current };
        current.children.push(element);
        current = element;
      },
      ontext(data) {
        if (skipDepth > 0) {
          if (capture !== null) captured += data;
          return;
        }
        const last = current.children[current.children.length - 1];
        if (last !== undefined && isText(last)) last.text += data;
        else current.children.push({ tag: '#text', text: data, parent: current });
      },
      onclosetag() {
        if (skipDepth > 0) {
          skipDepth--;
          if (skipDepth === 0 && capture !== null) {
            if (capture === 'title') head.title = captured;
            else head.jsonLd.push(captured);
            capture = null;
          }
          return;
        }
        if (flattened > 0) flattened--;
        else if (current.parent !== null) {
          current = current.parent;
          depth--;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return { root, head };
}
