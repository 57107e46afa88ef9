import type { CredentialField, FactoryInfo, ModelType } from '@lectern/shared';

/**
 * The add-key and add-model forms, drawn from a provider's catalogue entry (`/llm/factories` carries
 * `local`, `base_url_required`, `default_base_url` and `credential_fields`), with the checks of SPEC §5:
 * model name, type and base url required, provider credentials required, api key optional for local
 * providers. Pure functions: the dialogs render what these return; the tests check them.
 */

export type FieldKind = 'modelType' | 'text' | 'secret' | 'select' | 'url' | 'number' | 'base64';

export interface FormField {
  /** The request body key (`llm_name`, `api_base`, `bedrock_region` …). */
  name: string;
  kind: FieldKind;
  required: boolean;
  /** English label from the catalogue; the page translates by `name` and falls back to this. */
  label: string;
  options?: readonly string[];
  placeholder?: string;
}

export type FormValues = Record<string, unknown>;

/** A check that failed: an i18n key of `models.validation` (the label is interpolated by the page). */
export type Problem = 'required' | 'url' | 'positiveInteger' | 'base64Json' | 'option';

export const DEFAULT_MAX_TOKENS = 8192;

/** Credential fields other than the plain api key (access keys, regions, endpoint ids …). */
function extraCredentials(f: FactoryInfo): CredentialField[] {
  return f.credential_fields.filter((c) => c.name !== 'api_key');
}

/**
 * Whether the provider's key can be set once for all its catalogue models (set_api_key). Providers
 * that need more than a key per model (Azure's deployments, Bedrock's account and region, VolcEngine's
 * endpoint id, XunFei's app id, Google Cloud's project) and self-hosted ones are added model by model.
 */
export function usesApiKeyDialog(f: FactoryInfo): boolean {
  return !f.local && !extraCredentials(f).some((c) => c.required);
}

/** A default base url with a placeholder in it (`https://{region}-…`) is filled in by the server. */
function templated(url: string): boolean {
  return /[{}]/.test(url);
}

/** The base url is asked for when the provider needs it or has a usable default to override. */
function showsBaseUrl(f: FactoryInfo): boolean {
  return f.base_url_required || (f.default_base_url !== '' && !templated(f.default_base_url));
}

function credentialField(c: CredentialField, required: boolean, local: boolean): FormField {
  const kind: FieldKind = c.options?.length
    ? 'select'
    : c.encoding === 'base64'
      ? 'base64'
      : c.secret
        ? 'secret'
        : 'text';
  return {
    name: c.name,
    kind,
    // SPEC §5: the api key is optional for local models, whatever the entry says.
    required: required && !(local && c.name === 'api_key'),
    label: c.label,
    ...(c.options?.length ? { options: c.options } : {}),
    ...(c.placeholder ? { placeholder: c.placeholder } : {}),
  };
}

function baseUrlField(f: FactoryInfo, name: 'api_base' | 'base_url'): FormField {
  return {
    name,
    kind: 'url',
    required: f.base_url_required,
    label: 'Base URL',
    ...(f.default_base_url && !templated(f.default_base_url) ? { placeholder: f.default_base_url } : {}),
  };
}

/** Fields of the add-model dialog (add_llm) for one model type, in display order. */
export function addModelFields(f: FactoryInfo, modelType: ModelType | undefined): FormField[] {
  const fields: FormField[] = [
    { name: 'model_type', kind: 'modelType', required: true, label: 'Model type', options: f.model_types },
    { name: 'llm_name', kind: 'text', required: true, label: 'Model name' },
  ];
  if (showsBaseUrl(f)) fields.push(baseUrlField(f, 'api_base'));
  const hasApiKey = f.credential_fields.some((c) => c.name === 'api_key');
  if (!hasApiKey && extraCredentials(f).length === 0) {
    // No credential list at all: an optional key for local providers, a required one for the others.
    fields.push({ name: 'api_key', kind: 'secret', required: !f.local, label: 'API key' });
  }
  for (const c of f.credential_fields) {
    const required =
      c.required && (!c.required_for || (modelType !== undefined && c.required_for.includes(modelType)));
    fields.push(credentialField(c, required, f.local));
  }
  fields.push({ name: 'max_tokens', kind: 'number', required: true, label: 'Max tokens' });
  return fields;
}

