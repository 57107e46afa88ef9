/**
 * Metadata filtering of a retrieval (dialogs, search apps, retrieval testing, `/api/v1/retrieval`,
 * `chats_openai` `extra_body.metadata_condition`, the agent Retrieval component): one implementation.
 * The filter is resolved into the documents of the searched KBs whose metadata (`document.meta_fields`,
 * the store `document/metadata/update` and metadata extraction write) satisfies it; those ids become
 * the index's document filter, so filtering happens in the index before ranking.
 * - `manual`: the stored conditions.
 * - `auto` (and `semi_auto` over chosen keys): the chat model turns the question into conditions over
 *   the KBs' metadata keys (their value summary, as `document/metadata/summary` gives it). An answer
 *   that restricts nothing, an unusable answer or a model failure leaves the retrieval unfiltered
 *   (the question simply did not name a metadata value); conditions that match nothing give no result.
 * Several filters (a dialog's and a request's) all apply.
 */
import type { AppContext } from '../context.js';
import { parseJson } from '../db/json.js';
import type { ChatModel } from '../models/ports.js';
import {
  autoFilterPrompt,
  metaPredicate,
  parseAutoConditions,
  summarizeMetadata,
  type MetaCondition,
  type MetaLogic,
  type NormalizedMetaFilter,
} from './metadata-conditions.js';

export interface MetaFilterInput {
  kbIds: readonly string[];
  /** The caller's own document restriction (empty = whole KBs). */
  docIds: readonly string[];
  filters: ReadonlyArray<NormalizedMetaFilter | null>;
  question: string;
  /** The chat model of `auto` filters, resolved only when one is present. */
  chatModel: () => Promise<ChatModel>;
  signal?: AbortSignal;
}

export interface MetaFilterOutcome {
  /** Documents retrieval is restricted to; null = no metadata filter applied (caller's docIds stand). */
  docIds: string[] | null;
  /** The conditions that were applied (auto ones included), for logs and traces. */
  applied: Array<{ logic: MetaLogic; conditions: MetaCondition[] }>;
  /** Why an auto filter did not apply, when it did not. */
  notes: string[];
}

async function documentsOf(ctx: AppContext, kbIds: readonly string[], docIds: readonly string[]) {
  let q = ctx.db.kysely
    .selectFrom('document')
    .select(['id', 'meta_fields'])
    .where('kb_id', 'in', [...kbIds]);
  if (docIds.length > 0) q = q.where('id', 'in', [...docIds]);
  const rows = await q.execute();
  return rows.map((r) => ({ id: r.id, meta: parseJson<Record<string, unknown>>(r.meta_fields, {}) }));
}

async function autoConditions(
  input: MetaFilterInput,
  metas: Array<Record<string, unknown>>,
  keys: string[] | null,
  notes: string[],
): Promise<{ logic: MetaLogic; conditions: MetaCondition[] } | null> {
  const summary = summarizeMetadata(metas);
  const usable = Object.keys(summary).filter((k) => keys === null || keys.includes(k));
  if (usable.length === 0) {
    notes.push('No metadata to filter on.');
    return null;
  }
  const { system, user } = autoFilterPrompt(
    input.question,
    Object.fromEntries(usable.map((k) => [k, summary[k]])),
  );
  let answer: string;
  try {
    const model = await input.chatModel();
    const res = await model.complete(
      [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      { temperature: 0, signal: input.signal },
    );
    answer = res.text;
  } catch (err) {
    if (input.signal?.aborted) throw err;
    notes.push(`Automatic metadata filter skipped: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
  const parsed = parseAutoConditions(answer, usable);
  if (!parsed) notes.push('Automatic metadata filter skipped: the model answered no usable conditions.');
  return parsed && parsed.conditions.length > 0 ? parsed : null;
}

/**
 * The documents a retrieval may search under the filters. `docIds: []` means no document passes
 * (the retrieval answers nothing); `null` means no filter applied.
 */
export async function resolveMetaFilters(
  ctx: AppContext,
  input: MetaFilterInput,
): Promise<MetaFilterOutcome> {
  const filters = input.filters.filter((f): f is NormalizedMetaFilter => f !== null);
  const outcome: MetaFilterOutcome = { docIds: null, applied: [], notes: [] };
  if (filters.length === 0 || input.kbIds.length === 0) return outcome;
  const docs = await documentsOf(ctx, input.kbIds, input.docIds);
  for (const f of filters) {
    const set =
      f.method === 'manual'
        ? { logic: f.logic, conditions: f.conditions }
        : await autoConditions(
            input,
            docs.map((d) => d.meta),
            f.keys,
            outcome.notes,
          );
    if (set) outcome.applied.push(set);
  }
  if (outcome.applied.length === 0) return outcome;
  const tests = outcome.applied.map((s) => metaPredicate(s.conditions, s.logic));
  outcome.docIds = docs.filter((d) => tests.every((test) => test(d.meta))).map((d) => d.id);
  return outcome;
}
