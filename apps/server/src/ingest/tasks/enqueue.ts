/**
 * Turning `run "1"` into task rows (API.md §19.8): PDFs split into `task_page_size`-page tasks within
 * the page ranges (clipped to the page count), the table method into 3000-row tasks, everything else
 * one whole-document task. Each task carries a digest of its chunking config and range; a finished
 * task of the previous run with the same digest is reused with its chunks, the other old tasks'
 * chunks are deleted.
 */
import { xxh64 } from '@node-rs/xxhash';
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../db/json.js';
import type { TaskTable } from '../../db/types.js';
import type { DocumentTable, KnowledgebaseTable } from '../../db/tables/knowledge.js';
import { newId } from '../../util/ids.js';
import { documentBlobKey } from '../../storage/blob-refs.js';
import { creationStamps, updateStamps } from '../../util/time.js';
import { logLine, WHOLE_DOCUMENT_END } from '../../queue/log.js';
import { effectiveParserConfig } from '../parser-config.js';

export const TABLE_ROWS_PER_TASK = 3000;

export interface Range {
  from: number;
  to: number;
}

export interface SplitInput {
  suffix: string;
  parserId: string;
  config: Record<string, unknown>;
  pageCount?: number;
  rowCount?: number;
}

/** Whole-document methods and non-default layouts are never split (API.md §19.8). */
function pdfIsSplit(parserId: string, config: Record<string, unknown>): boolean {
  if (parserId === 'one' || parserId === 'knowledge_graph') return false;
  const layout = config.layout_recognize;
  if (layout !== undefined && layout !== null && layout !== 'DeepDOC') return false;
  return config.toc_extraction !== true;
}

