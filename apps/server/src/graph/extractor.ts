/**
 * Entity and relation extraction over chunks (API.md §19.10) with an injected chat model.
 *
 * `light` asks once per chunk; `general` asks with the fuller prompt, then runs gleaning rounds: "MANY
 * entities were missed…" to get more records, then a YES/NO check whether to go on, at most
 * `maxGleanings` rounds. Chunks run on a pool of `concurrency` workers (./concurrency.ts), each holding
 * at most one call, so exactly `concurrency` calls are in flight while chunks remain.
 *
 * Bad answers never stop the job: a failed call, an empty answer or unreadable records are counted and
 * the chunk contributes what could be read. Cancellation (the signal) does stop it, at once.
 */
import { progressMessage } from '@lectern/shared';
import { isAbortError, mapConcurrent, throwIfAborted } from './concurrency.js';
import { addUsage, emptyUsage, type ChatTurn, type GraphChatModel, type TokenUsage } from './ports.js';
import {
  CONTINUE_PROMPT,
  LOOP_PROMPT,
  extractionUserMessage,
  generalExtractionPrompt,
  lightExtractionPrompt,
} from './prompts.js';
import { parseGraphRecords, type ExtractedEntity, type ExtractedRelation } from './records.js';

export type ExtractionMethod = 'light' | 'general';

export interface ChunkInput {
  id: string;
  docId: string;
  text: string;
}

export interface ChunkExtraction {
  chunkId: string;
  docId: string;
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
}

export interface ExtractionStats {
  chunks: number;
  /** Model calls made (extraction, gleaning and loop checks). */
  calls: number;
  failedCalls: number;
  emptyAnswers: number;
  malformedRecords: number;
  filteredEntities: number;
  entities: number;
  relations: number;
  gleaningRounds: number;
  /** Message of the last failed call, for the job log. */
  lastError?: string;
}

export interface ExtractionResult {
  chunks: ChunkExtraction[];
  stats: ExtractionStats;
  usage: TokenUsage;
}

export interface ExtractOptions {
  model: GraphChatModel;
  entityTypes: readonly string[];
  method: ExtractionMethod;
  /** Model calls in flight at once. */
  concurrency: number;
  /** Gleaning rounds for `general` (default 2; `light` never gleans). */
  maxGleanings?: number;
  language?: string;
  signal?: AbortSignal;
  /** Called after each chunk, in completion order. */
  onChunkDone?: (done: number, total: number, stats: ExtractionStats) => void;
  temperature?: number;
}

export function emptyStats(): ExtractionStats {
  return {
    chunks: 0,
    calls: 0,
    failedCalls: 0,
    emptyAnswers: 0,
    malformedRecords: 0,
    filteredEntities: 0,
    entities: 0,
    relations: 0,
    gleaningRounds: 0,
  };
}

export function mergeStats(into: ExtractionStats, add: ExtractionStats): ExtractionStats {
  for (const key of Object.keys(into) as Array<keyof ExtractionStats>) {
    if (key === 'lastError') continue;
    into[key] += add[key];
  }
  if (add.lastError) into.lastError = add.lastError;
  return into;
}

/** The task-log line of a finished extraction. */
export function extractionDoneMessage(s: ExtractionStats): string {
  return progressMessage('graphExtractionDone', {
    entities: s.entities,
    relations: s.relations,
    chunks: s.chunks,
    calls: s.calls,
    failed: s.failedCalls,
    empty: s.emptyAnswers,
    malformed: s.malformedRecords,
    filtered: s.filteredEntities,
  });
}

/**
 * The failure message when nothing at all could be extracted (no entity from any chunk) and a model
 * problem explains it; `null` when the run produced something or every answer was well-formed.
 */
