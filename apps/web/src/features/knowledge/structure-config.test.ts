import { describe, expect, it } from 'vitest';
import type { KbDetail, ParserConfig } from '@lectern/shared';
import { methodUses, toFormValues, toUpdateBody } from './config-form';
import {
  childDelimiterProblem,
  fieldMapRows,
  metaListProblem,
  metaRowProblem,
  metaSettingRows,
  toMetaSetting,
} from './structure-config';

function kbWith(parserId: KbDetail['parser_id'], parserConfig: Record<string, unknown>): KbDetail {
  return {
    id: 'k1',
    embd_id: 'bge@Builtin',
    avatar: null,
    name: 'Sheets',
    language: 'English',
    description: null,
    permission: 'me',
    doc_num: 0,
    token_num: 0,
    chunk_num: 0,
    parser_id: parserId,
    pipeline_id: null,
    pipeline_name: null,
    pipeline_avatar: null,
    // Keys the shared type does not list (toc_extraction, metadata, field_map) travel as stored.
    parser_config: parserConfig as ParserConfig,
    pagerank: 0,
    graphrag_task_id: null,
    graphrag_task_finish_at: null,
    raptor_task_id: null,
    raptor_task_finish_at: null,
    mindmap_task_id: null,
    mindmap_task_finish_at: null,
    create_time: 0,
    update_time: 0,
    size: 0,
    connectors: [],
  };
}

describe('metadata settings in the form', () => {
  it('reads the three stored shapes the server accepts as rows', () => {
    expect(
      metaSettingRows({
        type: 'object',
        properties: {
          author: { type: 'string', description: 'Who wrote it' },
          year: { type: 'integer' },
          topics: { type: 'array', items: { type: 'string', enum: ['ai', 'db'] } },
        },
      }),
    ).toEqual([
      { key: 'author', description: 'Who wrote it', type: 'string', enum: [] },
      { key: 'year', description: '', type: 'number', enum: [] },
      { key: 'topics', description: '', type: 'list', enum: ['ai', 'db'] },
    ]);
    expect(metaSettingRows([{ key: 'kind', description: 'Kind', enum: ['memo', 'report'] }])).toEqual([
      { key: 'kind', description: 'Kind', type: 'string', enum: ['memo', 'report'] },
    ]);
    expect(metaSettingRows({ author: 'Who wrote it' })).toEqual([
      { key: 'author', description: 'Who wrote it', type: 'string', enum: [] },
    ]);
    expect(metaSettingRows(undefined)).toEqual([]);
    expect(metaSettingRows([{ description: 'no key' }, 'x', { key: 'a' }, { key: 'a' }])).toEqual([
      { key: 'a', description: '', type: 'string', enum: [] },
    ]);
  });

  it('stores rows as the list form, trimmed, without empty or repeated options', () => {
    expect(
      toMetaSetting([
        { key: ' author ', description: ' Who ', type: 'string', enum: [] },
        { key: 'kind', description: '', type: 'list', enum: ['memo', ' memo', '', 'report'] },
      ]),
    ).toEqual([
      { key: 'author', description: 'Who', type: 'string' },
      { key: 'kind', description: '', type: 'list', enum: ['memo', 'report'] },
    ]);
  });

  it('asks for a unique key per field and at least one field while extraction is on', () => {
    const rows = [{ key: 'a' }, { key: ' ' }, { key: 'a ' }];
    expect(metaRowProblem(rows, 0)).toBeNull();
    expect(metaRowProblem(rows, 1)).toBe('keyRequired');
    expect(metaRowProblem(rows, 2)).toBe('keyDuplicate');
    expect(metaListProblem(true, [])).toBe('noFields');
    expect(metaListProblem(true, undefined)).toBe('noFields');
    expect(metaListProblem(false, [])).toBeNull();
    expect(metaListProblem(true, [{ key: 'a' }])).toBeNull();
  });
});

describe('child chunk delimiter', () => {
  it('accepts characters and closed back-quoted tokens, refuses open or empty backticks', () => {
    expect(childDelimiterProblem('')).toBeNull();
    expect(childDelimiterProblem(undefined)).toBeNull();
    expect(childDelimiterProblem('\n。')).toBeNull();
    expect(childDelimiterProblem('`##`;`--`')).toBeNull();
    expect(childDelimiterProblem('`##')).toBe('unclosedBacktick');
    expect(childDelimiterProblem('a``b')).toBe('emptyToken');
  });
});

