import { describe, expect, it } from 'vitest';
import type { Dialog } from '@lectern/shared';
import { applyPreset, dialogToValues, llmSettingOf, newDialogValues, valuesToSetBody } from './dialog-form';

const texts = {
  system: 'Answer from {knowledge}.',
  prologue: 'Hi!',
  emptyResponse: 'Nothing found.',
  language: 'English',
};

const stored: Dialog = {
  id: 'd1',
  tenant_id: 't1',
  name: 'Geo',
  description: 'Geography',
  icon: '',
  language: 'English',
  llm_id: 'chat@Factory',
  llm_setting: { temperature: 0.5, top_p: 0.85, frequency_penalty: 0.3, presence_penalty: 0.2 },
  prompt_type: 'simple',
  prompt_config: {
    system: 'Use {knowledge}',
    prologue: 'Hello',
    parameters: [{ key: 'knowledge', optional: false }],
    empty_response: 'Nope',
    quote: true,
    keyword: true,
    refine_multiturn: false,
    cross_languages: ['German'],
    reasoning: false,
    toc_enhance: false,
    tavily_api_key: '',
    use_kg: false,
    tts: true,
    self_rag: false,
  },
  similarity_threshold: 0.25,
  vector_similarity_weight: 0.4,
  top_n: 8,
  top_k: 512,
  do_refer: '1',
  rerank_id: '',
  kb_ids: ['k1'],
  kb_names: ['Geography'],
  meta_data_filter: {},
  status: '1',
  create_time: 0,
  create_date: 'Thu, 01 Jan 1970 00:00:00 GMT',
  update_time: 0,
  update_date: 'Thu, 01 Jan 1970 00:00:00 GMT',
};

describe('the assistant form', () => {
  it('starts a new assistant from precise with 512 max tokens, threshold 0.2 and keyword weight 0.7', () => {
    const v = newDialogValues(texts, 'chat@Factory');
    expect(v).toMatchObject({
      preset: 'precise',
      temperature: 0.2,
      top_p: 0.75,
      frequency_penalty: 0.5,
      presence_penalty: 0.5,
      max_tokens: 512,
      max_tokens_enabled: true,
      similarity_threshold: 0.2,
      keyword_weight: 0.7,
      top_n: 6,
      top_k: 1024,
      llm_id: 'chat@Factory',
      parameters: [{ key: 'knowledge', optional: false }],
      quote: true,
    });
  });

  it('round-trips a stored assistant: preset recognized, missing keys switched off and not sent', () => {
    const v = dialogToValues(stored);
    expect(v.preset).toBe('balance');
    expect(v.keyword_weight).toBe(0.6);
    expect(v.max_tokens_enabled).toBe(false);
    expect(v.temperature_enabled).toBe(true);
    const body = valuesToSetBody(v, stored);
    expect(body.dialog_id).toBe('d1');
    expect(body.vector_similarity_weight).toBe(0.4);
    expect(body.llm_setting).toEqual(stored.llm_setting);
    expect(body.prompt_config).toMatchObject({ ...stored.prompt_config, cross_languages: ['German'] });
    expect(body).toMatchObject({
      top_n: 8,
      top_k: 512,
      similarity_threshold: 0.25,
      kb_ids: ['k1'],
      name: 'Geo',
    });
  });

  it('round-trips the table-of-contents switch next to the knowledge-graph one', () => {
    expect(newDialogValues(texts, 'm').toc_enhance).toBe(false);
    const off = dialogToValues(stored);
    expect(off.toc_enhance).toBe(false);
    const on = dialogToValues({ ...stored, prompt_config: { ...stored.prompt_config, toc_enhance: true } });
    expect(on.toc_enhance).toBe(true);
    expect(valuesToSetBody(on, stored).prompt_config).toMatchObject({ toc_enhance: true, use_kg: false });
    expect(valuesToSetBody({ ...on, toc_enhance: false }, stored).prompt_config.toc_enhance).toBe(false);
  });

  it('clears the empty response when no knowledge base is selected (SPEC §5)', () => {
    const v = { ...newDialogValues(texts, 'm'), name: ' Web only ', kb_ids: [], tavily_api_key: ' tvly-1 ' };
    const body = valuesToSetBody(v);
    expect(body.prompt_config.empty_response).toBe('');
    expect(body.prompt_config.tavily_api_key).toBe('tvly-1');
    expect(body.name).toBe('Web only');
    expect(body).not.toHaveProperty('dialog_id');
    expect(valuesToSetBody({ ...v, kb_ids: ['k1'] }).prompt_config.empty_response).toBe('Nothing found.');
  });

  it('sends only the switched-on model parameters; a preset switches all five on', () => {
    const v = { ...newDialogValues(texts, 'm'), top_p_enabled: false, presence_penalty_enabled: false };
    expect(llmSettingOf(v)).toEqual({ temperature: 0.2, frequency_penalty: 0.5, max_tokens: 512 });
    expect(applyPreset('improvise')).toEqual({
      temperature: 0.8,
      temperature_enabled: true,
      top_p: 0.9,
      top_p_enabled: true,
      presence_penalty: 0.1,
      presence_penalty_enabled: true,
      frequency_penalty: 0.1,
      frequency_penalty_enabled: true,
      max_tokens: 4096,
      max_tokens_enabled: true,
    });
  });
});
