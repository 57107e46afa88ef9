/** One type per column name across a KB's documents: the widening rule, merged maps, row cells. */
import { describe, expect, it } from 'vitest';
import { cellFor, sourceKeysOf, splitFieldKey, widenFieldMap, widerSuffix } from './field-types.js';

describe('widerSuffix', () => {
  it('widens integer to float, numbers with date-times to text, and keeps the same type', () => {
    expect(widerSuffix('_long', '_flt')).toBe('_flt');
    expect(widerSuffix('_flt', '_long')).toBe('_flt');
    expect(widerSuffix('_int', '_long')).toBe('_long');
    expect(widerSuffix('_long', '_dt')).toBe('_tks');
    expect(widerSuffix('_dt', '_flt')).toBe('_tks');
    expect(widerSuffix('_dt', '_dt')).toBe('_dt');
  });

  it('keywords absorb numbers and date-times; text absorbs everything', () => {
    expect(widerSuffix('_long', '_kwd')).toBe('_kwd');
    expect(widerSuffix('_kwd', '_dt')).toBe('_kwd');
    expect(widerSuffix('_kwd', '_tks')).toBe('_tks');
    for (const s of ['_long', '_flt', '_dt', '_kwd'] as const) {
      expect(widerSuffix(s, '_tks')).toBe('_tks');
      expect(widerSuffix('_tks', s)).toBe('_tks');
    }
  });
});

describe('widenFieldMap', () => {
  it('gives one key per column name, of the widest type, in first-seen order', () => {
    const sheetA = { name_tks: 'Name', price_long: 'Price', released_dt: 'Released', stock_long: 'Stock' };
    const sheetB = { name_tks: 'Name', price_flt: 'Price', released_long: 'Released', color_kwd: 'Color' };
    const wide = widenFieldMap(sheetA, sheetB);
    expect(wide).toEqual({
      name_tks: 'Name',
      price_flt: 'Price',
      released_tks: 'Released',
      stock_long: 'Stock',
      color_kwd: 'Color',
    });
    expect(Object.keys(wide)).toEqual(['name_tks', 'price_flt', 'released_tks', 'stock_long', 'color_kwd']);
  });

  it('is stable over an already widened map, lets the later header win, keeps unknown keys', () => {
    const stored = { price_flt: 'Price', legacy: 'Legacy' };
    expect(widenFieldMap(stored, { price_long: 'Price/Cost' })).toEqual({
      price_flt: 'Price/Cost',
      legacy: 'Legacy',
    });
    // Numbered duplicates of one sheet (`price_2_long`) are a different column name.
    expect(widenFieldMap({ price_long: 'Price', price_2_flt: 'Price' })).toEqual({
      price_long: 'Price',
      price_2_flt: 'Price',
    });
  });
});

describe('row cells of a wide column', () => {
  it('reads the key itself first, then the same name under its other types', () => {
    expect(sourceKeysOf('price_flt')).toEqual([
      'price_flt',
      'price_long',
      'price_int',
      'price_dt',
      'price_kwd',
      'price_tks',
    ]);
    expect(sourceKeysOf('legacy')).toEqual(['legacy']);
    expect(splitFieldKey('_long')).toBeNull();
  });

  it('converts values to the column type', () => {
    expect(cellFor('price_flt', 99)).toBe(99);
    expect(cellFor('released_tks', 12)).toBe('12');
    expect(cellFor('released_tks', 12.5)).toBe('12.5');
    expect(cellFor('released_tks', '2024-01-05 00:00:00')).toBe('2024-01-05 00:00:00');
    expect(cellFor('color_kwd', ['red', 'blue'])).toBe('red, blue');
    expect(cellFor('color_kwd', 3)).toBe('3');
    expect(cellFor('price_flt', '1,250.5')).toBe(1250.5);
    expect(cellFor('price_flt', 'n/a')).toBeNull();
    expect(cellFor('price_flt', Number.NaN)).toBeNull();
    expect(cellFor('price_flt', undefined)).toBeNull();
  });
});