describe('table field map', () => {
  it('lists columns with the type their field suffix names', () => {
    expect(
      fieldMapRows({
        name_tks: 'Name/Full name',
        age_long: 'Age',
        count_int: 'Count',
        salary_flt: 'Salary',
        joined_dt: 'Joined',
        color_kwd: 'Color(red, green)',
        odd: '',
      }),
    ).toEqual([
      { key: 'name_tks', header: 'Name/Full name', kind: 'text' },
      { key: 'age_long', header: 'Age', kind: 'integer' },
      { key: 'count_int', header: 'Count', kind: 'integer' },
      { key: 'salary_flt', header: 'Salary', kind: 'float' },
      { key: 'joined_dt', header: 'Joined', kind: 'datetime' },
      { key: 'color_kwd', header: 'Color(red, green)', kind: 'keyword' },
      { key: 'odd', header: 'odd', kind: 'text' },
    ]);
    expect(fieldMapRows(undefined)).toEqual([]);
    expect(fieldMapRows(['x'])).toEqual([]);
  });
});

describe('structure settings round trip (kb/update body)', () => {
  it('shows each setting to the methods that read it', () => {
    expect(methodUses('naive', 'childrenDelimiter')).toBe(true);
    expect(methodUses('naive', 'tocExtraction')).toBe(true);
    expect(methodUses('naive', 'metadata')).toBe(true);
    expect(methodUses('naive', 'fieldMap')).toBe(false);
    expect(methodUses('table', 'fieldMap')).toBe(true);
    expect(methodUses('table', 'childrenDelimiter')).toBe(false);
    expect(methodUses('table', 'metadata')).toBe(true);
    expect(methodUses('qa', 'metadata')).toBe(true);
    expect(methodUses('tag', 'metadata')).toBe(false);
    expect(methodUses('knowledge_graph', 'tocExtraction')).toBe(false);
  });

  it('starts a KB without these keys switched off and sends nothing it did not have', () => {
    const kb = kbWith('naive', { chunk_token_num: 128 });
    const values = toFormValues(kb);
    expect(values.parser_config).toMatchObject({
      children_delimiter: '',
      toc_extraction: false,
      enable_metadata: false,
      metadata: [],
    });
    const config = toUpdateBody(kb, values).parser_config as Record<string, unknown>;
    expect('children_delimiter' in config).toBe(false);
    expect('metadata' in config).toBe(false);
    expect('field_map' in config).toBe(false);
    expect(config).toMatchObject({ chunk_token_num: 128, toc_extraction: false, enable_metadata: false });
  });

  it('round-trips stored values and the edits made in the form', () => {
    const kb = kbWith('naive', {
      children_delimiter: '`##`',
      toc_extraction: true,
      enable_metadata: true,
      metadata: { type: 'object', properties: { author: { type: 'string', description: 'Who' } } },
      llm_id: 'chat@X',
    });
    const values = toFormValues(kb);
    expect(values.parser_config.children_delimiter).toBe('`##`');
    expect(values.parser_config.toc_extraction).toBe(true);
    expect(values.parser_config.enable_metadata).toBe(true);
    expect(values.parser_config.metadata).toEqual([
      { key: 'author', description: 'Who', type: 'string', enum: [] },
    ]);

    // Unchanged: the same settings go back (the metadata in its list form).
    const same = toUpdateBody(kb, values).parser_config as Record<string, unknown>;
    expect(same).toMatchObject({
      children_delimiter: '`##`',
      toc_extraction: true,
      enable_metadata: true,
      metadata: [{ key: 'author', description: 'Who', type: 'string' }],
      llm_id: 'chat@X',
    });

    // Edited: delimiter cleared (= no child chunks), TOC off, one field added.
    values.parser_config.children_delimiter = '';
    values.parser_config.toc_extraction = false;
    values.parser_config.metadata = [
      ...values.parser_config.metadata,
      { key: 'year', description: 'Year written', type: 'number', enum: [] },
    ];
    const edited = toUpdateBody(kb, values).parser_config as Record<string, unknown>;
    expect('children_delimiter' in edited).toBe(false);
    expect(edited.toc_extraction).toBe(false);
    expect(edited.metadata).toEqual([
      { key: 'author', description: 'Who', type: 'string' },
      { key: 'year', description: 'Year written', type: 'number' },
    ]);

    // Reloaded from what was saved, the form shows the same values.
    const reloaded = toFormValues(kbWith('naive', edited));
    expect(reloaded.parser_config.children_delimiter).toBe('');
    expect(reloaded.parser_config.toc_extraction).toBe(false);
    expect(reloaded.parser_config.metadata).toEqual(values.parser_config.metadata);
  });

  it('keeps the field map as parsing stored it, whatever the form holds', () => {
    const fieldMap = { age_long: 'Age', name_tks: 'Name' };
    const kb = kbWith('table', { field_map: fieldMap });
    const values = toFormValues(kb);
    (values.parser_config as unknown as Record<string, unknown>).field_map = { age_tks: 'Age' };
    expect((toUpdateBody(kb, values).parser_config as Record<string, unknown>).field_map).toEqual(fieldMap);
  });
});
