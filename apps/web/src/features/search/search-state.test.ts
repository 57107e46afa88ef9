import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_CONFIG } from '@lectern/shared';
import { cleanRelated, configOf, formOf, mindMapTree, panelsOf, shareLink } from './search-state';

describe('search page helpers', () => {
  it('turns the mind map into a tree with unique keys, even for repeated labels', () => {
    const tree = mindMapTree({
      id: 'Energy',
      children: [
        { id: 'Solar', children: [{ id: 'Panels' }, { id: 'Panels' }] },
        { id: 'Wind', children: [] },
      ],
    });
    expect(tree).toEqual([
      {
        key: '0',
        title: 'Energy',
        children: [
          {
            key: '0-0',
            title: 'Solar',
            children: [
              { key: '0-0-0', title: 'Panels' },
              { key: '0-0-1', title: 'Panels' },
            ],
          },
          { key: '0-1', title: 'Wind' },
        ],
      },
    ]);
    expect(mindMapTree(null)).toEqual([]);
    expect(mindMapTree({} as never)).toEqual([]);
  });

  it('cleans related questions', () => {
    expect(
      cleanRelated(
        [' How do panels work? ', '', 'how do panels work?', 'What is solar?', 42],
        'What is solar?',
      ),
    ).toEqual(['How do panels work?']);
    expect(cleanRelated(null, 'q')).toEqual([]);
  });

  it('shows the panels the app turns on', () => {
    expect(panelsOf(undefined)).toEqual({ summary: false, related: false, mindMap: false, empty: true });
    expect(panelsOf({ summary: true, related_search: false, query_mindmap: true, kb_ids: ['kb'] })).toEqual({
      summary: true,
      related: false,
      mindMap: true,
      empty: false,
    });
  });

  it('maps the config to the settings form and back (keyword weight = 1 − vector weight)', () => {
    const search_config = {
      ...DEFAULT_SEARCH_CONFIG,
      kb_ids: ['kb'],
      vector_similarity_weight: 0.7,
      summary: true,
    };
    const form = formOf({ name: 'Docs', description: null, search_config });
    expect(form).toMatchObject({
      name: 'Docs',
      description: '',
      kb_ids: ['kb'],
      keyword_weight: 0.3,
      summary: true,
    });
    expect(configOf(form)).toEqual({
      kb_ids: ['kb'],
      chat_id: '',
      similarity_threshold: 0.2,
      vector_similarity_weight: 0.7,
      top_k: 1024,
      rerank_id: '',
      summary: true,
      related_search: false,
      query_mindmap: false,
      keyword: false,
      use_kg: false,
      highlight: false,
      meta_data_filter: {},
    });
    // The metadata filter goes through the builder's draft and back unchanged.
    const manual = {
      method: 'manual' as const,
      logic: 'or' as const,
      manual: [{ key: 'year', op: '≥' as const, value: '2020' }],
    };
    const filtered = formOf({
      name: 'Docs',
      description: null,
      search_config: { ...search_config, meta_data_filter: manual },
    });
    expect(configOf(filtered).meta_data_filter).toEqual(manual);
    // A cleared select sends "" rather than undefined.
    expect(configOf({ ...form, chat_id: undefined as never, rerank_id: undefined as never })).toMatchObject({
      chat_id: '',
      rerank_id: '',
    });
  });

  it('builds the share link with the app id and the beta token', () => {
    expect(shareLink('https://lectern.example', 'abc', 'b/e+ta')).toBe(
      'https://lectern.example/search/share?shared_id=abc&auth=b%2Fe%2Bta',
    );
  });
});
