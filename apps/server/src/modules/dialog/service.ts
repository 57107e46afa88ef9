import { sql, type Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DialogTable } from '../../db/tables/chat.js';
import type { DialogConfig, PromptConfig } from '../../chat/types.js';
import { parseJson, toJson } from '../../db/json.js';
import { maskSecret } from '../../security/secrets.js';
import { errors } from '../../http/envelope.js';
import {
  accessScopeOf,
  assertDialogsRemovable,
  loadDialog,
  loadKbs,
  readableCanvases,
  readableDialogs,
  refusals,
  type Action,
} from '../../policy/index.js';
import { RETRIEVAL_DEFAULTS } from '../../search/retrieval-defaults.js';
import { newId } from '../../util/ids.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { ownedTenant } from '../user/service.js';
import { DEFAULT_LLM_SETTING, DEFAULT_PROMPT_CONFIG, type BodyOf, type contract } from '@lectern/shared';

type DialogSetBody = BodyOf<typeof contract.dialog.set>;

export type DialogRow = Selectable<DialogTable>;

/** A new assistant's retrieval settings (API.md §8, §19.12 chat row). */
const CHAT_DEFAULTS = RETRIEVAL_DEFAULTS.chat;

/** A dialog row with its JSON columns parsed. */
export function dialogConfigOf(row: DialogRow): DialogConfig {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    llm_id: row.llm_id,
    llm_setting: parseJson<Record<string, unknown>>(row.llm_setting, {}),
    prompt_config: { ...DEFAULT_PROMPT_CONFIG, ...parseJson<Partial<PromptConfig>>(row.prompt_config, {}) },
    kb_ids: parseJson<string[]>(row.kb_ids, []),
    top_n: row.top_n,
    top_k: row.top_k,
    similarity_threshold: row.similarity_threshold,
    vector_similarity_weight: row.vector_similarity_weight,
    rerank_id: row.rerank_id,
    meta_data_filter: parseJson<Record<string, unknown>>(row.meta_data_filter, {}),
  };
}

/** A live (status "1") dialog of the caller's own tenant, or 102 "Dialog not found!". */
export async function ownedDialog(
  ctx: AppContext,
  userId: string,
  dialogId: unknown,
  action: Action = 'read',
): Promise<DialogRow> {
  const db = ctx.db.kysely;
  return loadDialog(db, await accessScopeOf(db, userId), dialogId, action, refusals.dialogNotFound);
}

