import { describe, expect, it } from 'vitest';
import { chunkDocument, inferTables, tableFieldMap } from './index.js';
import { columnType, parseHeader } from './table.js';
import { contents, ctx, doc, row, text } from './test-fixtures.js';

describe('table', () => {
  const headers = ['Name/Full name', 'Age', 'Salary', 'Joined', 'Active', 'Color(red, green, blue)', 'Code'];
  const sheet = () =>
    doc([
      row('Staff', headers, ['Ann Lee', 34, 1234.5, new Date(Date.UTC(2020, 0, 15)), 'yes', 'red', '007']),
      row('Staff', headers, ['Bob', '41', '2000', '2021-03-01', 'no', 'green, blue', '008']),
    ]);

  it('makes one chunk per row with "header: value" lines and typed <column>_<type> fields', () => {
    expect(chunkDocument('table', sheet(), ctx({}, 'staff.xlsx'))).toEqual([
      {
        content_with_weight:
          'Name/Full name: Ann Lee\nAge: 34\nSalary: 1234.5\nJoined: 2020-01-15\nActive: yes\nColor(red, green, blue): red\nCode: 007',
        positions: [],
        fields: {
          name_tks: 'Ann Lee',
          age_long: 34,
          salary_flt: 1234.5,
          joined_dt: '2020-01-15 00:00:00',
          active_kwd: 'yes',
          color_kwd: ['red'],
          code_tks: '007',
        },
      },
      {
        content_with_weight:
          'Name/Full name: Bob\nAge: 41\nSalary: 2000\nJoined: 2021-03-01\nActive: no\nColor(red, green, blue): green, blue\nCode: 008',
        positions: [],
        fields: {
          name_tks: 'Bob',
          age_long: 41,
          salary_flt: 2000,
          joined_dt: '2021-03-01 00:00:00',
          active_kwd: 'no',
          color_kwd: ['green', 'blue'],
          code_tks: '008',
        },
      },
    ]);
  });

  it('exposes the column schema and the KB field map', () => {
    expect(tableFieldMap(sheet(), ctx({}, 'staff.xlsx'))).toEqual({
      name_tks: 'Name/Full name',
      age_long: 'Age',
      salary_flt: 'Salary',
      joined_dt: 'Joined',
      active_kwd: 'Active',
      color_kwd: 'Color(red, green, blue)',
      code_tks: 'Code',
    });
    const [t] = inferTables(sheet(), ctx({}, 'staff.xlsx'));
    expect(t.sheet).toBe('Staff');
    expect(t.columns[0]).toEqual({
      header: 'Name/Full name',
      key: 'name_tks',
      type: 'text',
      names: ['Name', 'Full name'],
      enumeration: [],
    });
    expect(parseHeader('学历（本科，硕士）')).toEqual({ names: ['学历'], enumeration: ['本科', '硕士'] });
    expect(columnType(['1', '2', '3.5'])).toBe('float');
    expect(columnType(['a', '1', 'b'])).toBe('text');
  });

  it('reads tab-separated text with the first line as headers, and omits cells that do not fit the column type', () => {
    const d = doc([
      text('city\tpopulation\tarea\nParis\t2100000\t105.4\nLyon\tunknown\t47.9\nNice\t340000\t71.9'),
    ]);
    const chunks = chunkDocument('table', d, ctx({}, 'cities.txt'));
    expect(contents(chunks)).toEqual([
      'city: Paris\npopulation: 2100000\narea: 105.4',
      'city: Lyon\npopulation: unknown\narea: 47.9',
      'city: Nice\npopulation: 340000\narea: 71.9',
    ]);
    expect(chunks.map((c) => c.fields)).toEqual([
      { city_tks: 'Paris', population_long: 2100000, area_flt: 105.4 },
      { city_tks: 'Lyon', area_flt: 47.9 },
      { city_tks: 'Nice', population_long: 340000, area_flt: 71.9 },
    ]);
  });
});

describe('tag', () => {
  it('makes one chunk per "content<TAB>tags" row with tag_kwd', () => {
    const d = doc([
      text(
        'Apple releases a new phone\ttech, mobile\nStock market falls\tfinance\nshares dropped 3%\nOrphan line without tags\t',
      ),
    ]);
    expect(chunkDocument('tag', d, ctx({}, 'tags.txt'))).toEqual([
      { content_with_weight: 'Apple releases a new phone', positions: [], tag_kwd: ['tech', 'mobile'] },
      { content_with_weight: 'Stock market falls\nshares dropped 3%', positions: [], tag_kwd: ['finance'] },
    ]);
  });

  it('reads spreadsheet rows and CSV (column 1 content, column 2 comma-separated tags)', () => {
    const rows = doc([row('', ['content', 'tags'], ['Rain expected', 'weather,forecast,weather'])]);
    expect(chunkDocument('tag', rows, ctx({}, 'tags.xlsx'))).toEqual([
      { content_with_weight: 'Rain expected', positions: [], tag_kwd: ['weather', 'forecast'] },
    ]);
    const csv = doc([text('Goal in the last minute,"sport,football"\nNew vaccine approved,health')]);
    expect(
      chunkDocument('tag', csv, ctx({}, 'tags.csv')).map((c) => [c.content_with_weight, c.tag_kwd]),
    ).toEqual([
      ['Goal in the last minute', ['sport', 'football']],
      ['New vaccine approved', ['health']],
    ]);
  });
});
