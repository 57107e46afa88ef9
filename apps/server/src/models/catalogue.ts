import { z } from 'zod';
import { BUILTIN_FACTORY, MODEL_TYPES, type CredentialField, type ModelType } from '@lectern/shared';
import catalogueJson from './catalogue.json' with { type: 'json' };

/**
 * The provider catalogue (a data file, `catalogue.json`), validated once at load. Routes read the seeded
 * tables `llm_factories` / `llm`; adapters read protocol details (wire shape, base URL, credential
 * fields) from here by factory name.
 */
const modelType = z.enum(MODEL_TYPES);

const credentialField = z.object({
  name: z.string().min(1),
  label: z.string(),
  required: z.boolean(),
  secret: z.boolean(),
  options: z.array(z.string()).optional(),
  required_for: z.array(modelType).optional(),
  encoding: z.literal('base64').optional(),
  placeholder: z.string().optional(),
});

const modelSchema = z.object({
  llm_name: z.string().min(1),
  model_type: modelType,
  max_tokens: z.number().int().positive(),
  tags: z.string(),
  is_tools: z.boolean(),
  /** Builtin only: the model-hub repository holding the ONNX weights, and the vector size. */
  hub_id: z.string().optional(),
  dimension: z.number().int().positive().optional(),
  pooling: z.enum(['mean', 'cls']).optional(),
});

export const PROTOCOLS = [
  'openai',
  'openai-compatible',
  'azure',
  'anthropic',
  'google',
  'google-vertex',
  'bedrock',
  'ollama',
  'builtin',
] as const;
export type Protocol = (typeof PROTOCOLS)[number];
export const RERANK_PROTOCOLS = ['jina', 'cohere', 'voyage', 'tei'] as const;
export type RerankProtocol = (typeof RERANK_PROTOCOLS)[number];

const factory = z.object({
  name: z.string().min(1),
  logo: z.string(),
  tags: z.string(),
  rank: z.number().int(),
  status: z.enum(['0', '1']),
  model_types: z.array(modelType).min(1),
  protocol: z.enum(PROTOCOLS),
  default_base_url: z.string(),
  /** Self-hosted: the api key is optional ("x" is stored when absent). */
  local: z.boolean(),
  base_url_required: z.boolean(),
  /** Generic self-hosted factories store "<name>___<suffix>" (API.md §4). */
  name_suffix: z.string(),
  credentials: z.array(credentialField),
  /** Wire shape of the rerank endpoint; `base_url` when it lives on another host than the chat API. */
  rerank: z
    .object({
      protocol: z.enum(RERANK_PROTOCOLS),
      path: z.string(),
      base_url: z.string().optional(),
      strip_v1: z.boolean().optional(),
    })
    .nullable(),
  /** Speech-to-text / text-to-speech over OpenAI-shaped `/audio/*` endpoints. */
  audio: z.literal('openai').nullable(),
  /** Credential whose value is the model name sent to the provider (VolcEngine endpoint id). */
  call_name_field: z.string().optional(),
  /** Not listed by /llm/factories (the bundled Builtin factory). */
  hidden: z.boolean().optional(),
  llm: z.array(modelSchema),
});

const catalogueSchema = z.object({ factories: z.array(factory).min(1) });

export type CatalogueFactory = z.infer<typeof factory>;
export type CatalogueModel = z.infer<typeof modelSchema>;

function load(): Map<string, CatalogueFactory> {
  const parsed = catalogueSchema.safeParse(catalogueJson);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Model catalogue is invalid at ${issue.path.join('.')}: ${issue.message}`);
  }
  const map = new Map<string, CatalogueFactory>();
  for (const f of parsed.data.factories) {
    if (map.has(f.name)) throw new Error(`Model catalogue lists factory ${f.name} twice`);
    map.set(f.name, f);
  }
  return map;
}

const factories = load();

export function catalogueFactories(): CatalogueFactory[] {
  return [...factories.values()];
}

export function catalogueFactory(name: string): CatalogueFactory | undefined {
  return factories.get(name);
}

export function catalogueModel(factoryName: string, llmName: string): CatalogueModel | undefined {
  return factories.get(factoryName)?.llm.find((m) => m.llm_name === llmName);
}

export function isBuiltin(factoryName: string): boolean {
  return factoryName === BUILTIN_FACTORY;
}

/** Credential fields the add form must collect for this model type. */
export function requiredCredentialFields(f: CatalogueFactory, type: ModelType): CredentialField[] {
  return f.credentials.filter((c) => c.required && (!c.required_for || c.required_for.includes(type)));
}

/** A factory whose credentials are more than one api key stores them packed as JSON (API.md §4). */
export function usesPackedCredentials(f: CatalogueFactory): boolean {
  return f.credentials.some((c) => c.name !== 'api_key');
}

/** The stored llm_name: generic self-hosted factories get the "___<tag>" suffix once. */
export function storedModelName(f: CatalogueFactory, name: string): string {
  if (!f.name_suffix) return name;
  const suffix = `___${f.name_suffix}`;
  return name.endsWith(suffix) ? name : `${name}${suffix}`;
}
