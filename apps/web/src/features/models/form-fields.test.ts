import { describe, expect, it } from 'vitest';
import { CLOUD_REGIONS, type CredentialField, type FactoryInfo, type ModelType } from '@lectern/shared';
import {
  addLlmBody,
  addModelDefaults,
  addModelFields,
  apiKeyFields,
  isServiceAccountKey,
  setApiKeyBody,
  toBase64,
  usesApiKeyDialog,
  validateField,
  validateForm,
  type FormField,
} from './form-fields';

/** Catalogue entries shaped as `/v1/llm/factories` serves them (apps/server/src/models/catalogue.json). */
function factory(name: string, over: Partial<FactoryInfo>): FactoryInfo {
  return {
    name,
    logo: '',
    tags: 'LLM',
    rank: 0,
    status: '1',
    model_types: ['chat'],
    local: false,
    base_url_required: false,
    default_base_url: '',
    credential_fields: [],
    ...over,
  };
}
const key = (required = true): CredentialField => ({
  name: 'api_key',
  label: 'API key',
  required,
  secret: true,
});

const openai = factory('OpenAI', {
  model_types: ['chat', 'embedding', 'image2text', 'speech2text', 'tts'],
  default_base_url: 'https://api.openai.com/v1',
  credential_fields: [key()],
});
const compatible = factory('OpenAI-API-Compatible', {
  model_types: ['chat', 'embedding', 'rerank', 'image2text', 'speech2text', 'tts'],
  local: true,
  base_url_required: true,
  credential_fields: [key(false)],
});
const bedrock = factory('Bedrock', {
  model_types: ['chat', 'embedding'],
  credential_fields: [
    { name: 'bedrock_ak', label: 'Access key', required: true, secret: true },
    { name: 'bedrock_sk', label: 'Secret key', required: true, secret: true },
    { name: 'bedrock_region', label: 'Region', required: true, secret: false, options: [...CLOUD_REGIONS] },
  ],
});
const google = factory('Google Cloud', {
  model_types: ['chat', 'embedding', 'image2text'],
  default_base_url: 'https://{region}-aiplatform.googleapis.com/v1',
  credential_fields: [
    { name: 'google_project_id', label: 'Project ID', required: true, secret: false },
    { name: 'google_region', label: 'Region', required: true, secret: false, placeholder: 'us-central1' },
    {
      name: 'google_service_account_key',
      label: 'Service account key',
      required: true,
      secret: true,
      encoding: 'base64',
    },
  ],
});
const azure = factory('Azure-OpenAI', {
  model_types: ['chat', 'embedding', 'image2text'],
  base_url_required: true,
  credential_fields: [
    key(),
    { name: 'api_version', label: 'API version', required: true, secret: false, placeholder: '2024-10-21' },
  ],
});
const openrouter = factory('OpenRouter', {
  default_base_url: 'https://openrouter.ai/api/v1',
  credential_fields: [
    key(),
    { name: 'provider_order', label: 'Provider order', required: false, secret: false },
  ],
});
const volc = factory('VolcEngine', {
  model_types: ['chat', 'embedding'],
  default_base_url: 'https://ark.cn-beijing.volces.com/api/v3',
  credential_fields: [
    { name: 'ark_api_key', label: 'ARK API key', required: true, secret: true },
    { name: 'endpoint_id', label: 'Endpoint ID', required: true, secret: false, required_for: ['chat'] },
  ],
});

const shape = (fields: FormField[]) => fields.map((f) => `${f.name}:${f.kind}${f.required ? '*' : ''}`);

describe('which dialog a provider uses', () => {
  it('sets one key for catalogue providers that need nothing else, and adds models one by one otherwise', () => {
    expect(usesApiKeyDialog(openai)).toBe(true);
    expect(usesApiKeyDialog(openrouter)).toBe(true); // its extra field is optional
    expect(usesApiKeyDialog(compatible)).toBe(false); // local
    expect(usesApiKeyDialog(bedrock)).toBe(false);
    expect(usesApiKeyDialog(azure)).toBe(false); // api version per deployment
    expect(usesApiKeyDialog(google)).toBe(false);
    expect(usesApiKeyDialog(volc)).toBe(false);
  });
});

