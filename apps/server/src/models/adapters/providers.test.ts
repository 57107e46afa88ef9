/** Built SDK chat models are reused for the same spec and fetch, and built anew when either differs. */
import { describe, expect, it } from 'vitest';
import { catalogueFactory } from '../catalogue.js';
import type { ModelSpec } from '../spec.js';
import { languageModelOf } from './providers.js';

const fetchA = ((...args: Parameters<typeof fetch>) => fetch(...args)) as typeof fetch;
const fetchB = ((...args: Parameters<typeof fetch>) => fetch(...args)) as typeof fetch;

function spec(over: Partial<ModelSpec> = {}): ModelSpec {
  const factory = catalogueFactory('OpenAI-API-Compatible');
  if (!factory) throw new Error('The catalogue lacks OpenAI-API-Compatible.');
  return {
    id: 'm@OpenAI-API-Compatible',
    factory,
    storedName: 'm',
    callName: 'm',
    modelType: 'chat',
    apiKey: 'sk-one',
    credentials: {},
    baseUrl: 'http://127.0.0.1:9/v1',
    maxTokens: 8192,
    fetch: fetchA,
    ...over,
  };
}

describe('languageModelOf', () => {
  it('reuses the model of an equal spec over the same fetch', () => {
    expect(languageModelOf(spec())).toBe(languageModelOf(spec()));
  });

  it('builds another for a different key, base URL, model name or fetch', () => {
    const first = languageModelOf(spec());
    expect(languageModelOf(spec({ apiKey: 'sk-two' }))).not.toBe(first);
    expect(languageModelOf(spec({ baseUrl: 'http://127.0.0.1:10/v1' }))).not.toBe(first);
    expect(languageModelOf(spec({ callName: 'other' }))).not.toBe(first);
    expect(languageModelOf(spec({ fetch: fetchB }))).not.toBe(first);
    expect(languageModelOf(spec({ fetch: undefined }))).not.toBe(languageModelOf(spec({ fetch: undefined })));
  });
});
