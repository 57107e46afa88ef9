import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_CONFIG } from '@lectern/shared';
import {
  cleanRelated,
  configOf,
  formOf,
  hasWebSearchKey,
  mindMapTree,
  panelsOf,
  shareLink,
} from './search-state';

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
      web_search: false,
      tavily_api_key: '',
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

  it('round-trips web search and the masked Tavily key through the settings form', () => {
    // The server shows the stored key masked (first 4 … last 4); the form holds it as shown.
    const masked = 'tvly…9XyZ';
    const app = {
      name: 'Web',
      description: 'with the web',
      search_config: { ...DEFAULT_SEARCH_CONFIG, web_search: true, tavily_api_key: masked },
    };
    const form = formOf(app);
    expect(form).toMatchObject({ web_search: true, tavily_api_key: masked });
    expect(hasWebSearchKey(form.tavily_api_key)).toBe(true);
    // Saved untouched: the mask goes back as shown (the server then keeps the stored key).
    expect(configOf(form)).toMatchObject({ web_search: true, tavily_api_key: masked });
    // A new key replaces it, trimmed.
    expect(configOf({ ...form, tavily_api_key: '  tvly-new-key-123  ' })).toMatchObject({
      web_search: true,
      tavily_api_key: 'tvly-new-key-123',
    });
    // Clearing the key removes it and turns web search off, whatever the (disabled) switch still holds.
    expect(configOf({ ...form, tavily_api_key: '   ' })).toMatchObject({
      web_search: false,
      tavily_api_key: '',
    });
    expect(hasWebSearchKey('   ')).toBe(false);
    // Switched off with a key: the key stays, web search is off.
    expect(configOf({ ...form, web_search: false })).toMatchObject({
      web_search: false,
      tavily_api_key: masked,
    });
    // An app that never had a key: the form starts empty, off.
    const plain = formOf({ name: 'Plain', description: null, search_config: DEFAULT_SEARCH_CONFIG });
    expect(plain).toMatchObject({ web_search: false, tavily_api_key: '' });
    expect(hasWebSearchKey(plain.tavily_api_key)).toBe(false);
    // And the round trip of everything: form → config → form is stable.
    const again = formOf({ ...app, search_config: { ...app.search_config, ...configOf(form) } });
    expect(again).toEqual(form);
  });

  it('builds the share link with the app id and the beta token', () => {
    expect(shareLink('https://lectern.example', 'abc', 'b/e+ta')).toBe(
      'https://lectern.example/search/share?shared_id=abc&auth=b%2Fe%2Bta',
    );
  });
});
