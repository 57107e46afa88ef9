import { describe, expect, it } from 'vitest';
import {
  defaultParserConfig,
  mergeParserConfig,
  RAPTOR_PROMPT,
  validateParserConfig,
} from './parser-config.js';

describe('defaultParserConfig (API.md §19.6)', () => {
  it('gives naive the full default set', () => {
    expect(defaultParserConfig('naive')).toEqual({
      layout_recognize: 'DeepDOC',
      chunk_token_num: 512,
      delimiter: '\n',
      auto_keywords: 0,
      auto_questions: 0,
      html4excel: false,
      topn_tags: 3,
      raptor: {
        use_raptor: true,
        prompt: RAPTOR_PROMPT,
        max_token: 256,
        threshold: 0.1,
        max_cluster: 64,
        random_seed: 0,
      },
      graphrag: {
        use_graphrag: true,
        entity_types: ['organization', 'person', 'geo', 'event', 'category'],
        method: 'light',
      },
      table_context_size: 0,
      image_context_size: 0,
    });
    expect(RAPTOR_PROMPT).toBe(
      'Please summarize the following paragraphs. Be careful with the numbers, do not make things up. Paragraphs as following:\n      {cluster_content}\nThe above is the content you need to summarize.',
    );
  });

  it('turns RAPTOR and graph off for qa, manual, paper, book, laws and presentation', () => {
    for (const m of ['qa', 'manual', 'paper', 'book', 'laws', 'presentation']) {
      expect(defaultParserConfig(m)).toEqual({
        raptor: { use_raptor: false },
        graphrag: { use_graphrag: false },
        table_context_size: 0,
        image_context_size: 0,
      });
    }
  });

  it('gives knowledge_graph 8192-token chunks and its entity types', () => {
    expect(defaultParserConfig('knowledge_graph')).toEqual({
      chunk_token_num: 8192,
      delimiter: '\n',
      entity_types: ['organization', 'person', 'location', 'event', 'time'],
      raptor: { use_raptor: false },
      graphrag: { use_graphrag: false },
      table_context_size: 0,
      image_context_size: 0,
    });
  });

  it('gives the remaining methods only the context sizes', () => {
    for (const m of ['tag', 'resume', 'table', 'one', 'email', 'picture', 'audio']) {
      expect(defaultParserConfig(m)).toEqual({ table_context_size: 0, image_context_size: 0 });
    }
  });

  it('returns a fresh object every time', () => {
    const a = defaultParserConfig('naive');
    (a.raptor as { max_token: number }).max_token = 1;
    expect((defaultParserConfig('naive').raptor as { max_token: number }).max_token).toBe(256);
  });
});

describe('mergeParserConfig', () => {
  it('deep-merges objects, replaces arrays and scalars, ignores undefined, and mutates nothing', () => {
    const defaults = defaultParserConfig('naive');
    const given = {
      chunk_token_num: 128,
      raptor: { use_raptor: false, max_token: 100 },
      graphrag: { entity_types: ['person'] },
      pages: [[1, 5]],
      delimiter: undefined,
    };
    const merged = mergeParserConfig(defaults, given);
    expect(merged.chunk_token_num).toBe(128);
    expect(merged.delimiter).toBe('\n');
    expect(merged.pages).toEqual([[1, 5]]);
    expect(merged.raptor).toEqual({
      use_raptor: false,
      prompt: RAPTOR_PROMPT,
      max_token: 100,
      threshold: 0.1,
      max_cluster: 64,
      random_seed: 0,
    });
    expect(merged.graphrag).toEqual({ use_graphrag: true, entity_types: ['person'], method: 'light' });
    expect(defaults.chunk_token_num).toBe(512);
    expect((defaults.raptor as { max_token: number }).max_token).toBe(256);
    (merged.pages as number[][])[0][0] = 9;
    expect(given.pages[0][0]).toBe(1);
    expect(mergeParserConfig(defaults, null)).toEqual(defaults);
  });
});

