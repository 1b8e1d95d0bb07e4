import { describe, expect, it } from 'vitest';
import { isHtmlContentType } from '../../src/extract/content-type.js';

describe('isHtmlContentType', () => {
  it('accepts text/html and application/xhtml+xml', () => {
    expect(isHtmlContentType('text/html')).toBe(true);
    expect(isHtmlContentType('application/xhtml+xml')).toBe(true);
  });

  it('ignores parameters, case and whitespace', () => {
    expect(isHtmlContentType('text/html; charset=utf-8')).toBe(true);
    expect(isHtmlContentType('  TEXT/HTML ;charset=ISO-8859-1')).toBe(true);
    expect(isHtmlContentType('Application/XHTML+XML;q=1')).toBe(true);
  });

  it('rejects other types, a missing header and near misses', () => {
    expect(isHtmlContentType(undefined)).toBe(false);
    expect(isHtmlContentType('')).toBe(false);
    expect(isHtmlContentType('text/plain')).toBe(false);
    expect(isHtmlContentType('application/json; charset=utf-8')).toBe(false);
    expect(isHtmlContentType('application/xml')).toBe(false);
    expect(isHtmlContentType('text/htmlx')).toBe(false);
    expect(isHtmlContentType('text/html-sandboxed')).toBe(false);
  });
});
