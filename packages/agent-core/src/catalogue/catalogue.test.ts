/** The component catalogue the editor and the runtime share (AGENTS.md §6, §9). */
import { describe, expect, it } from 'vitest';
import { CATALOGUE, catalogueEntry, outputNamesOf, palette, parseParams } from '../index.js';
import { CORE_COMPONENTS } from '../components/registry.js';

describe('catalogue', () => {
  it('groups the palette as the v0.24 add-node menu, in order', () => {
    expect(palette().map((s) => [s.label, s.entries.map((e) => e.name)])).toEqual([
      ['Foundation', ['Agent', 'Retrieval']],
      ['Dialogue', ['Message', 'UserFillUp']],
      ['Flow', ['Switch', 'Iteration', 'Loop', 'ExitLoop', 'Categorize']],
      [
        'Data manipulation',
        [
          'CodeExec',
          'StringTransform',
          'DataOperations',
          'VariableAssigner',
          'ListOperations',
          'VariableAggregator',
        ],
      ],
      [
        'Tools',
        [
          'TavilySearch',
          'TavilyExtract',
          'ExeSQL',
          'Google',
          'YahooFinance',
          'Email',
          'DuckDuckGo',
          'Wikipedia',
          'GoogleScholar',
          'ArXiv',
          'PubMed',
          'GitHub',
          'Invoke',
          'WenCai',
          'SearXNG',
          'PDFGenerator',
        ],
      ],
    ]);
    expect(palette()[2].onlyInsideLoop).toEqual(['ExitLoop']);
  });

  it('gives the editor node types of §9.1', () => {
    const types = Object.fromEntries(CATALOGUE.map((e) => [e.name, e.nodeType]));
    expect(types).toMatchObject({
      Begin: 'beginNode',
      Agent: 'agentNode',
      Retrieval: 'retrievalNode',
      Message: 'messageNode',
      Categorize: 'categorizeNode',
      Switch: 'switchNode',
      RewriteQuestion: 'rewriteNode',
      Note: 'noteNode',
      Iteration: 'group',
      IterationItem: 'iterationStartNode',
      Loop: 'loopNode',
      LoopItem: 'loopStartNode',
      ExitLoop: 'exitLoopNode',
      DataOperations: 'dataOperationsNode',
      ListOperations: 'listOperationsNode',
      VariableAssigner: 'variableAssignerNode',
      VariableAggregator: 'variableAggregatorNode',
      UserFillUp: 'ragNode',
      StringTransform: 'ragNode',
      Invoke: 'ragNode',
    });
  });

  it('fills backend defaults of §6 and §10.3', () => {
    expect(parseParams('Agent', {})).toMatchObject({
      max_rounds: 5,
      tools: [],
      mcp: [],
      cite: true,
      message_history_window_size: 13,
      max_retries: 0,
      delay_after_error: 2,
      prompts: [{ role: 'user', content: '{sys.query}' }],
    });
    expect(parseParams('Retrieval', {})).toMatchObject({
      similarity_threshold: 0.2,
      keywords_similarity_weight: 0.5,
      top_n: 8,
      top_k: 1024,
      kb_ids: [],
      use_kg: false,
    });
    expect(parseParams('Categorize', {})).toMatchObject({
      query: 'sys.query',
      message_history_window_size: 1,
    });
    expect(parseParams('StringTransform', {})).toMatchObject({ method: 'split', delimiters: [','] });
    expect(parseParams('DataOperations', {})).toMatchObject({ operations: 'literal_eval' });
    expect(parseParams('ListOperations', {})).toMatchObject({
      operations: 'topN',
      n: 0,
      sort_method: 'asc',
      filter: { operator: '=', value: '' },
    });
    expect(parseParams('Loop', {})).toMatchObject({ maximum_loop_count: 0, logical_operator: 'and' });
    expect(parseParams('UserFillUp', {})).toMatchObject({
      enable_tips: true,
      tips: 'Please fill up the form',
    });
    expect(parseParams('Begin', {})).toMatchObject({
      mode: 'conversational',
      prologue: "Hi! I'm your smart assistant. What can I do for you?",
    });
    expect(parseParams('Message', {})).toMatchObject({ content: [], stream: true, auto_play: false });
    // editor-only keys are kept
    expect(parseParams('Agent', { showStructuredOutput: false, llm_filter: 'image2text' })).toMatchObject({
      showStructuredOutput: false,
      llm_filter: 'image2text',
    });
  });

  it("accepts every entry's editor initial form, and implements every core entry", () => {
    for (const e of CATALOGUE) expect(() => parseParams(e.name, e.editorInitial), e.name).not.toThrow();
    const core = CATALOGUE.filter((e) => e.implementedBy === 'core' && e.executable)
      .map((e) => e.name)
      .sort();
    expect(core).toEqual([...CORE_COMPONENTS].sort());
    expect(catalogueEntry('Note')!.executable).toBe(false);
  });

  it('knows the outputs an instance has', () => {
    expect(outputNamesOf('Agent', parseParams('Agent', {}))).toEqual(['content', 'structured', 'use_tools']);
    expect(outputNamesOf('Begin', parseParams('Begin', { inputs: { a: { type: 'line' } } }))).toEqual(['a']);
    expect(
      outputNamesOf(
        'VariableAggregator',
        parseParams('VariableAggregator', {
          groups: [{ group_name: 'g', variables: [{ value: 'sys.query' }] }],
        }),
      ),
    ).toEqual(['g']);
    expect(outputNamesOf('CodeExec', parseParams('CodeExec', {}))).toBe('open');
    expect(
      outputNamesOf('CodeExec', parseParams('CodeExec', { outputs: { md: { type: 'string' } } })),
    ).toEqual(['md']);
  });
});
