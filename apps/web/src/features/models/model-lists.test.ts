import { describe, expect, it } from 'vitest';
import type { FactoryInfo, LlmListItem, TenantInfo } from '@lectern/shared';
import {
  addedProviders,
  displayModelName,
  filterFactories,
  hueOf,
  initialsOf,
  logoSource,
  modelOptions,
  tenantInfoPayload,
  typeFilterOptions,
} from './model-lists';

function factory(name: string, tags: string, model_types: FactoryInfo['model_types']): FactoryInfo {
  return {
    name,
    logo: '',
    tags,
    rank: 0,
    status: '1',
    model_types,
    local: false,
    base_url_required: false,
    default_base_url: '',
    credential_fields: [],
  };
}

const catalogue = [
  factory('OpenAI', 'LLM,TEXT EMBEDDING,TTS,SPEECH2TEXT,IMAGE2TEXT', [
    'chat',
    'embedding',
    'image2text',
    'speech2text',
    'tts',
  ]),
  factory('Anthropic', 'LLM,IMAGE2TEXT', ['chat', 'image2text']),
  factory('Jina', 'TEXT EMBEDDING,TEXT RE-RANK', ['embedding', 'rerank']),
  factory('OpenAI-API-Compatible', 'LLM,TEXT EMBEDDING,TEXT RE-RANK', ['chat', 'embedding', 'rerank']),
];

describe('catalogue search and tag filter', () => {
  it('offers the model types some provider has, in the canonical order', () => {
    expect(typeFilterOptions(catalogue)).toEqual([
      'chat',
      'embedding',
      'rerank',
      'image2text',
      'speech2text',
      'tts',
    ]);
    expect(typeFilterOptions([catalogue[2]])).toEqual(['embedding', 'rerank']);
    expect(typeFilterOptions([])).toEqual([]);
  });

  it('matches the name or the tags, ignoring case and surrounding blanks', () => {
    expect(filterFactories(catalogue, ' openai ', null).map((f) => f.name)).toEqual([
      'OpenAI',
      'OpenAI-API-Compatible',
    ]);
    expect(filterFactories(catalogue, 're-rank', null).map((f) => f.name)).toEqual([
      'Jina',
      'OpenAI-API-Compatible',
    ]);
    expect(filterFactories(catalogue, '', null)).toHaveLength(4);
    expect(filterFactories(catalogue, 'nothing like it', null)).toEqual([]);
  });

  it('keeps only providers offering the chosen model type, combined with the search', () => {
    expect(filterFactories(catalogue, '', 'rerank').map((f) => f.name)).toEqual([
      'Jina',
      'OpenAI-API-Compatible',
    ]);
    expect(filterFactories(catalogue, 'open', 'tts').map((f) => f.name)).toEqual(['OpenAI']);
  });
});

