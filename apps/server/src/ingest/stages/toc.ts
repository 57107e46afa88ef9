/**
 * Table of contents per document (`toc_extraction`, API.md §19.6; used by `toc_enhance` retrieval,
 * search/toc-enhance.ts), as RAGFlow does it: after chunking, the chat model reads the document's
 * chunks (numbered, each shortened) and answers the headings with their levels, each pointing to the
 * chunks it covers. The TOC is stored as one index record of the document (`knowledge_graph_kwd`
 * `toc`, disabled so no search ever matches it, JSON entries in `content_with_weight`), so it goes
 * with the document's chunks when those are deleted or re-parsed.
 *
 * A model failure, an unreadable answer or an answer without usable entries writes a log line and
 * the parse goes on without a TOC; malformed entries are skipped and counted.
 */
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { ChunkRecord } from '../../chunk-index/chunk-index.js';
import type { ChatModel } from '../../models/ports.js';
import { modelFor } from '../../models/registry.js';
import type { TaskProgress } from '../../queue/progress.js';
import type { ChunkDraft } from '../types.js';

export const TOC_KIND = 'toc';

export interface TocEntry {
  title: string;
  /** 1 = top level. */
  level: number;
  /** Chunks under this heading (parents when the KB uses child chunks). */
  chunk_ids: string[];
}

/** Characters of each chunk shown to the model, and of one prompt's chunk list. */
const SNIPPET_CHARS = 300;
const BATCH_CHARS = 12_000;
const MAX_LEVEL = 6;
const MAX_TITLE = 200;

export function tocPrompt(snippets: Array<{ n: number; text: string }>): string {
  return [
    'You extract the table of contents of a document from its chunks.',
    'Each chunk below starts with its number in square brackets. Find the headings of the document',
    '(chapters, sections, sub-sections) in reading order, with their level (1 = top level) and the',
    'numbers of the chunks each heading covers.',
    'Answer with a JSON array only, no other text, like:',
    '[{"title": "Introduction", "level": 1, "chunks": [0, 1]}, {"title": "Scope", "level": 2, "chunks": [1]}]',
    '',
    'Chunks:',
    ...snippets.map((s) => `[${s.n}] ${s.text}`),
  ].join('\n');
}