/** Fields of the api-key dialog (set_api_key): the credentials every model needs, and the base url. */
export function apiKeyFields(f: FactoryInfo): FormField[] {
  const fields = f.credential_fields.map((c) => credentialField(c, c.required && !c.required_for, f.local));
  if (!fields.some((x) => x.name === 'api_key'))
    fields.unshift({ name: 'api_key', kind: 'secret', required: true, label: 'API key' });
  if (showsBaseUrl(f)) fields.push(baseUrlField(f, 'base_url'));
  return fields;
}

/** Initial values of the add-model dialog. */
export function addModelDefaults(f: FactoryInfo, modelType?: ModelType): FormValues {
  const type = modelType && f.model_types.includes(modelType) ? modelType : f.model_types[0];
  return { model_type: type, max_tokens: DEFAULT_MAX_TOKENS };
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function isHttpUrl(v: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(v.trim()).protocol);
  } catch {
    return false;
  }
}

function bytesToText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** Text → base64 of its UTF-8 bytes (a service-account JSON file becomes the field's value). */
export function toBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A base64-encoded JSON service-account key with `client_email` and `private_key` (what the server reads). */
export function isServiceAccountKey(value: string): boolean {
  try {
    const binary = atob(value.trim());
    const json = JSON.parse(bytesToText(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)))) as unknown;
    if (!json || typeof json !== 'object') return false;
    const sa = json as { client_email?: unknown; private_key?: unknown };
    return (
      typeof sa.client_email === 'string' &&
      sa.client_email !== '' &&
      typeof sa.private_key === 'string' &&
      sa.private_key !== ''
    );
  } catch {
    return false;
  }
}

/** The first problem of one value, or null when it is acceptable. */
export function validateField(field: FormField, value: unknown): Problem | null {
  if (blank(value)) return field.required ? 'required' : null;
  switch (field.kind) {
    case 'url':
      return typeof value === 'string' && isHttpUrl(value) ? null : 'url';
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isInteger(n) && n > 0 ? null : 'positiveInteger';
    }
    case 'base64':
      return typeof value === 'string' && isServiceAccountKey(value) ? null : 'base64Json';
    case 'select':
    case 'modelType':
      return field.options && !field.options.includes(String(value)) ? 'option' : null;
    default:
      return null;
  }
}

/** Problems of a whole form, by field name (empty when it can be sent). */
export function validateForm(fields: FormField[], values: FormValues): Record<string, Problem> {
  const out: Record<string, Problem> = {};
  for (const field of fields) {
    const problem = validateField(field, values[field.name]);
    if (problem) out[field.name] = problem;
  }
  return out;
}

/** Trimmed values of the fields that were filled in; numbers as numbers. */
function filled(fields: FormField[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const v = values[field.name];
    if (blank(v)) continue;
    if (field.kind === 'number') body[field.name] = Number(v);
    else body[field.name] = typeof v === 'string' ? v.trim() : v;
  }
  return body;
}

/** The add_llm body. A local provider's blank key is left out (the server stores "x"). */
export function addLlmBody(f: FactoryInfo, fields: FormField[], values: FormValues) {
  return { llm_factory: f.name, ...filled(fields, values) };
}

/** The set_api_key body (`api_key` is a required key of the route, so it is always sent). */
export function setApiKeyBody(f: FactoryInfo, fields: FormField[], values: FormValues) {
  const body = filled(fields, values);
  return { llm_factory: f.name, api_key: typeof body.api_key === 'string' ? body.api_key : '', ...body };
}