describe('add-model fields from credential_fields', () => {
  it('local OpenAI-compatible: type, name and base url required, the key optional', () => {
    expect(shape(addModelFields(compatible, 'chat'))).toEqual([
      'model_type:modelType*',
      'llm_name:text*',
      'api_base:url*',
      'api_key:secret',
      'max_tokens:number*',
    ]);
    expect(addModelFields(compatible, 'chat')[0].options).toEqual(compatible.model_types);
  });

  it('a cloud provider keeps its key required and offers its default base url as a hint', () => {
    const fields = addModelFields(openai, 'chat');
    expect(shape(fields)).toEqual([
      'model_type:modelType*',
      'llm_name:text*',
      'api_base:url',
      'api_key:secret*',
      'max_tokens:number*',
    ]);
    expect(fields.find((f) => f.name === 'api_base')?.placeholder).toBe('https://api.openai.com/v1');
  });

  it('Bedrock: access key, secret key and a region select with the SPEC §9 regions; no base url', () => {
    const fields = addModelFields(bedrock, 'chat');
    expect(shape(fields)).toEqual([
      'model_type:modelType*',
      'llm_name:text*',
      'bedrock_ak:secret*',
      'bedrock_sk:secret*',
      'bedrock_region:select*',
      'max_tokens:number*',
    ]);
    expect(fields.find((f) => f.name === 'bedrock_region')?.options).toEqual([
      'us-east-1',
      'us-west-2',
      'ap-southeast-1',
      'ap-northeast-1',
      'eu-central-1',
      'us-gov-west-1',
      'ap-southeast-2',
    ]);
  });

  it('Google Cloud: project id, region and a base64 key; a templated default base url is not asked for', () => {
    const fields = addModelFields(google, 'embedding');
    expect(shape(fields)).toEqual([
      'model_type:modelType*',
      'llm_name:text*',
      'google_project_id:text*',
      'google_region:text*',
      'google_service_account_key:base64*',
      'max_tokens:number*',
    ]);
    expect(fields.find((f) => f.name === 'google_region')?.placeholder).toBe('us-central1');
  });

  it('Azure: base url, key and api version all required', () => {
    expect(shape(addModelFields(azure, 'chat'))).toEqual([
      'model_type:modelType*',
      'llm_name:text*',
      'api_base:url*',
      'api_key:secret*',
      'api_version:text*',
      'max_tokens:number*',
    ]);
  });

  it('a credential required only for some model types follows the chosen type', () => {
    const required = (type: ModelType) =>
      addModelFields(volc, type).find((f) => f.name === 'endpoint_id')?.required;
    expect(required('chat')).toBe(true);
    expect(required('embedding')).toBe(false);
  });

  it('starts with the requested type when the provider offers it, else its first type', () => {
    expect(addModelDefaults(compatible, 'embedding')).toEqual({ model_type: 'embedding', max_tokens: 8192 });
    expect(addModelDefaults(bedrock, 'tts')).toEqual({ model_type: 'chat', max_tokens: 8192 });
    expect(addModelDefaults(openai)).toEqual({ model_type: 'chat', max_tokens: 8192 });
  });
});

describe('api-key fields', () => {
  it('the key (and optional extras) plus an optional base url with the default as hint', () => {
    expect(shape(apiKeyFields(openai))).toEqual(['api_key:secret*', 'base_url:url']);
    expect(shape(apiKeyFields(openrouter))).toEqual([
      'api_key:secret*',
      'provider_order:text',
      'base_url:url',
    ]);
    // Type-specific credentials are not asked for when one key covers every model.
    const typed = factory('Typed', {
      credential_fields: [
        key(),
        {
          name: 'deployment',
          label: 'Deployment',
          required: true,
          secret: false,
          required_for: ['embedding'],
        },
      ],
    });
    expect(shape(apiKeyFields(typed))).toEqual(['api_key:secret*', 'deployment:text']);
  });
});

