import {
  callableModelName,
  MODEL_TYPES,
  splitModelId,
  type FactoryInfo,
  type LlmListItem,
  type ModelType,
  type MyLlms,
  type TenantInfo,
} from '@lectern/shared';

/** Pure helpers of the model-provider page: catalogue search, added-provider rows, default-model choices. */

/** The name a person knows a model by: the stored name without its `___<tag>` suffix. */
export const displayModelName = callableModelName;

/** Model types that some provider offers, in the canonical order (the catalogue's tag filter). */
export function typeFilterOptions(factories: readonly FactoryInfo[]): ModelType[] {
  const offered = new Set(factories.flatMap((f) => f.model_types));
  return MODEL_TYPES.filter((t) => offered.has(t));
}

/** Providers matching the search text (name or tags, any case) and, when given, offering the model type. */
export function filterFactories(
  factories: readonly FactoryInfo[],
  search: string,
  type: ModelType | null,
): FactoryInfo[] {
  const needle = search.trim().toLowerCase();
  return factories.filter(
    (f) =>
      (!type || f.model_types.includes(type)) &&
      (!needle || f.name.toLowerCase().includes(needle) || f.tags.toLowerCase().includes(needle)),
  );
}

/** One or two letters standing in for a missing logo ("OpenAI-API-Compatible" → "OA", "xAI" → "XA"). */
export function initialsOf(name: string): string {
  const words = name.split(/[\s\-_.]+/).filter(Boolean);
  if (words.length >= 2) return (words[0][0] + words[1][0]).toUpperCase();
  return name.slice(0, 2).toUpperCase();
}

/** A stable hue per provider name, so each initial badge keeps its colour. */
export function hueOf(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

/** Whether a catalogue logo is something an <img> can show (URL, data URL or inline SVG). */
export function logoSource(logo: string): string | null {
  const v = logo.trim();
  if (!v) return null;
  if (/^(https?:|data:|\/)/.test(v)) return v;
  if (v.startsWith('<svg')) return `data:image/svg+xml;utf8,${encodeURIComponent(v)}`;
  return null;
}

export interface AddedProvider {
  name: string;
  tags: string;
  models: Array<{
    name: string;
    type: string;
    usedToken: number;
    enabled: boolean;
    apiBase: string;
    maxTokens: number | undefined;
  }>;
  usedToken: number;
}

/** my_llms as display rows: providers in catalogue order (unknown ones last, by name), models by type then name. */
export function addedProviders(my: MyLlms | undefined, factories: readonly FactoryInfo[]): AddedProvider[] {
  if (!my) return [];
  const rank = new Map(factories.map((f, i) => [f.name, i]));
  const order = (n: string) => rank.get(n) ?? Number.MAX_SAFE_INTEGER;
  return Object.entries(my)
    .filter(([, group]) => group.llm.length > 0)
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([name, group]) => {
      const models = group.llm
        .map((m) => ({
          name: m.name,
          type: m.type,
          usedToken: m.used_token,
          enabled: m.status !== '0',
          apiBase: m.api_base ?? '',
          maxTokens: m.max_tokens,
        }))
        .sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name));
      return { name, tags: group.tags, models, usedToken: models.reduce((s, m) => s + m.usedToken, 0) };
    });
}

/** The system default models (API.md §2) and the model type each one lists. */
export const DEFAULT_MODEL_FIELDS = [
  { key: 'llm_id', type: 'chat' },
  { key: 'embd_id', type: 'embedding' },
  { key: 'img2txt_id', type: 'image2text' },
  { key: 'asr_id', type: 'speech2text' },
  { key: 'rerank_id', type: 'rerank' },
  { key: 'tts_id', type: 'tts' },
] as const satisfies ReadonlyArray<{ key: keyof TenantInfo; type: ModelType }>;

export type DefaultModelKey = (typeof DEFAULT_MODEL_FIELDS)[number]['key'];
export type DefaultModelValues = Partial<Record<DefaultModelKey, string | null | undefined>>;

export interface ModelOptionGroup {
  label: string;
  title: string;
  options: Array<{ value: string; label: string; disabled?: boolean }>;
}

/**
 * Choices of one default-model select: the available models by provider, as `<llm_name>@<factory>`.
 * A current value no longer on the list stays as a disabled choice, so the select shows what is set.
 */
export function modelOptions(
  list: Record<string, LlmListItem[]> | undefined,
  current: string | null | undefined,
): ModelOptionGroup[] {
  const groups: ModelOptionGroup[] = [];
  for (const [factory, items] of Object.entries(list ?? {})) {
    const options = items
      .filter((m) => m.available)
      .map((m) => ({ value: `${m.llm_name}@${m.fid}`, label: displayModelName(m.llm_name) }));
    if (options.length > 0) groups.push({ label: factory, title: factory, options });
  }
  if (current && !groups.some((g) => g.options.some((o) => o.value === current))) {
    const { name, factory } = splitModelId(current);
    const label = factory ?? '';
    const option = { value: current, label: displayModelName(name), disabled: true };
    const group = groups.find((g) => g.label === label);
    if (group) group.options.push(option);
    else groups.push({ label, title: label, options: [option] });
  }
  return groups;
}

/** The set_tenant_info body: edited values over the current ones; a cleared select sends "". */
export function tenantInfoPayload(current: TenantInfo, values: DefaultModelValues) {
  const pick = (key: DefaultModelKey): string => {
    const v = key in values ? values[key] : current[key];
    return v ?? '';
  };
  return {
    tenant_id: current.tenant_id,
    llm_id: pick('llm_id'),
    embd_id: pick('embd_id'),
    img2txt_id: pick('img2txt_id'),
    asr_id: pick('asr_id'),
    rerank_id: pick('rerank_id'),
    tts_id: pick('tts_id'),
  };
}