/** The live KBs among `kbIds`, in the given order (a KB deleted under an assistant disappears). */
export async function liveKbs(ctx: AppContext, kbIds: string[]) {
  if (kbIds.length === 0) return [];
  const rows = await ctx.db.kysely
    .selectFrom('knowledgebase')
    .select(['id', 'name', 'tenant_id', 'embd_id', 'permission', 'status'])
    .where('id', 'in', kbIds)
    .where('status', '=', '1')
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return kbIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** `kb_ids` and `kb_names` of live KBs, for presenters. */
export async function kbNamesOf(ctx: AppContext, kbIds: string[]) {
  const kbs = await liveKbs(ctx, kbIds);
  return { kb_ids: kbs.map((k) => k.id), kb_names: kbs.map((k) => k.name) };
}

function nameBytes(name: string): number {
  return Buffer.byteLength(name, 'utf8');
}

/** Name rules of API.md §8 with their 102 messages; returns the trimmed name. */
export function checkDialogName(name: unknown): string {
  if (typeof name !== 'string') throw errors.data('Dialog name must be string.');
  if (name.trim() === '') throw errors.data("Dialog name can't be empty.");
  if (nameBytes(name) > 255) {
    throw errors.data(`Dialog name length is ${nameBytes(name)} which is larger than 255`);
  }
  return name.trim();
}

/** `name`, or `name(1)`, `name(2)`… when a live dialog of the tenant already has it (any case). */
async function uniqueName(ctx: AppContext, tenantId: string, name: string): Promise<string> {
  const rows = await ctx.db.kysely
    .selectFrom('dialog')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where('status', '=', '1')
    .execute();
  const taken = new Set(rows.map((r) => r.name.toLowerCase()));
  if (!taken.has(name.toLowerCase())) return name;
  for (let i = 1; ; i++) {
    const candidate = `${name}(${i})`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** llm_setting defaults: all of them when none is given, max_tokens 512 when only it is missing. */
export function normalizeLlmSetting(input: Record<string, unknown> | null | undefined) {
  if (!input || Object.keys(input).length === 0) return { ...DEFAULT_LLM_SETTING };
  return { ...input, max_tokens: input.max_tokens ?? DEFAULT_LLM_SETTING.max_tokens };
}

/**
 * The prompt rules of API.md §8 / SPEC §5 applied to the effective config:
 * `{knowledge}` parameter auto-set with KBs, empty response cleared without KBs, the update-only
 * `{knowledge}`-without-source refusal, and every required parameter used in `system`.
 */
export function applyPromptRules(config: PromptConfig, kbIds: string[], isUpdate: boolean): PromptConfig {
  const out: PromptConfig = { ...config, parameters: [...(config.parameters ?? [])] };
  out.parameters = out.parameters.map((p) => ({ ...p, optional: p.optional === true }));
  const system = out.system ?? '';
  if (kbIds.length > 0 && out.parameters.length === 0 && system.includes('{knowledge}')) {
    out.parameters = [{ key: 'knowledge', optional: false }];
  }
  if (kbIds.length === 0) out.empty_response = '';
  if (isUpdate && kbIds.length === 0 && !out.tavily_api_key && system.includes('{knowledge}')) {
    throw errors.data(
      'Please remove `{knowledge}` in system prompt since no dataset / web search used here.',
    );
  }
  for (const p of out.parameters) {
    if (p.optional) continue;
    if (!system.includes(`{${p.key}}`)) throw errors.data(`Parameter '${p.key}' is not used`);
  }
  return out;
}

/** The KBs an assistant may use: existing, visible to the caller, sharing one embedding model. */
async function checkKbs(ctx: AppContext, userId: string, kbIds: string[]): Promise<void> {
  if (kbIds.length === 0) return;
  const db = ctx.db.kysely;
  const kbs = await loadKbs(db, await accessScopeOf(db, userId), [...new Set(kbIds)], 'read');
  // "bge-m3@Ollama" and "bge-m3@Builtin" are the same model: compare names without the factory.
  const models = new Set(kbs.map((kb) => kb.embd_id.split('@')[0]));
  if (models.size > 1) {
    throw errors.data(`Datasets use different embedding models: ${kbs.map((kb) => kb.embd_id).join(', ')}`);
  }
}

/** POST /v1/dialog/set: create (no dialog_id) or update. Returns the stored row. */
export async function setDialog(ctx: AppContext, userId: string, body: DialogSetBody): Promise<DialogRow> {
  const isUpdate = typeof body.dialog_id === 'string' && body.dialog_id !== '';
  const name =
    'name' in body || !isUpdate ? checkDialogName('name' in body ? body.name : 'New Dialog') : undefined;
  const tenant = await ownedTenant(ctx, userId);
  const existing = isUpdate ? await ownedDialog(ctx, userId, body.dialog_id, 'manage') : undefined;
  const stored = existing ? dialogConfigOf(existing) : undefined;

  const kbIds = body.kb_ids ?? stored?.kb_ids ?? [];
  const incoming = stripNulls(body.prompt_config);
  // The key is shown masked; sending the mask back keeps the stored key.
  const storedKey = stored?.prompt_config?.tavily_api_key;
  if (typeof storedKey === 'string' && storedKey !== '' && incoming.tavily_api_key === maskSecret(storedKey))
    incoming.tavily_api_key = storedKey;
  const promptConfig = applyPromptRules(
    {
      ...DEFAULT_PROMPT_CONFIG,
      ...(stored?.prompt_config ?? {}),
      ...incoming,
    } as PromptConfig,
    kbIds,
    isUpdate,
  );
  await checkKbs(ctx, userId, body.kb_ids ?? []);

  if (!existing) {
    const row: DialogRow = {
      id: newId(),
      tenant_id: tenant.id,
      name: await uniqueName(ctx, tenant.id, name as string),
      description: body.description ?? 'A helpful dialog',
      icon: body.icon ?? '',
      language: body.language ?? 'English',
      llm_id: body.llm_id ?? tenant.llm_id,
      llm_setting: normalizeLlmSetting(body.llm_setting),
      prompt_type: body.prompt_type ?? 'simple',
      prompt_config: promptConfig,
      meta_data_filter: body.meta_data_filter ?? {},
      similarity_threshold: body.similarity_threshold ?? CHAT_DEFAULTS.similarityThreshold,
      vector_similarity_weight: body.vector_similarity_weight ?? CHAT_DEFAULTS.vectorSimilarityWeight,
      top_n: body.top_n ?? CHAT_DEFAULTS.size,
      top_k: body.top_k ?? CHAT_DEFAULTS.topK,
      do_refer: body.do_refer ?? '1',
      rerank_id: body.rerank_id ?? '',
      kb_ids: kbIds,
      status: '1',
      ...creationStamps(),
    };
    await ctx.db.kysely.insertInto('dialog').values(toRowValues(row)).execute();
    return row;
  }

  const changes: Partial<DialogRow> = { prompt_config: promptConfig, kb_ids: kbIds };
  if (name !== undefined) changes.name = name;
  if ('description' in body) changes.description = body.description ?? '';
  if ('icon' in body) changes.icon = body.icon ?? '';
  if (body.language !== undefined) changes.language = body.language;
  if (body.llm_id !== undefined && body.llm_id !== null) changes.llm_id = body.llm_id;
  if ('llm_setting' in body) changes.llm_setting = normalizeLlmSetting(body.llm_setting);
  if (body.prompt_type !== undefined) changes.prompt_type = body.prompt_type;
  if ('meta_data_filter' in body) changes.meta_data_filter = body.meta_data_filter ?? {};
  if (body.similarity_threshold !== undefined) changes.similarity_threshold = body.similarity_threshold;
  if ('vector_similarity_weight' in body)
    changes.vector_similarity_weight = body.vector_similarity_weight ?? CHAT_DEFAULTS.vectorSimilarityWeight;
  if (body.top_n !== undefined) changes.top_n = body.top_n;
  if (body.top_k !== undefined) changes.top_k = body.top_k;
  if (body.do_refer !== undefined) changes.do_refer = body.do_refer;
  if ('rerank_id' in body) changes.rerank_id = body.rerank_id ?? '';
  const stamps = updateStamps();
  await ctx.db.kysely
    .updateTable('dialog')
    .set({ ...toRowValues({ ...changes }), ...stamps })
    .where('id', '=', existing.id)
    .execute();
  return { ...existing, ...changes, ...stamps, ...jsonParsed(existing, changes) };
}

function stripNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

const JSON_COLUMNS = ['llm_setting', 'prompt_config', 'meta_data_filter', 'kb_ids'] as const;

/** JSON columns serialized for the database. */
function toRowValues<T extends Partial<DialogRow>>(row: T) {
  const out: Record<string, unknown> = { ...row };
  for (const c of JSON_COLUMNS) if (c in out) out[c] = toJson(out[c]);
  return out as Omit<T, (typeof JSON_COLUMNS)[number]> & Record<(typeof JSON_COLUMNS)[number], string>;
}

/** The JSON columns of a merged row, all parsed (the stored ones may still be text on SQLite). */
function jsonParsed(existing: DialogRow, changes: Partial<DialogRow>) {
  const out: Partial<DialogRow> = {};
  for (const c of JSON_COLUMNS) out[c] = c in changes ? changes[c] : parseJson(existing[c], null);
  return out;
}

export async function listDialogs(ctx: AppContext, userId: string): Promise<DialogRow[]> {
  const scope = await accessScopeOf(ctx.db.kysely, userId);
  return ctx.db.kysely
    .selectFrom('dialog')
    .selectAll()
    .where(readableDialogs(scope))
    .orderBy('create_time', 'desc')
    .execute();
}

const ORDERABLE = new Set(['create_time', 'update_time', 'name', 'top_n', 'similarity_threshold']);

export interface NextInput {
  keywords?: string;
  page?: number;
  page_size?: number;
  orderby?: string;
  desc?: string;
  owner_ids?: string[];
}

/** POST /v1/dialog/next: the caller's dialogs with owner nickname/avatar, filtered and paged. */
export async function nextDialogs(ctx: AppContext, userId: string, q: NextInput) {
  // Dialogs are private to their tenant: owner_ids can only narrow to the caller's own.
  const scope = await accessScopeOf(ctx.db.kysely, userId);
  const orderby = q.orderby && ORDERABLE.has(q.orderby) ? q.orderby : 'create_time';
  const desc = (q.desc ?? 'true').toLowerCase() !== 'false';
  let query = ctx.db.kysely
    .selectFrom('dialog')
    .innerJoin('user', 'user.id', 'dialog.tenant_id')
    .where(readableDialogs(scope, { alias: 'dialog', ownerIds: q.owner_ids }));
  if (q.keywords) {
    query = query.where(sql<boolean>`lower(dialog.name) like ${`%${q.keywords.toLowerCase()}%`}`);
  }
  const totalRow = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  let rows = query
    .selectAll('dialog')
    .select(['user.nickname as nickname', 'user.avatar as tenant_avatar'])
    .orderBy(sql.ref(`dialog.${orderby}`), desc ? 'desc' : 'asc');
  if (q.page && q.page_size) rows = rows.limit(q.page_size).offset((q.page - 1) * q.page_size);
  return { rows: await rows.execute(), total: Number(totalRow?.n ?? 0) };
}

/** POST /v1/dialog/rm: soft delete, all or nothing; any id not owned → 103. */
export async function removeDialogs(ctx: AppContext, userId: string, ids: string[]): Promise<void> {
  const scope = await accessScopeOf(ctx.db.kysely, userId);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const unique = [...new Set(ids)];
    await assertDialogsRemovable(trx, scope, unique);
    if (unique.length === 0) return;
    await trx
      .updateTable('dialog')
      .set({ status: '0', ...updateStamps() })
      .where('id', 'in', unique)
      .execute();
  });
}

/**
 * GET /v1/dialog/list-public-agent: agents usable from chat — the caller's own canvases and "team"
 * canvases of its teams (the policy's canvas rule), category `agent_canvas`.
 */
export async function publicAgents(
  ctx: AppContext,
  userId: string,
  q: { keywords?: string; page?: number; page_size?: number },
) {
  const scope = await accessScopeOf(ctx.db.kysely, userId);
  let query = ctx.db.kysely
    .selectFrom('user_canvas')
    .innerJoin('user', 'user.id', 'user_canvas.user_id')
    .where(readableCanvases(scope, { alias: 'user_canvas' }))
    .where('user_canvas.canvas_category', '=', 'agent_canvas');
  if (q.keywords)
    query = query.where(sql<boolean>`lower(user_canvas.title) like ${`%${q.keywords.toLowerCase()}%`}`);
  let rows = query
    .select([
      'user_canvas.id',
      'user_canvas.title',
      'user_canvas.avatar',
      'user_canvas.description',
      'user_canvas.permission',
      'user_canvas.user_id',
      'user_canvas.update_time',
      'user.nickname as nickname',
      'user.avatar as tenant_avatar',
    ])
    .orderBy('user_canvas.update_time', 'desc');
  if (q.page && q.page_size) rows = rows.limit(q.page_size).offset((q.page - 1) * q.page_size);
  return rows.execute();
}
