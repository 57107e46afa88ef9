import { describe, expect, it } from 'vitest';
import type { KbDetail } from '@lectern/shared';
import { nextKbPage } from '../../api/kb';
import { fitWithin } from '../../lib/avatar';
import { maxChunkTokens, methodUses, toFormValues, toUpdateBody } from './config-form';
import { methodsFor } from './dataset/ChangeParserDialog';
import { primaryAction } from './dataset/RowActions';
import { metaProblem, metaText } from './meta';

describe('metadata editor (valid JSON object only)', () => {
  it('accepts a flat object of strings, numbers and lists', () => {
    expect(metaProblem('{"author": "Ada", "year": 1843, "tags": ["a", 1]}')).toBeNull();
    expect(metaProblem('{}')).toBeNull();
  });

  it('explains what is wrong', () => {
    expect(metaProblem('{"a": ')?.kind).toBe('syntax');
    expect(metaProblem('[1, 2]')).toEqual({ kind: 'notObject' });
    expect(metaProblem('"text"')).toEqual({ kind: 'notObject' });
    expect(metaProblem('null')).toEqual({ kind: 'notObject' });
    expect(metaProblem('{"nested": {"x": 1}}')).toEqual({ kind: 'badValue', key: 'nested' });
    expect(metaProblem('{"flag": true}')).toEqual({ kind: 'badValue', key: 'flag' });
  });

  it('starts from the stored metadata', () => {
    expect(JSON.parse(metaText({ a: 1 }))).toEqual({ a: 1 });
    expect(metaText(null)).toBe('{}');
  });
});

const kb: KbDetail = {
  id: 'k1',
  embd_id: 'bge@Builtin',
  avatar: null,
  name: 'Manuals',
  language: 'English',
  description: null,
  permission: 'me',
  doc_num: 0,
  token_num: 0,
  chunk_num: 0,
  parser_id: 'naive',
  pipeline_id: null,
  pipeline_name: null,
  pipeline_avatar: null,
  parser_config: {
    chunk_token_num: 256,
    llm_id: 'chat@X',
    pages: [[1, 5]],
    raptor: { use_raptor: true, prompt: 'p' },
  },
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

describe('configuration form', () => {
  it('fills missing settings with the method defaults and keeps stored values', () => {
    const values = toFormValues(kb);
    expect(values.parser_config.chunk_token_num).toBe(256);
    expect(values.parser_config.delimiter).toBe('\n');
    expect(values.parser_config.task_page_size).toBe(12);
    expect(values.parser_config.pages).toEqual([{ from: 1, to: 5 }]);
    expect(values.parser_config.raptor).toMatchObject({
      use_raptor: true,
      prompt: 'p',
      max_token: 256,
      max_cluster: 64,
    });
  });

  it('sends only allowed fields, keeps hidden config keys and drops empty page lists', () => {
    const values = toFormValues(kb);
    values.name = '  Handbooks ';
    values.parser_config.pages = [];
    const body = toUpdateBody(kb, values);
    expect(Object.keys(body).sort()).toEqual(
      [
        'avatar',
        'description',
        'kb_id',
        'language',
        'name',
        'pagerank',
        'parser_config',
        'parser_id',
        'permission',
      ].sort(),
    );
    expect(body.name).toBe('Handbooks');
    expect(body.parser_config?.llm_id).toBe('chat@X');
    expect(body.parser_config && 'pages' in body.parser_config).toBe(false);
    // The embedding model travels only when it changes.
    expect(toUpdateBody(kb, { ...values, embd_id: 'other@X' }).embd_id).toBe('other@X');
  });

  it('shows each method its own settings', () => {
    expect(methodUses('naive', 'chunkTokenNum')).toBe(true);
    expect(methodUses('qa', 'chunkTokenNum')).toBe(false);
    expect(methodUses('knowledge_graph', 'entityTypes')).toBe(true);
    expect(methodUses('tag', 'raptor')).toBe(false);
    expect(maxChunkTokens('naive')).toBe(2048);
    expect(maxChunkTokens('knowledge_graph')).toBe(8192);
  });

  it('offers images only Picture and slides only Presentation', () => {
    expect(methodsFor({ type: 'visual', suffix: 'png', parser_id: 'picture' })).toEqual(['picture']);
    expect(methodsFor({ type: 'doc', suffix: 'pptx', parser_id: 'presentation' })).toEqual(['presentation']);
    const pdf = methodsFor({ type: 'pdf', suffix: 'pdf', parser_id: 'naive' });
    expect(pdf).toContain('laws');
    expect(pdf).not.toContain('picture');
    expect(methodsFor({ type: 'doc', suffix: 'eml', parser_id: 'email' })).toContain('email');
  });
});

describe('small helpers', () => {
  it('chooses run, cancel or re-parse by status', () => {
    expect(primaryAction({ run: '0' })).toBe('run');
    expect(primaryAction({ run: '1' })).toBe('cancel');
    expect(primaryAction({ run: '3' })).toBe('reparse');
    expect(primaryAction({ run: '4' })).toBe('reparse');
    expect(primaryAction({ run: '2' })).toBe('reparse');
  });

  it('pages the knowledge-base list until every row is loaded', () => {
    const page = (n: number, total: number) => ({
      kbs: Array.from({ length: n }, () => ({}) as never),
      total,
    });
    expect(nextKbPage([page(30, 65)])).toBe(2);
    expect(nextKbPage([page(30, 65), page(30, 65)])).toBe(3);
    expect(nextKbPage([page(30, 65), page(30, 65), page(5, 65)])).toBeUndefined();
    expect(nextKbPage([page(0, 0)])).toBeUndefined();
    // A shrinking list never loops on an empty page.
    expect(nextKbPage([page(30, 65), page(0, 40)])).toBeUndefined();
  });

  it('fits avatars within 100 px without enlarging them', () => {
    expect(fitWithin(400, 200)).toEqual({ width: 100, height: 50 });
    expect(fitWithin(50, 80)).toEqual({ width: 50, height: 80 });
    expect(fitWithin(150, 300)).toEqual({ width: 50, height: 100 });
  });
});
