/**
 * `document/list` and `document/filter` (API.md §6): keyword, time, run-status, type and suffix
 * filters in SQL; metadata filters (`metadata`, `metadata_condition`, empty metadata) over the
 * documents' meta_fields; `total` before paging.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../db/json.js';
import {
  fromMetadataCondition,
  metaHolds,
  type MetaCondition,
  type MetaLogic,
} from '../../search/metadata-conditions.js';
import { errors } from '../../http/envelope.js';
import { nameContains, pageOf, type ListQuery } from '../kb/paging.js';
import type { DocumentTable } from '../../db/tables/knowledge.js';
import { DOCUMENT_TYPES, RUN_STATUSES, type BodyOf, type contract } from '@lectern/shared';

type ListDocBody = BodyOf<typeof contract.document.list>;

export const DOC_ORDER_COLUMNS = [
  'create_time',
  'update_time',
  'name',
  'size',
  'chunk_num',
  'token_num',
  'progress',
  'run',
  'type',
  'suffix',
  'process_begin_at',
] as const;

export interface DocFilter {
  keywords: string;
  createFrom: number;
  createTo: number;
  runStatus: string[];
  types: string[];
  suffix: string[];
  metadata: Record<string, unknown> | null;
  /** `metadata_condition` in the shared condition language (search/metadata-conditions.ts). */
  condition: { logic: MetaLogic; conditions: MetaCondition[] } | null;
  emptyMetadata: boolean;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The filters of a list request, with the contract's messages for invalid ones. */
export function docFilterOf(q: Record<string, unknown>, body: ListDocBody, keywords: string): DocFilter {
  const runStatus = (body.run_status ?? []).map(String);
  const badRun = [...new Set(runStatus.filter((s) => !(RUN_STATUSES as readonly string[]).includes(s)))];
  if (badRun.length > 0) throw errors.data(`Invalid filter run status conditions: ${badRun.join(', ')}`);
  const types = body.types ?? [];
  const badTypes = [...new Set(types.filter((t) => !(DOCUMENT_TYPES as readonly string[]).includes(t)))];
  if (badTypes.length > 0) {
    throw errors.data(
      `Invalid filter conditions: ${badTypes.join(', ')} type${badTypes.length > 1 ? 's' : ''}`,
    );
  }
  if (
    body.metadata_condition !== undefined &&
    body.metadata_condition !== null &&
    !isObj(body.metadata_condition)
  ) {
    throw errors.data('metadata_condition must be an object.');
  }
  if (body.metadata !== undefined && body.metadata !== null && !isObj(body.metadata)) {
    throw errors.data('metadata must be an object.');
  }
  const metadata = isObj(body.metadata) ? { ...body.metadata } : null;
  let emptyMetadata = body.return_empty_metadata === true;
  if (metadata && 'empty_metadata' in metadata) {
    emptyMetadata = emptyMetadata || metadata.empty_metadata === true;
    delete metadata.empty_metadata;
  }
  const condition = fromMetadataCondition(body.metadata_condition);
  const num = (v: unknown) => (v === undefined || v === null || v === '' ? 0 : Number(v) || 0);
  return {
    keywords,
    createFrom: num(q.create_time_from),
    createTo: num(q.create_time_to),
    runStatus,
    types,
    suffix: (body.suffix ?? []).map((s) => s.replace(/^\./, '').toLowerCase()),
    metadata: metadata && Object.keys(metadata).length > 0 ? metadata : null,
    condition: condition?.method === 'manual' ? condition : null,
    emptyMetadata,
  };
}

function metaMatches(meta: Record<string, unknown>, f: DocFilter): boolean {
  const empty = Object.keys(meta).length === 0;
  const checks: boolean[] = [];
  if (f.metadata) {
    checks.push(
      Object.entries(f.metadata).every(([key, wanted]) => {
        const options = (Array.isArray(wanted) ? wanted : [wanted]).map(String);
        const have = meta[key];
        const values = (Array.isArray(have) ? have : [have]).filter((v) => v !== undefined).map(String);
        return values.some((v) => options.includes(v));
      }),
    );
  }
  if (f.condition) {
    checks.push(metaHolds(meta, f.condition.conditions, f.condition.logic));
  }
  const matched = checks.length === 0 ? !f.emptyMetadata : checks.every(Boolean);
  return matched || (f.emptyMetadata && empty);
}

export async function listDocs(ctx: AppContext, kbId: string, q: ListQuery, f: DocFilter) {
  let base = ctx.db.kysely.selectFrom('document as d').where('d.kb_id', '=', kbId);
  if (f.keywords) base = base.where(nameContains('d.name', f.keywords));
  if (f.createFrom > 0) base = base.where('d.create_time', '>=', f.createFrom);
  if (f.createTo > 0) base = base.where('d.create_time', '<=', f.createTo);
  if (f.runStatus.length > 0) base = base.where('d.run', 'in', f.runStatus);
  if (f.types.length > 0) base = base.where('d.type', 'in', f.types);
  if (f.suffix.length > 0) base = base.where('d.suffix', 'in', f.suffix);
  const needsMeta = f.metadata !== null || f.condition !== null || f.emptyMetadata;
  const ordered = base
    .leftJoin('user as u', 'u.id', 'd.created_by')
    .selectAll('d')
    .select('u.nickname as nickname')
    .orderBy(q.orderby === 'name' ? sql`lower(d.name)` : sql.ref(`d.${q.orderby}`), q.desc ? 'desc' : 'asc')
    .orderBy('d.id');
  if (!needsMeta) {
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const paged =
      q.page > 0 && q.pageSize > 0 ? ordered.limit(q.pageSize).offset((q.page - 1) * q.pageSize) : ordered;
    return {
      total: Number(count?.n ?? 0),
      docs: (await paged.execute()) as Array<DocumentTable & { nickname: string | null }>,
    };
  }
  const all = (await ordered.execute()) as Array<DocumentTable & { nickname: string | null }>;
  const kept = all.filter((d) => metaMatches(parseJson<Record<string, unknown>>(d.meta_fields, {}), f));
  return { total: kept.length, docs: pageOf(kept, q) };
}

/** `document/filter`: counts of run statuses, suffixes and metadata values over the filtered documents. */
export async function filterSummary(ctx: AppContext, kbId: string, f: DocFilter) {
  const { docs, total } = await listDocs(
    ctx,
    kbId,
    { page: 0, pageSize: 0, orderby: 'create_time', desc: true, keywords: f.keywords },
    f,
  );
  const run_status: Record<string, number> = {};
  const suffix: Record<string, number> = {};
  const metadata: Record<string, Record<string, number>> = {};
  for (const d of docs) {
    run_status[d.run] = (run_status[d.run] ?? 0) + 1;
    suffix[d.suffix] = (suffix[d.suffix] ?? 0) + 1;
    for (const [k, v] of Object.entries(parseJson<Record<string, unknown>>(d.meta_fields, {}))) {
      for (const item of Array.isArray(v) ? v : [v]) {
        metadata[k] ??= {};
        metadata[k][String(item)] = (metadata[k][String(item)] ?? 0) + 1;
      }
    }
  }
  return { total, filter: { run_status, suffix, metadata } };
}