/** Groups chunk snippets into prompts of at most BATCH_CHARS characters. */
export function tocBatches(texts: string[]): Array<Array<{ n: number; text: string }>> {
  const batches: Array<Array<{ n: number; text: string }>> = [];
  let current: Array<{ n: number; text: string }> = [];
  let size = 0;
  texts.forEach((t, n) => {
    const text = t
      .replace(/<[^>]{0,2000}>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, SNIPPET_CHARS);
    if (current.length > 0 && size + text.length > BATCH_CHARS) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push({ n, text });
    size += text.length + 8;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

/** The first JSON array in a model answer (code fences and chatter around it allowed), or null. */
function jsonArrayOf(answer: string): unknown[] | null {
  const text = answer.replace(/```(?:json)?/gi, '');
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start < 0 || end <= start) return null;
  try {
    const parsed: unknown = JSON.parse(text.slice(start, end + 1));
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function chunkNumbers(v: unknown): number[] {
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return list
    .map((x) => (typeof x === 'string' && /^\s*\d+\s*$/.test(x) ? Number(x) : x))
    .filter((x): x is number => typeof x === 'number' && Number.isInteger(x));
}

export interface ParsedToc {
  entries: Array<{ title: string; level: number; chunks: number[] }>;
  /** Entries of the answer that were not usable (no title, bad level, no valid chunk). */
  skipped: number;
  /** False when the answer held no JSON array at all. */
  readable: boolean;
}

/** Entries of a model answer; chunk numbers outside 0..chunkCount−1 are dropped. */
export function parseTocAnswer(answer: string, chunkCount: number): ParsedToc {
  const items = jsonArrayOf(answer);
  if (!items) return { entries: [], skipped: 0, readable: false };
  const entries: ParsedToc['entries'] = [];
  let skipped = 0;
  for (const item of items) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      skipped++;
      continue;
    }
    const o = item as Record<string, unknown>;
    const title = typeof o.title === 'string' ? o.title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) : '';
    const rawLevel = typeof o.level === 'string' ? Number(o.level) : o.level;
    const level = typeof rawLevel === 'number' && Number.isInteger(rawLevel) ? rawLevel : NaN;
    const chunks = [
      ...new Set(chunkNumbers(o.chunks ?? o.chunk ?? o.chunk_ids).filter((n) => n >= 0 && n < chunkCount)),
    ];
    if (!title || !(level >= 1) || chunks.length === 0) {
      skipped++;
      continue;
    }
    entries.push({ title, level: Math.min(level, MAX_LEVEL), chunks });
  }
  return { entries, skipped, readable: true };
}

/** The stored TOC entries of a TOC record's content (empty for anything unreadable). */
export function tocEntriesOf(content: string): TocEntry[] {
  try {
    const parsed: unknown = JSON.parse(content);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (e): e is TocEntry =>
        !!e &&
        typeof e === 'object' &&
        typeof (e as TocEntry).title === 'string' &&
        typeof (e as TocEntry).level === 'number' &&
        Array.isArray((e as TocEntry).chunk_ids),
    );
  } catch {
    return [];
  }
}

/** The document's TOC record (one per document: its id is derived from the document id). */
export function tocRecord(
  base: Pick<ChunkRecord, 'doc_id' | 'kb_id' | 'tenant_id' | 'docnm_kwd'>,
  id: string,
  entries: TocEntry[],
  now: number,
): ChunkRecord {
  return {
    ...base,
    id,
    content_with_weight: JSON.stringify(entries),
    important_kwd: [],
    question_kwd: [],
    tag_kwd: [],
    tag_feas: {},
    img_id: '',
    positions: [],
    available_int: 0,
    create_time: now,
    doc_type_kwd: null,
    mom_id: null,
    pagerank_fea: 0,
    knowledge_graph_kwd: TOC_KIND,
    token_num: 0,
    vector: null,
  };
}

/**
 * Asks the chat model for the TOC of the drafts (ids = their chunk ids, same order). Returns the
 * entries, or null when there is none (the reason is in the log); throws only to stop the task.
 */
export async function extractToc(
  ctx: AppContext,
  tenantId: string,
  llmId: string,
  drafts: ChunkDraft[],
  ids: string[],
  progress: TaskProgress,
  signal: AbortSignal,
): Promise<TocEntry[] | null> {
  if (drafts.length === 0) return null;
  let chat: ChatModel;
  try {
    chat = await modelFor(ctx, tenantId, llmId, 'chat');
  } catch (err) {
    await progress.report(null, progressMessage('tocNoModel', { error: (err as Error).message }));
    return null;
  }
  await progress.report(null, progressMessage('tocStart'));
  const entries: TocEntry[] = [];
  let skipped = 0;
  let unreadable = 0;
  const batches = tocBatches(drafts.map((d) => d.content_with_weight));
  for (const batch of batches) {
    await progress.checkCancel();
    let answer: string;
    try {
      answer = (
        await chat.complete([{ role: 'user', content: tocPrompt(batch) }], { temperature: 0.1, signal })
      ).text;
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      await progress.report(null, progressMessage('tocFailed', { error: (err as Error).message }));
      return null;
    }
    const parsed = parseTocAnswer(answer, drafts.length);
    if (!parsed.readable) unreadable++;
    skipped += parsed.skipped;
    for (const e of parsed.entries)
      entries.push({ title: e.title, level: e.level, chunk_ids: [...new Set(e.chunks.map((n) => ids[n]))] });
  }
  const notes = [
    skipped > 0 ? `${skipped} malformed entries skipped` : '',
    unreadable > 0 ? `${unreadable} of ${batches.length} answers unreadable` : '',
  ].filter(Boolean);
  if (entries.length === 0) {
    await progress.report(
      null,
      notes.length
        ? progressMessage('tocNoneWithNotes', { notes: notes.join(', ') })
        : progressMessage('tocNone'),
    );
    return null;
  }
  await progress.report(
    null,
    notes.length
      ? progressMessage('tocDoneWithNotes', { count: entries.length, notes: notes.join(', ') })
      : progressMessage('tocDone', { count: entries.length }),
  );
  return entries;
}
