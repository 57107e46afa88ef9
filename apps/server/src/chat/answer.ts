/**
 * One grounded answer (ARCHITECTURE.md chat flow): question → (multi-turn refine, translation,
 * keywords) → retrieval over the assistant's KBs and/or the web (self-RAG: judge, rewrite, retry
 * once) → prompt with `{knowledge}` inside the model's context budget → streamed deltas (reasoning
 * apart) → citations normalized or inserted → final event with the reference.
 * Yields answer events; returns what the caller persists. Throws readable errors.
 */
import { performance } from 'node:perf_hooks';
import type { ChatOptions, TokenUsage } from '../models/ports.js';
import { normalizeMetaDataFilter, type NormalizedMetaFilter } from '../search/metadata-conditions.js';
import { countTokens } from '../ingest/tokens.js';
import { citableSentences, hasCitation, insertCitations, normalizeCitations } from './citations.js';
import * as tasks from './llm-tasks.js';
import { assemblePrompt } from './prompt.js';
import { answerFromTables } from './table-answer.js';
import { followUpQueries, mergeKnowledge } from './research.js';
import type { ChatServices } from './services.js';
import { ThinkSplitter, type ThinkOut } from './think.js';
import { tracedChatServices } from './traced.js';
import { SentenceSpeaker } from './tts.js';
import type { AnswerEvent, AnswerResult, ChatMessage, DialogConfig, Knowledge } from './types.js';

export interface AnswerOptions {
  /** Values of custom `{var}` parameters of the system prompt. */
  values?: Record<string, unknown>;
  /** Request-level citation switch (the assistant's `quote` applies too). */
  quote?: boolean;
  /** Restrict retrieval to these documents (attachments). */
  docIds?: string[];
  /** A request's metadata filter (`extra_body.metadata_condition`), applied with the assistant's. */
  metaFilter?: NormalizedMetaFilter | null;
  /** Text of attached files, appended to the system prompt. */
  attachments?: string;
  signal?: AbortSignal;
  /** The conversation (or session) answered in, for the trace. */
  sessionId?: string;
  /** Structured queries over all-table KBs (§19.7; chats only: a search app's answer summarizes). */
  tableQueries?: boolean;
  /** The trace's name ("chat" by default; "search" for a search app's answer). */
  traceName?: string;
}

const KNOWLEDGE_SLOT = '\n\nKnowledge base:\n{knowledge}\nThe above is the knowledge base.';

const now = () => performance.now();
const seconds = () => Date.now() / 1000;

function event(answer: string, extra: Partial<AnswerEvent> = {}): AnswerEvent {
  return {
    answer,
    reference: {},
    audio_binary: null,
    prompt: '',
    created_at: seconds(),
    final: false,
    ...extra,
  };
}

function merge(a: Knowledge, b: Knowledge): Knowledge {
  return {
    total: a.total + b.total,
    chunks: [...a.chunks, ...b.chunks],
    doc_aggs: [...a.doc_aggs, ...b.doc_aggs],
  };
}

function optionsOf(setting: Record<string, unknown>, signal?: AbortSignal): ChatOptions {
  const num = (k: string) => (typeof setting[k] === 'number' ? (setting[k] as number) : undefined);
  return {
    temperature: num('temperature'),
    topP: num('top_p'),
    presencePenalty: num('presence_penalty'),
    frequencyPenalty: num('frequency_penalty'),
    signal,
  };
}

/** A soft step: on failure the pipeline goes on with the fallback. */
async function soft<T>(fallback: T, run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (signal?.aborted) throw err;
    return fallback;
  }
}

/**
 * The answer, traced when the tenant has tracing keys (API.md §14): one trace per answer with the
 * question and the answer, and under it the retrieval spans and every model call (tracedChatServices).
 * An answer stopped midway (client gone, error) ends its trace with that reason.
 */