export function extractionFailure(s: ExtractionStats): string | null {
  if (s.entities > 0 || s.chunks === 0) return null;
  if (s.failedCalls === 0 && s.emptyAnswers === 0 && s.malformedRecords === 0) return null;
  const cause =
    s.failedCalls > 0
      ? `${s.failedCalls} of ${s.calls} model calls failed${s.lastError ? ` (last error: ${s.lastError})` : ''}`
      : `${s.emptyAnswers} empty answers and ${s.malformedRecords} malformed records`;
  return `Knowledge graph extraction produced nothing from ${s.chunks} chunks: ${cause}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

interface ChunkRun {
  extraction: ChunkExtraction;
  stats: ExtractionStats;
  usage: TokenUsage;
}

async function extractChunk(chunk: ChunkInput, opts: ExtractOptions): Promise<ChunkRun> {
  const stats = emptyStats();
  stats.chunks = 1;
  const usage = emptyUsage();
  const extraction: ChunkExtraction = { chunkId: chunk.id, docId: chunk.docId, entities: [], relations: [] };
  const promptInput = { entityTypes: opts.entityTypes, language: opts.language };
  const system =
    opts.method === 'general' ? generalExtractionPrompt(promptInput) : lightExtractionPrompt(promptInput);
  const history: ChatTurn[] = [
    { role: 'system', content: system },
    { role: 'user', content: extractionUserMessage(chunk.text) },
  ];

  /** One call; null when it failed or answered nothing (counted). Aborts propagate. */
  const ask = async (maxTokens?: number): Promise<string | null> => {
    throwIfAborted(opts.signal);
    stats.calls++;
    try {
      const answer = await opts.model.complete(history, {
        signal: opts.signal,
        temperature: opts.temperature ?? 0.1,
        ...(maxTokens ? { maxTokens } : {}),
      });
      addUsage(usage, answer.usage);
      if (!answer.text?.trim()) {
        stats.emptyAnswers++;
        return null;
      }
      return answer.text;
    } catch (err) {
      if (opts.signal?.aborted || isAbortError(err)) throw err;
      stats.failedCalls++;
      stats.lastError = messageOf(err);
      return null;
    }
  };

  const absorb = (answer: string) => {
    const parsed = parseGraphRecords(answer, { entityTypes: opts.entityTypes });
    stats.malformedRecords += parsed.malformed;
    stats.filteredEntities += parsed.filteredByType;
    extraction.entities.push(...parsed.entities);
    extraction.relations.push(...parsed.relations);
  };

  const first = await ask();
  if (first === null) return { extraction, stats, usage };
  absorb(first);
  history.push({ role: 'assistant', content: first });

  const rounds = opts.method === 'general' ? Math.max(0, opts.maxGleanings ?? 2) : 0;
  for (let round = 0; round < rounds; round++) {
    history.push({ role: 'user', content: CONTINUE_PROMPT });
    const more = await ask();
    if (more === null) break;
    stats.gleaningRounds++;
    absorb(more);
    history.push({ role: 'assistant', content: more });
    if (round === rounds - 1) break;
    history.push({ role: 'user', content: LOOP_PROMPT });
    const verdict = await ask(4);
    history.pop();
    if (!verdict || !/^\W*yes\b/i.test(verdict.trim())) break;
  }
  stats.entities = extraction.entities.length;
  stats.relations = extraction.relations.length;
  return { extraction, stats, usage };
}

/** Extracts entities and relations from every chunk; results keep the input order. */
export async function extractGraph(
  chunks: readonly ChunkInput[],
  opts: ExtractOptions,
): Promise<ExtractionResult> {
  const stats = emptyStats();
  const usage = emptyUsage();
  let done = 0;
  const runs = await mapConcurrent(
    chunks,
    opts.concurrency,
    async (chunk) => {
      const run = await extractChunk(chunk, opts);
      mergeStats(stats, run.stats);
      addUsage(usage, run.usage);
      opts.onChunkDone?.(++done, chunks.length, stats);
      return run.extraction;
    },
    opts.signal,
  );
  return { chunks: runs, stats, usage };
}