describe('logos', () => {
  it('uses initials and a stable hue when the catalogue has no logo', () => {
    expect(initialsOf('OpenAI-API-Compatible')).toBe('OA');
    expect(initialsOf('Voyage AI')).toBe('VA');
    expect(initialsOf('xAI')).toBe('XA');
    expect(initialsOf('01.AI')).toBe('0A');
    expect(hueOf('OpenAI')).toBe(hueOf('OpenAI'));
    expect(hueOf('OpenAI')).not.toBe(hueOf('Anthropic'));
    expect(hueOf('OpenAI')).toBeGreaterThanOrEqual(0);
    expect(hueOf('OpenAI')).toBeLessThan(360);
  });

  it('shows URLs and inline SVG, nothing for other text', () => {
    expect(logoSource('')).toBeNull();
    expect(logoSource('https://cdn.example/openai.svg')).toBe('https://cdn.example/openai.svg');
    expect(logoSource('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(logoSource('<svg xmlns="http://www.w3.org/2000/svg"/>')).toMatch(
      /^data:image\/svg\+xml;utf8,%3Csvg/,
    );
    expect(logoSource('openai')).toBeNull();
  });
});

describe('added providers', () => {
  it('orders providers as the catalogue does, models by type and name, and sums token usage', () => {
    const rows = addedProviders(
      {
        'OpenAI-API-Compatible': {
          tags: 'LLM',
          llm: [
            {
              type: 'embedding',
              name: 'bge___OpenAI-API',
              used_token: 30,
              status: '1',
              api_base: 'http://h/v1',
              max_tokens: 512,
            },
            {
              type: 'chat',
              name: 'qwen___OpenAI-API',
              used_token: 12,
              status: '0',
              api_base: 'http://h/v1',
              max_tokens: 8192,
            },
          ],
        },
        Custom: { tags: '', llm: [{ type: 'chat', name: 'x', used_token: 0, status: '1' }] },
        OpenAI: { tags: 'LLM', llm: [{ type: 'chat', name: 'gpt-4o', used_token: 5, status: '1' }] },
        Empty: { tags: '', llm: [] },
      },
      catalogue,
    );
    expect(rows.map((r) => r.name)).toEqual(['OpenAI', 'OpenAI-API-Compatible', 'Custom']);
    const compat = rows[1];
    expect(compat.usedToken).toBe(42);
    expect(compat.models.map((m) => [m.name, m.type, m.enabled, m.maxTokens])).toEqual([
      ['qwen___OpenAI-API', 'chat', false, 8192],
      ['bge___OpenAI-API', 'embedding', true, 512],
    ]);
    expect(rows[2].models[0]).toMatchObject({ apiBase: '', maxTokens: undefined });
    expect(addedProviders(undefined, catalogue)).toEqual([]);
  });

  it('shows stored names without their ___<tag> suffix', () => {
    expect(displayModelName('qwen2.5___VLLM')).toBe('qwen2.5');
    expect(displayModelName('gpt-4o')).toBe('gpt-4o');
  });
});

describe('system default models', () => {
  const item = (llm_name: string, fid: string, available = true): LlmListItem => ({
    llm_name,
    fid,
    model_type: 'chat',
    max_tokens: 8192,
    tags: '',
    is_tools: false,
    status: '1',
    available,
  });

  it('lists the available models by provider as <llm_name>@<factory>', () => {
    const groups = modelOptions(
      {
        'OpenAI-API-Compatible': [
          item('qwen___OpenAI-API', 'OpenAI-API-Compatible'),
          item('off___OpenAI-API', 'OpenAI-API-Compatible', false),
        ],
        Anthropic: [item('claude-x', 'Anthropic', false)],
      },
      '',
    );
    expect(groups).toEqual([
      {
        label: 'OpenAI-API-Compatible',
        title: 'OpenAI-API-Compatible',
        options: [{ value: 'qwen___OpenAI-API@OpenAI-API-Compatible', label: 'qwen' }],
      },
    ]);
  });

  it('keeps a current value that is no longer available, as a disabled choice', () => {
    const groups = modelOptions({ OpenAI: [item('gpt-4o', 'OpenAI')] }, 'gone-model@OpenAI');
    expect(groups[0].options).toEqual([
      { value: 'gpt-4o@OpenAI', label: 'gpt-4o' },
      { value: 'gone-model@OpenAI', label: 'gone-model', disabled: true },
    ]);
    const other = modelOptions(undefined, 'BAAI/bge-small-en-v1.5@Builtin');
    expect(other).toEqual([
      {
        label: 'Builtin',
        title: 'Builtin',
        options: [
          { value: 'BAAI/bge-small-en-v1.5@Builtin', label: 'BAAI/bge-small-en-v1.5', disabled: true },
        ],
      },
    ]);
  });

  it('saves edited values over the current ones; a cleared choice is sent as ""', () => {
    const current: TenantInfo = {
      tenant_id: 't1',
      name: 'Ada‘s Kingdom',
      llm_id: 'old@OpenAI',
      embd_id: 'BAAI/bge-small-en-v1.5@Builtin',
      rerank_id: '',
      asr_id: 'whisper-1@OpenAI',
      img2txt_id: '',
      tts_id: null,
      parser_ids: '',
      role: 'owner',
    };
    expect(
      tenantInfoPayload(current, { llm_id: 'qwen___OpenAI-API@OpenAI-API-Compatible', asr_id: undefined }),
    ).toEqual({
      tenant_id: 't1',
      llm_id: 'qwen___OpenAI-API@OpenAI-API-Compatible',
      embd_id: 'BAAI/bge-small-en-v1.5@Builtin',
      img2txt_id: '',
      asr_id: '',
      rerank_id: '',
      tts_id: '',
    });
  });
});