export async function* answerQuestion(
  svc: ChatServices,
  dialog: DialogConfig,
  messages: ChatMessage[],
  opts: AnswerOptions = {},
): AsyncGenerator<AnswerEvent, AnswerResult> {
  const question = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const trace = await svc.startTrace(dialog.tenant_id, {
    name: opts.traceName ?? 'chat',
    input: question,
    sessionId: opts.sessionId,
    metadata: { dialog_id: dialog.id, llm_id: dialog.llm_id, kb_ids: dialog.kb_ids, turns: messages.length },
  });
  if (!trace.id) return yield* answerWith(svc, dialog, messages, opts);
  try {
    const result = yield* answerWith(tracedChatServices(svc, trace), dialog, messages, opts);
    trace.end({
      output: result.content,
      metadata: { tokens: result.tokens, chunks: result.reference.chunks.length },
    });
    return result;
  } catch (err) {
    trace.end({ error: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    trace.end({ error: 'The answer was stopped before it ended.' });
  }
}

async function* answerWith(
  svc: ChatServices,
  dialog: DialogConfig,
  messages: ChatMessage[],
  opts: AnswerOptions,
): AsyncGenerator<AnswerEvent, AnswerResult> {
  const t0 = now();
  const pc = dialog.prompt_config;
  const signal = opts.signal;
  const { model, contextTokens } = await svc.chatModel(dialog.tenant_id, dialog.llm_id);
  const tModel = now();

  const history = messages.filter((m) => m.role !== 'system');
  const userTurns = history.filter((m) => m.role === 'user');
  let question = userTurns[userTurns.length - 1]?.content ?? '';
  const useKb = dialog.kb_ids.length > 0;
  const useWeb = typeof pc.tavily_api_key === 'string' && pc.tavily_api_key !== '';
  const retrieving = useKb || useWeb;

  // Every KB a table KB with a field map: a structured query answers, unless it yields nothing (§19.7).
  const quote = pc.quote !== false && opts.quote !== false;
  if (useKb && opts.tableQueries !== false && !opts.docIds?.length && question.trim()) {
    const kbIds = dialog.kb_ids;
    const structured = await soft(
      null,
      () => answerFromTables(svc, model, dialog.tenant_id, kbIds, question, { quote, signal }),
      signal,
    );
    if (structured) {
      const { answer, reference, prompt } = structured;
      yield event(answer, { reference: { ...reference }, prompt, final: true });
      const tokens = countTokens(prompt) + countTokens(answer);
      return { content: answer, reference, prompt, tokens, durationS: (now() - t0) / 1000 };
    }
  }
  if (retrieving && userTurns.length > 1 && pc.refine_multiturn) {
    question = await soft(question, () => tasks.refineQuestion(model, history, signal), signal);
  }
  if (retrieving && pc.cross_languages && pc.cross_languages.length > 0) {
    const langs = pc.cross_languages;
    question = await soft(question, () => tasks.translateQuestion(model, question, langs, signal), signal);
  }
  if (retrieving && pc.keyword) {
    const kw = await soft('', () => tasks.extractKeywords(model, question, signal), signal);
    if (kw) question = `${question},${kw}`;
  }
  const tRefine = now();

  const gather = async (q: string): Promise<Knowledge> => {
    let k: Knowledge = { total: 0, chunks: [], doc_aggs: [] };
    if (useKb) {
      k = await svc.retrieve({
        question: q,
        tenantId: dialog.tenant_id,
        kbIds: dialog.kb_ids,
        docIds: opts.docIds && opts.docIds.length > 0 ? opts.docIds : undefined,
        topN: dialog.top_n,
        topK: dialog.top_k,
        similarityThreshold: dialog.similarity_threshold,
        vectorSimilarityWeight: dialog.vector_similarity_weight,
        rerankId: dialog.rerank_id || undefined,
        useKg: pc.use_kg === true,
        tocEnhance: pc.toc_enhance === true,
        metaFilters: [normalizeMetaDataFilter(dialog.meta_data_filter), opts.metaFilter ?? null],
        metaLlmId: dialog.llm_id,
        signal,
      });
    }
    if (useWeb) k = merge(k, await svc.webSearch(pc.tavily_api_key as string, q, signal));
    return k;
  };

  let knowledge: Knowledge = { total: 0, chunks: [], doc_aggs: [] };
  if (retrieving) {
    knowledge = await gather(question);
    if (pc.self_rag && knowledge.chunks.length > 0) {
      const pieces = knowledge.chunks.map((c) => c.content_with_weight);
      const relevant = await soft(true, () => tasks.judgeRelevance(model, question, pieces, signal), signal);
      if (!relevant) {
        const retry = await soft(question, () => tasks.rewriteQuestion(model, question, signal), signal);
        const again = retry !== question ? await gather(retry) : knowledge;
        if (again.chunks.length > 0) {
          knowledge = again;
          question = retry;
        }
      }
    }
  }
  let research = '';
  if (retrieving && pc.reasoning && knowledge.chunks.length > 0) {
    const say = (text: string) => {
      research += text;
      return event(text);
    };
    const docs = (k: Knowledge) => [...new Set(k.chunks.map((c) => c.docnm_kwd))].slice(0, 5).join(', ');
    yield event('', { start_to_think: true });
    yield say(`Searching for: ${question}\nFound ${knowledge.chunks.length} pieces (${docs(knowledge)}).\n`);
    const queries = await soft(
      [] as string[],
      () => followUpQueries(model, question, knowledge, signal),
      signal,
    );
    for (const q of queries) {
      yield say(`Searching for: ${q}\n`);
      const { merged, added } = mergeKnowledge(knowledge, await gather(q));
      knowledge = merged;
      yield say(`Found ${added} new pieces.\n`);
    }
    if (queries.length === 0) yield say('What was found is enough to answer.\n');
    yield event('', { end_to_think: true });
  }
  const tRetrieval = now();

  const tts = pc.tts ? await soft(null, () => svc.ttsModel(dialog.tenant_id), signal) : null;
  const speaker = tts ? new SentenceSpeaker(tts, signal) : null;

  if (retrieving && knowledge.chunks.length === 0 && pc.empty_response) {
    const prompt = `### Query:\n${question}`;
    const audio = speaker ? await speaker.speakAll(pc.empty_response) : null;
    yield event(pc.empty_response, {
      reference: { total: 0, chunks: [], doc_aggs: [] },
      prompt,
      final: true,
      audio_binary: audio,
    });
    return {
      content: pc.empty_response,
      reference: { total: 0, chunks: [], doc_aggs: [] },
      prompt,
      tokens: 0,
      durationS: (now() - t0) / 1000,
    };
  }

  const system = retrieving && !pc.system.includes('{knowledge}') ? pc.system + KNOWLEDGE_SLOT : pc.system;
  const maxTokens =
    typeof dialog.llm_setting.max_tokens === 'number' && dialog.llm_setting.max_tokens > 0
      ? dialog.llm_setting.max_tokens
      : undefined;
  const assembled = assemblePrompt({
    system,
    parameters: pc.parameters ?? [],
    values: opts.values ?? {},
    chunks: knowledge.chunks,
    history,
    quote,
    contextTokens,
    maxAnswerTokens: maxTokens,
    attachments: opts.attachments,
  });
  const chunks = knowledge.chunks.slice(0, assembled.chunkCount);
  const tPrompt = now();

  const splitter = new ThinkSplitter();
  let usage: TokenUsage | null = null;
  let tFirst = 0;
  const toEvents = async function* (outs: ThinkOut[]): AsyncGenerator<AnswerEvent> {
    for (const o of outs) {
      if (o.kind === 'start') yield event('', { start_to_think: true });
      else if (o.kind === 'end') yield event('', { end_to_think: true });
      else {
        const audio = speaker && !o.thinking ? await speaker.push(o.text) : null;
        yield event(o.text, { audio_binary: audio });
      }
    }
  };
  const stream = model.stream([{ role: 'system', content: assembled.system }, ...assembled.messages], {
    ...optionsOf(dialog.llm_setting, signal),
    maxTokens: assembled.answerTokens,
  });
  for await (const delta of stream) {
    if (delta.type === 'done') {
      usage = delta.usage;
      continue;
    }
    if (delta.type === 'tool_call') continue; // chat offers no functions, so none are called
    if (!tFirst) tFirst = now();
    yield* toEvents(splitter.push(delta));
  }
  yield* toEvents(splitter.finish());
  if (speaker) {
    const rest = await speaker.flush();
    if (rest) yield event('', { audio_binary: rest });
  }
  const tGenerated = now();

  // Citations: repair what the model wrote; insert them when it wrote none (API.md §19.13).
  let text = splitter.answer;
  let cited = new Set<number>();
  if (quote && chunks.length > 0) {
    const normalized = normalizeCitations(text, chunks.length);
    text = normalized.answer;
    cited = normalized.cited;
    if (cited.size === 0 && !hasCitation(splitter.answer)) {
      const sentences = citableSentences(text);
      // The KBs' embedding model is only needed here, after the answer (off the first-byte path).
      const embd =
        useKb && chunks.some((c) => c.vector && c.vector.length > 0)
          ? await soft(null, () => svc.embeddingModel(dialog.tenant_id, dialog.kb_ids), signal)
          : null;
      const vectors = embd
        ? await soft(null, async () => (await embd.embed(sentences, { signal })).vectors, signal)
        : null;
      const inserted = insertCitations(
        text,
        chunks.map((c) => ({
          tokens: c.tokens ?? svc.tokenize(c.content_with_weight),
          vector: c.vector ?? null,
        })),
        { tokenize: svc.tokenize, sentenceVectors: vectors, vectorWeight: dialog.vector_similarity_weight },
      );
      text = inserted.answer;
      cited = inserted.cited;
    }
  }
  const citedDocs = new Set([...cited].map((i) => chunks[i].doc_id));
  const citedAggs = knowledge.doc_aggs.filter((d) => citedDocs.has(d.doc_id));
  const reference = {
    total: knowledge.total,
    chunks: chunks.map(({ tokens: _t, vector: _v, ...rest }) => rest),
    doc_aggs: citedAggs.length > 0 ? citedAggs : knowledge.doc_aggs,
  };
  const thinking = research + splitter.reasoning;
  const content = (thinking ? `<think>${thinking}</think>` : '') + text;
  const generated = usage?.completionTokens || countTokens(splitter.reasoning + splitter.answer);
  const genSeconds = Math.max(0.001, (tGenerated - tPrompt) / 1000);
  const ms = (a: number, b: number) => `${(b - a).toFixed(1)}ms`;
  const prompt = [
    assembled.system,
    '',
    '### Query:',
    question,
    '',
    '## Time elapsed:',
    `  - Total: ${ms(t0, tGenerated)}`,
    `  - Bind models: ${ms(t0, tModel)}`,
    `  - Query refinement(LLM): ${ms(tModel, tRefine)}`,
    `  - Retrieval: ${ms(tRefine, tRetrieval)}`,
    `  - Prompt assembly: ${ms(tRetrieval, tPrompt)}`,
    `  - First token: ${tFirst ? ms(tPrompt, tFirst) : '-'}`,
    `  - Generate answer: ${ms(tPrompt, tGenerated)}`,
    '',
    '## Token usage:',
    `  - Prompt tokens: ${usage?.promptTokens ?? assembled.usedTokens}`,
    `  - Generated tokens: ${generated}`,
    `  - Token speed: ${Math.round(generated / genSeconds)}/s`,
  ].join('  \n');

  yield event('', { reference, prompt, final: true });
  return {
    content,
    reference,
    prompt,
    tokens: usage?.totalTokens || assembled.usedTokens + generated,
    durationS: (now() - t0) / 1000,
  };
}
