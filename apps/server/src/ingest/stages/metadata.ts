/**
 * Metadata extraction after chunking (API.md §19.7 "metadata extraction when `enable_metadata`"):
 * when the KB's (or the document's own) parser_config has `enable_metadata` on and metadata settings
 * (`kb/update_metadata_setting`, or the document's `document/update_metadata_setting`), the chat
 * model (`llm_id`, else the tenant's default) reads the task's text and answers the listed fields as
 * JSON; the values are merged into the document's metadata — `document.meta_fields`, the store
 * `document/metadata/update` and `set_meta` write — so metadata filters see them. A model failure or
 * an unusable answer is one line in the parse progress; the parse goes on.
 *
 * Settings accepted: a JSON schema `{type:"object", properties:{key:{type, description, enum}}}`, a
 * list `[{key, description, enum}]`, or a map `{key: description}`.
 */
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { parseJson, toJson } from '../../db/json.js';
import { lockRow } from '../../db/locks.js';
import type { DocumentTable, KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { defaultModelId, modelFor } from '../../models/registry.js';
import type { TaskProgress } from '../../queue/progress.js';
import { updateStamps } from '../../util/time.js';
import type { ChunkDraft } from '../types.js';

export interface MetaField {
  key: string;
  description: string;
  /** `string` (default), `number`, or `list` (several values). */
  type: 'string' | 'number' | 'list';
  /** Allowed values, when the setting restricts them. */
  options: string[] | null;
}

type MetaValue = string | number | Array<string | number>;

/** Characters of the task's text the model reads. */
const TEXT_BUDGET = 12_000;

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function fieldOf(key: unknown, spec: unknown): MetaField | null {
  if (typeof key !== 'string' || key.trim() === '') return null;
  const s = isObj(spec) ? spec : { description: spec };
  const rawType = typeof s.type === 'string' ? s.type.toLowerCase() : 'string';
  const type =
    rawType === 'number' || rawType === 'integer'
      ? 'number'
      : rawType === 'array' || rawType === 'list'
        ? 'list'
        : 'string';
  const items = isObj(s.items) ? s.items : {};
  const options = Array.isArray(s.enum) ? s.enum : Array.isArray(items.enum) ? items.enum : null;
  return {
    key: key.trim(),
    description: typeof s.description === 'string' ? s.description : '',
    type,
    options: options ? options.map(String) : null,
  };
}

/** The fields a metadata setting lists (empty when it lists none). */
export function metadataFields(setting: unknown): MetaField[] {
  let fields: Array<MetaField | null> = [];
  if (Array.isArray(setting)) {
    fields = setting.map((item) => (isObj(item) ? fieldOf(item.key ?? item.name, item) : null));
  } else if (isObj(setting)) {
    const props = isObj(setting.properties) ? setting.properties : setting.type === undefined ? setting : {};
    fields = Object.entries(props).map(([k, v]) => fieldOf(k, v));
  }
  const seen = new Set<string>();
  return fields.filter((f): f is MetaField => f !== null && !seen.has(f.key) && !!seen.add(f.key));
}

export function metadataPrompt(fields: MetaField[], text: string): { system: string; user: string } {
  const lines = fields.map((f) => {
    const kind = f.type === 'list' ? 'a list of values' : f.type === 'number' ? 'a number' : 'a short text';
    const options = f.options ? `; one of: ${f.options.map((o) => JSON.stringify(o)).join(', ')}` : '';
    return `- ${JSON.stringify(f.key)} (${kind}${options})${f.description ? `: ${f.description}` : ''}`;
  });
  return {
    system: [
      'You extract metadata of a document from its text.',
      'Answer with one JSON object whose keys are among the fields listed, nothing else.',
      'Leave out a field the text does not state. Use the language of the text for values.',
    ].join('\n'),
    user: `Fields:\n${lines.join('\n')}\n\nText:\n${text}\n\nJSON:`,
  };
}

function scalarOf(v: unknown, f: MetaField): string | number | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  if (f.type === 'number') {
    const n = typeof v === 'number' ? v : Number(v.replace(/[, ]/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  const s = String(v).trim();
  if (s === '') return null;
  if (f.options) return f.options.find((o) => o.toLowerCase() === s.toLowerCase()) ?? null;
  return s;
}

/** The model's answer kept to the fields, their types and allowed values; null when not JSON. */
export function parseMetadataAnswer(answer: string, fields: MetaField[]): Record<string, MetaValue> | null {
  const clean = answer.replace(/<think>[\s\S]*?<\/think>/g, '');
  const start = clean.indexOf('{');
  const end = clean.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(clean.slice(start, end + 1));
  } catch {
    return null;
  }
  if (!isObj(parsed)) return null;
  const out: Record<string, MetaValue> = {};
  for (const f of fields) {
    const raw = parsed[f.key];
    const values = (Array.isArray(raw) ? raw : [raw])
      .map((v) => scalarOf(v, f))
      .filter((v): v is string | number => v !== null);
    if (values.length === 0) continue;
    out[f.key] = f.type === 'list' ? [...new Set(values)] : values[0];
  }
  return out;
}

/** Existing values and extracted ones together: equal values once, different ones as a list. */
export function mergeMetadata(
  before: Record<string, MetaValue>,
  found: Record<string, MetaValue>,
): Record<string, MetaValue> {
  const after: Record<string, MetaValue> = { ...before };
  for (const [key, value] of Object.entries(found)) {
    const had = key in before ? (Array.isArray(before[key]) ? before[key] : [before[key]]) : [];
    const add = Array.isArray(value) ? value : [value];
    const all = [...had];
    for (const v of add) if (!all.some((x) => String(x) === String(v))) all.push(v);
    after[key] = all.length === 1 && !Array.isArray(value) ? all[0] : all;
  }
  return after;
}

/** Whether extraction runs for this document, and over which fields. */
export function metadataPlan(doc: DocumentTable, kb: KnowledgebaseTable): MetaField[] {
  const docConfig = parseJson<Record<string, unknown>>(doc.parser_config, {});
  const kbConfig = parseJson<Record<string, unknown>>(kb.parser_config, {});
  if (docConfig.enable_metadata !== true && kbConfig.enable_metadata !== true) return [];
  const own = metadataFields(docConfig.metadata);
  return own.length > 0 ? own : metadataFields(kbConfig.metadata);
}

export async function extractMetadata(
  ctx: AppContext,
  doc: DocumentTable,
  kb: KnowledgebaseTable,
  llmId: string,
  drafts: ChunkDraft[],
  progress: TaskProgress,
  signal: AbortSignal,
): Promise<void> {
  const fields = metadataPlan(doc, kb);
  if (fields.length === 0 || drafts.length === 0) return;
  await progress.report(null, progressMessage('metadataStart'));
  const started = Date.now();
  let text = '';
  for (const d of drafts) {
    if (text.length >= TEXT_BUDGET) break;
    text += `${d.content_with_weight}\n`;
  }
  let found: Record<string, MetaValue> | null;
  try {
    const id = llmId || (await defaultModelId(ctx, kb.tenant_id, 'chat'));
    const model = await modelFor(ctx, kb.tenant_id, id, 'chat');
    const { system, user } = metadataPrompt(fields, text.slice(0, TEXT_BUDGET));
    const res = await model.complete(
      [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      { temperature: 0, signal },
    );
    found = parseMetadataAnswer(res.text, fields);
  } catch (err) {
    if (signal.aborted) throw err;
    const why = err instanceof Error ? err.message : String(err);
    await progress.report(null, progressMessage('metadataFailed', { error: why }));
    return;
  }
  if (!found) {
    await progress.report(null, progressMessage('metadataNoJson'));
    return;
  }
  const extracted = found;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await lockRow(trx, ctx.db.dialect, 'document', doc.id);
    const row = await trx
      .selectFrom('document')
      .select('meta_fields')
      .where('id', '=', doc.id)
      .executeTakeFirst();
    if (!row) return;
    const before = parseJson<Record<string, MetaValue>>(row.meta_fields, {});
    const after = mergeMetadata(before, extracted);
    if (JSON.stringify(after) === JSON.stringify(before)) return;
    await trx
      .updateTable('document')
      .set({ meta_fields: toJson(after), ...updateStamps() })
      .where('id', '=', doc.id)
      .execute();
  });
  const keys = Object.keys(extracted).sort();
  const seconds = ((Date.now() - started) / 1000).toFixed(2);
  await progress.report(
    null,
    keys.length > 0
      ? progressMessage('metadataGenerated', { keys: keys.join(', '), seconds })
      : progressMessage('metadataNone', { seconds }),
  );
}