/** The task ranges of one document. Empty when every page range lies beyond the document. */
export function splitRanges(input: SplitInput): Range[] {
  const whole = [{ from: 0, to: WHOLE_DOCUMENT_END }];
  if (input.suffix === 'pdf' && input.pageCount !== undefined) {
    const pageSize = Math.max(
      1,
      Number(input.config.task_page_size) || (input.parserId === 'paper' ? 22 : 12),
    );
    const size = pdfIsSplit(input.parserId, input.config) ? pageSize : Number.MAX_SAFE_INTEGER;
    const pages =
      Array.isArray(input.config.pages) && input.config.pages.length > 0 ? input.config.pages : [[1, 100000]];
    const out: Range[] = [];
    for (const range of pages as unknown[]) {
      const [a, b] = Array.isArray(range) ? range : [1, 100000];
      const start = Math.max(0, Number(a) - 1);
      const end = Math.min(Number(b), input.pageCount);
      for (let p = start; p < end; p += size) out.push({ from: p, to: Math.min(p + size, end) });
    }
    return out;
  }
  if (input.parserId === 'table' && input.rowCount !== undefined && input.rowCount > 0) {
    const out: Range[] = [];
    for (let r = 0; r < input.rowCount; r += TABLE_ROWS_PER_TASK) {
      out.push({ from: r, to: Math.min(r + TABLE_ROWS_PER_TASK, input.rowCount) });
    }
    return out;
  }
  return whole;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Hash of what decides a task's chunks: method, config (minus RAPTOR/graph), model, language, doc, range. */
export function taskDigest(doc: DocumentTable, kb: KnowledgebaseTable, range: Range): string {
  const {
    raptor: _r,
    graphrag: _g,
    ...config
  } = effectiveParserConfig(doc.parser_id, parseJson<Record<string, unknown>>(doc.parser_config, {}));
  void _r;
  void _g;
  const key = stable({ parser_id: doc.parser_id, config, embd_id: kb.embd_id, language: kb.language });
  return xxh64(`${key}|${doc.id}|${range.from}|${range.to}`).toString(16).padStart(16, '0');
}

/** Page count (PDF) or data-row count (table method) from a parse worker; undefined when unreadable. */
async function probe(ctx: AppContext, doc: DocumentTable) {
  const needPages = doc.suffix === 'pdf';
  const needRows = doc.parser_id === 'table' && ['xlsx', 'csv', 'txt'].includes(doc.suffix);
  if (!needPages && !needRows) return {};
  const key = documentBlobKey(doc);
  const bytes = key ? await ctx.blobs.get(key) : null;
  if (!bytes) return {};
  try {
    return await ctx.parsePool.run<{ pageCount?: number; rowCount?: number }>(
      'probe',
      { bytes, ext: doc.suffix, docKey: key },
      { timeoutMs: 120_000, affinity: key ?? undefined },
    );
  } catch {
    // An unreadable file becomes one whole-document task, which then fails with the parser's message.
    return {};
  }
}

/**
 * Chunks the counters count among a reused task's ids: with child chunks or a table of contents the
 * ids also name records people do not see as chunks (children, the TOC record), read to tell them apart.
 */
async function countedChunks(
  ctx: AppContext,
  config: Record<string, unknown>,
  kept: Set<string>,
): Promise<number> {
  if (kept.size === 0 || (!config.children_delimiter && config.toc_extraction !== true)) return kept.size;
  const records = await ctx.chunkIndex.getMany([...kept]);
  return records.filter((r) => !r.mom_id && !r.knowledge_graph_kwd).length;
}

export interface QueueOptions {
  /** Clear the document's chunks and tasks first (no reuse). */
  clear: boolean;
  priority?: number;
}

/**
 * Queues a document for parsing: plans its tasks, reuses finished ones with the same digest, deletes
 * the chunks no new task keeps (before any worker can see the new tasks), and resets the document
 * to run "1" with counters equal to the reused chunks.
 */
export async function queueDocument(
  ctx: AppContext,
  doc: DocumentTable,
  kb: KnowledgebaseTable,
  opts: QueueOptions,
): Promise<void> {
  // Queuing runs on SQLite calls that never wait on I/O: without this turn, `document/run` of 100
  // small documents held the event loop for ~0.6 s (every other request waited behind it).
  await new Promise<void>((resolve) => setImmediate(resolve));
  const config: Record<string, unknown> = effectiveParserConfig(
    doc.parser_id,
    parseJson<Record<string, unknown>>(doc.parser_config, {}),
  );
  const counts = await probe(ctx, doc);
  const ranges = splitRanges({ suffix: doc.suffix, parserId: doc.parser_id, config, ...counts });
  const now = Date.now();
  const old = await ctx.db.kysely
    .selectFrom('task')
    .selectAll()
    .where('doc_id', '=', doc.id)
    .where('kind', '=', 'parse')
    .execute();
  const reusable = new Map<string, TaskTable>();
  if (!opts.clear) for (const t of old) if (t.progress >= 1 && t.digest) reusable.set(t.digest, t);
  const rows: TaskTable[] = [];
  const kept = new Set<string>();
  let keptTokens = 0;
  ranges.forEach((range, i) => {
    const digest = taskDigest(doc, kb, range);
    const prev = reusable.get(digest);
    reusable.delete(digest);
    const base = {
      id: newId(),
      doc_id: doc.id,
      kb_id: kb.id,
      tenant_id: kb.tenant_id,
      from_page: range.from,
      to_page: range.to,
      kind: 'parse',
      payload: '{}',
      priority: opts.priority ?? 0,
      begin_at: null,
      process_duration: 0,
      retry_count: 0,
      digest,
      cancel: 0,
      lease_owner: null,
      lease_until: null,
      // One millisecond apart so creation order (the queue order) follows the page order.
      ...creationStamps(now + i),
    };
    if (prev) {
      for (const id of prev.chunk_ids.split(' ').filter(Boolean)) kept.add(id);
      keptTokens += prev.token_num;
      rows.push({
        ...base,
        progress: 1,
        progress_msg: logLine({ from_page: range.from, to_page: range.to }, progressMessage('reusedChunks')),
        chunk_ids: prev.chunk_ids,
        token_num: prev.token_num,
      });
    } else {
      rows.push({ ...base, progress: 0, progress_msg: '', chunk_ids: '', token_num: 0 });
    }
  });

  const index = ctx.chunkIndex;
  if (opts.clear) await index.deleteByDoc(doc.id);
  else {
    const drop = [...new Set(old.flatMap((t) => t.chunk_ids.split(' ').filter((id) => id && !kept.has(id))))];
    if (drop.length > 0) await index.deleteByIds(kb.id, drop);
  }

  const allDone = rows.every((r) => r.progress >= 1);
  const chunkNum = await countedChunks(ctx, config, kept);
  const tokenNum = keptTokens;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('task').where('doc_id', '=', doc.id).where('kind', '=', 'parse').execute();
    if (rows.length > 0) await trx.insertInto('task').values(rows).execute();
    const fresh = await trx
      .selectFrom('document')
      .select(['chunk_num', 'token_num'])
      .where('id', '=', doc.id)
      .executeTakeFirst();
    await trx
      .updateTable('knowledgebase')
      .set((eb) => ({
        chunk_num: eb('chunk_num', '+', chunkNum - Number(fresh?.chunk_num ?? 0)),
        token_num: eb('token_num', '+', tokenNum - Number(fresh?.token_num ?? 0)),
      }))
      .where('id', '=', kb.id)
      .execute();
    const doneMsg =
      rows.length === 0
        ? logLine(WHOLE, progressMessage('noPagesInRanges'))
        : rows.map((r) => r.progress_msg).join('\n');
    await trx
      .updateTable('document')
      .set({
        run: allDone ? '3' : '1',
        progress: allDone ? 1 : Math.random() * 0.01,
        progress_msg: allDone ? doneMsg : progressMessage('taskQueued'),
        process_begin_at: now,
        process_duration: 0,
        chunk_num: chunkNum,
        token_num: tokenNum,
        ...updateStamps(now),
      })
      .where('id', '=', doc.id)
      .execute();
  });
  ctx.queue.notifyQueued();
}

const WHOLE = { from_page: 0, to_page: WHOLE_DOCUMENT_END };