describe('validation (SPEC §5)', () => {
  const fields = addModelFields(compatible, 'chat');
  const by = (name: string) => fields.find((f) => f.name === name) as FormField;

  it('requires model name, type and base url; the local api key may be blank', () => {
    expect(validateForm(fields, { max_tokens: 8192 })).toEqual({
      model_type: 'required',
      llm_name: 'required',
      api_base: 'required',
    });
    expect(
      validateForm(fields, {
        model_type: 'chat',
        llm_name: '  ',
        api_base: 'http://127.0.0.1:9/v1',
        max_tokens: 1,
      }),
    ).toEqual({
      llm_name: 'required',
    });
    expect(
      validateForm(fields, {
        model_type: 'chat',
        llm_name: 'm',
        api_base: 'http://127.0.0.1:9/v1',
        max_tokens: 4096,
      }),
    ).toEqual({});
  });

  it('requires provider credentials (Bedrock region among the offered ones)', () => {
    const bf = addModelFields(bedrock, 'chat');
    expect(validateForm(bf, { model_type: 'chat', llm_name: 'm', max_tokens: 10 })).toEqual({
      bedrock_ak: 'required',
      bedrock_sk: 'required',
      bedrock_region: 'required',
    });
    const region = bf.find((f) => f.name === 'bedrock_region') as FormField;
    expect(validateField(region, 'mars-1')).toBe('option');
    expect(validateField(region, 'eu-central-1')).toBeNull();
  });

  it('checks urls, whole positive numbers and model types', () => {
    expect(validateField(by('api_base'), 'ftp://host')).toBe('url');
    expect(validateField(by('api_base'), 'localhost:11434')).toBe('url');
    expect(validateField(by('api_base'), 'https://host/v1')).toBeNull();
    expect(validateField(by('max_tokens'), 0)).toBe('positiveInteger');
    expect(validateField(by('max_tokens'), 1.5)).toBe('positiveInteger');
    expect(validateField(by('max_tokens'), '2048')).toBeNull();
    expect(validateField(by('model_type'), 'banana')).toBe('option');
  });

  it('accepts only a base64 JSON service-account key with client_email and private_key', () => {
    const field = addModelFields(google, 'chat').find((f) => f.kind === 'base64') as FormField;
    const good = toBase64(
      JSON.stringify({ client_email: 'bot@p.iam.gserviceaccount.com', private_key: '-----BEGIN…' }),
    );
    expect(isServiceAccountKey(good)).toBe(true);
    expect(validateField(field, good)).toBeNull();
    expect(validateField(field, 'not-base64-json')).toBe('base64Json');
    expect(validateField(field, toBase64('{"client_email":"x"}'))).toBe('base64Json');
    expect(validateField(field, toBase64('[1,2]'))).toBe('base64Json');
  });

  it('base64 round-trips non-ASCII text as UTF-8', () => {
    const text = JSON.stringify({ client_email: 'ü@example.com', private_key: 'ключ' });
    const decoded = new TextDecoder().decode(Uint8Array.from(atob(toBase64(text)), (c) => c.charCodeAt(0)));
    expect(decoded).toBe(text);
  });
});

describe('request bodies', () => {
  it('add_llm: trimmed values, numbers as numbers, a blank local key left out', () => {
    const fields = addModelFields(compatible, 'embedding');
    expect(
      addLlmBody(compatible, fields, {
        model_type: 'embedding',
        llm_name: ' bge-m3 ',
        api_base: 'http://127.0.0.1:8000/v1 ',
        api_key: '',
        max_tokens: '512',
      }),
    ).toEqual({
      llm_factory: 'OpenAI-API-Compatible',
      model_type: 'embedding',
      llm_name: 'bge-m3',
      api_base: 'http://127.0.0.1:8000/v1',
      max_tokens: 512,
    });
  });

  it('add_llm sends provider credentials as their own fields', () => {
    const fields = addModelFields(bedrock, 'chat');
    expect(
      addLlmBody(bedrock, fields, {
        model_type: 'chat',
        llm_name: 'amazon.nova-pro-v1:0',
        bedrock_ak: 'AKIA',
        bedrock_sk: 'secret',
        bedrock_region: 'us-west-2',
        max_tokens: 8192,
        unrelated: 'dropped',
      }),
    ).toEqual({
      llm_factory: 'Bedrock',
      model_type: 'chat',
      llm_name: 'amazon.nova-pro-v1:0',
      bedrock_ak: 'AKIA',
      bedrock_sk: 'secret',
      bedrock_region: 'us-west-2',
      max_tokens: 8192,
    });
  });

  it('set_api_key always carries api_key and leaves a blank base url out', () => {
    const fields = apiKeyFields(openai);
    expect(setApiKeyBody(openai, fields, { api_key: ' sk-1 ', base_url: '' })).toEqual({
      llm_factory: 'OpenAI',
      api_key: 'sk-1',
    });
    expect(setApiKeyBody(openai, fields, { api_key: 'sk-1', base_url: 'https://proxy/v1' })).toEqual({
      llm_factory: 'OpenAI',
      api_key: 'sk-1',
      base_url: 'https://proxy/v1',
    });
  });
});
