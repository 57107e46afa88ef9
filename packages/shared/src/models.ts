/** Model providers (API.md §4): constants and model-id helpers (payload shapes: `contract/llm.ts`). */

/** The bundled local factory: its models need no key and it is hidden from `/llm/factories`. */
export const BUILTIN_FACTORY = 'Builtin';

/** Separator of the stored name suffix used by generic self-hosted factories ("name___VLLM"). */
export const MODEL_NAME_TAG_SEPARATOR = '___';

/** Splits "<llm_name>@<factory>" (API.md §1.8); a bare name has no factory. */
export function splitModelId(modelId: string): { name: string; factory: string | null } {
  const at = modelId.lastIndexOf('@');
  if (at <= 0 || at === modelId.length - 1) return { name: modelId, factory: null };
  return { name: modelId.slice(0, at), factory: modelId.slice(at + 1) };
}

/** The name to call a provider with: the stored name without its "___<tag>" suffix. */
export function callableModelName(storedName: string): string {
  const i = storedName.indexOf(MODEL_NAME_TAG_SEPARATOR);
  return i >= 0 ? storedName.slice(0, i) : storedName;
}
