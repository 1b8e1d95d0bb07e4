import { PolitelyError } from '@politely/core';
import { describe, expect, it } from 'vitest';
import {
  columnsOf,
  csvField,
  csvHeader,
  csvRecordRow,
  parseCsvRecord,
  recordJson,
} from '../../src/dataset/record-text.js';

describe('records as text', () => {
  it('a JSON line is JSON.stringify of a plain object; anything else is ERR_INVALID_INPUT', () => {
    expect(recordJson({ a: 1, b: 'x\ny', c: [1, { d: null }] })).toBe('{"a":1,"b":"x\\ny","c":[1,{"d":null}]}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [null, 'text', 3, [{ a: 1 }], cyclic, { big: 1n }]) {
      let thrown: unknown;
      try {
        recordJson(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(bad)).toBeInstanceOf(PolitelyError);
      expect((thrown as PolitelyError).code).toBe('ERR_INVALID_INPUT');
    }
  });

  it('CSV fields are quoted as RFC 4180 says: commas, quotes, line breaks, edge spaces; quotes doubled', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('lf\nonly')).toBe('"lf\nonly"');
    expect(csvField(' padded ')).toBe('" padded "');
    expect(csvField('')).toBe('');
  });

  it('a CSV row follows the columns: absent and null empty, nested values as JSON text, a Date as its ISO text', () => {
    const columns = columnsOf({ name: 'x', price: 1, tags: [], seen: null });
    expect(columns).toEqual(['name', 'price', 'tags', 'seen']);
    expect(csvHeader(columns)).toBe('name,price,tags,seen\r\n');
    const row = csvRecordRow(
      { price: 9.5, name: 'Mug, "large"', tags: ['a', 'b,c'], extra: 'dropped', seen: new Date(Date.UTC(2026, 0, 2)) },
      columns,
    );
    expect(row).toBe('"Mug, ""large""",9.5,"[""a"",""b,c""]",2026-01-02T00:00:00.000Z\r\n');
    expect(csvRecordRow({ name: null, price: Number.NaN, tags: { k: true } }, columns)).toBe(',,"{""k"":true}",\r\n');
    // What is written reads back the same (the parser resume uses).
    expect(parseCsvRecord(row.slice(0, -2))).toEqual([
      'Mug, "large"',
      '9.5',
      '["a","b,c"]',
      '2026-01-02T00:00:00.000Z',
    ]);
  });
});