describe('validateParserConfig', () => {
  const valid = () => defaultParserConfig('naive');

  it('accepts every method default', () => {
    for (const m of ['naive', 'qa', 'book', 'knowledge_graph', 'table', 'tag']) {
      expect(validateParserConfig(defaultParserConfig(m), m)).toEqual([]);
    }
  });

  it.each([
    ['chunk_token_num', 0, '`chunk_token_num` must be between 1 and 2048.'],
    ['chunk_token_num', 2049, '`chunk_token_num` must be between 1 and 2048.'],
    ['chunk_token_num', 12.5, '`chunk_token_num` must be an integer.'],
    ['chunk_token_num', '512', '`chunk_token_num` must be a number.'],
    ['auto_keywords', -1, '`auto_keywords` must be between 0 and 32.'],
    ['auto_keywords', 33, '`auto_keywords` must be between 0 and 32.'],
    ['auto_questions', 11, '`auto_questions` must be between 0 and 10.'],
    ['topn_tags', 0, '`topn_tags` must be between 1 and 10.'],
    ['topn_tags', 11, '`topn_tags` must be between 1 and 10.'],
    ['task_page_size', 0, '`task_page_size` must be at least 1.'],
    ['overlapped_percent', 95, '`overlapped_percent` must be between 0 and 90.'],
    ['filename_embd_weight', 1.5, '`filename_embd_weight` must be between 0 and 1.'],
    ['delimiter', 5, '`delimiter` must be a string.'],
    ['html4excel', 'yes', '`html4excel` must be a boolean.'],
    ['tag_kb_ids', 'kb1', '`tag_kb_ids` must be a list of strings.'],
  ])('refuses %s = %j', (key, value, message) => {
    expect(validateParserConfig({ ...valid(), [key]: value }, 'naive')).toEqual([message]);
  });

  it('requires the chunk token number where the form shows it, and lets knowledge_graph keep 8192', () => {
    expect(validateParserConfig({ ...valid(), chunk_token_num: null }, 'naive')).toEqual([
      'Chunk token number is required.',
    ]);
    expect(validateParserConfig({ table_context_size: 0 }, 'qa')).toEqual([]);
    expect(validateParserConfig({ chunk_token_num: 8192 }, 'knowledge_graph')).toEqual([]);
    expect(validateParserConfig({ chunk_token_num: 8193 }, 'knowledge_graph')).toEqual([
      '`chunk_token_num` must be between 1 and 8192.',
    ]);
    expect(validateParserConfig({ ...valid(), task_page_size: null }, 'naive')).toEqual([
      'Please input your task page size!',
    ]);
  });

  it('checks RAPTOR fields when RAPTOR is on, and their bounds', () => {
    const raptor = (r: Record<string, unknown>) => ({
      ...valid(),
      raptor: { ...(valid().raptor as object), ...r },
    });
    expect(validateParserConfig(raptor({ prompt: '' }))).toEqual(['Prompt is required']);
    expect(validateParserConfig(raptor({ max_token: null }))).toEqual(['Max token is required']);
    expect(validateParserConfig(raptor({ threshold: undefined }))).toEqual(['Threshold is required']);
    expect(validateParserConfig(raptor({ max_cluster: null }))).toEqual(['Max cluster is required']);
    expect(validateParserConfig(raptor({ random_seed: null }))).toEqual(['Random seed is required']);
    expect(validateParserConfig({ raptor: { use_raptor: false } }, 'book')).toEqual([]);
    expect(validateParserConfig(raptor({ max_token: 0 }))).toEqual([
      '`raptor.max_token` must be between 1 and 2048.',
    ]);
    expect(validateParserConfig(raptor({ max_token: 2049 }))).toEqual([
      '`raptor.max_token` must be between 1 and 2048.',
    ]);
    expect(validateParserConfig(raptor({ threshold: 1.2 }))).toEqual([
      '`raptor.threshold` must be between 0 and 1.',
    ]);
    expect(validateParserConfig(raptor({ max_cluster: 1025 }))).toEqual([
      '`raptor.max_cluster` must be between 1 and 1024.',
    ]);
    expect(validateParserConfig(raptor({ random_seed: -1 }))).toEqual([
      '`raptor.random_seed` must be at least 0.',
    ]);
  });

  it('checks the graph method', () => {
    expect(validateParserConfig({ ...valid(), graphrag: { method: 'fast' } })).toEqual([
      '`graphrag.method` must be "light" or "general".',
    ]);
    expect(
      validateParserConfig({
        ...valid(),
        graphrag: { method: 'general', resolution: true, community: false },
      }),
    ).toEqual([]);
  });

  it('checks page ranges: both ends present, end after start and after the previous end', () => {
    const pages = (p: unknown) => validateParserConfig({ ...valid(), pages: p });
    expect(
      pages([
        [1, 10],
        [20, 30],
      ]),
    ).toEqual([]);
    expect(pages([{ from: 1, to: 3 }])).toEqual([]);
    expect(pages([[null, 10]])).toEqual(['Missing start page number']);
    expect(pages([{ from: 2 }])).toEqual(['Missing end page number (excluded)']);
    expect(pages([[5, 5]])).toEqual(['The end page must be greater than the start page.']);
    expect(
      pages([
        [1, 10],
        [3, 8],
      ]),
    ).toEqual(["The end page must be greater than the previous range's end page."]);
    expect(pages([[0, 3]])).toEqual(['Page numbers must be whole numbers starting at 1.']);
    expect(pages('1-3')).toEqual(['`pages` must be a list of [from, to] page ranges.']);
  });

  it('refuses a config that is not an object', () => {
    expect(validateParserConfig('x')).toEqual(['`parser_config` must be an object.']);
  });
});
