/**
 * Retrieval (§10.3): searches datasets (or memories) through the RetrievalPort with the agent
 * defaults of API.md §19.12 (threshold 0.2, keyword weight 0.5, top_n 8, top_k 1024), adds the hits
 * to the run's references and returns them as prompt text (`formalized_content`) and `json`.
 * Used as a canvas node and as an Agent tool (`search_my_dateset_<i>`).
 */
import type { RetrievalRequest } from '../ports.js';
import { formatChunks } from '../runtime/references.js';
import { valueToText } from '../variables/render.js';
import type { ComponentContext, ComponentImpl } from './types.js';

async function datasets(ctx: ComponentContext, kbIds: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const k of kbIds) {
    const isRef = k.includes('@') || ((k.startsWith('sys.') || k.startsWith('env.')) && ctx.isReference(k));
    if (!isRef) {
      out.push(k);
      continue;
    }
    const v = await ctx.resolve(k);
    for (const x of Array.isArray(v) ? v : [v]) {
      const s = await valueToText(x);
      if (s.trim())
        out.push(
          ...s
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        );
    }
  }
  return out;
}

/** Run a search with `ctx.params`; returns the text the Agent observes. */
export async function search(ctx: ComponentContext, rawQuery: string): Promise<string> {
  const p = ctx.params as {
    similarity_threshold: number;
    keywords_similarity_weight: number;
    top_n: number;
    top_k: number;
    kb_ids: string[];
    memory_ids: string[];
    rerank_id: string;
    empty_response: string;
    use_kg: boolean;
    cross_languages: string[];
    toc_enhance: boolean;
    meta_data_filter: Record<string, unknown>;
    retrieval_from: string;
  };
  const port = ctx.ports.retrieval;
  if (!port) throw new Error('Retrieval is not available here (no retrieval port)');
  // Templates store the query as a bare reference (`sys.query`); the editor writes `{sys.query}`.
  const text =
    !rawQuery.includes('{') && ctx.isReference(rawQuery)
      ? await valueToText(await ctx.resolve(rawQuery))
      : await ctx.render(rawQuery);
  const query = text.replace(/^\s*user:\s*/i, '').trim();
  ctx.setInputs({ query });
  if (!query) {
    ctx.setOutput('formalized_content', p.empty_response);
    return p.empty_response;
  }
  const from = p.retrieval_from === 'memory' ? 'memory' : 'dataset';
  const ids = await datasets(ctx, p.kb_ids);
  if (from === 'dataset' && ids.length === 0) throw new Error('No dataset is selected.');
  const request: RetrievalRequest = {
    query,
    datasets: ids,
    memoryIds: p.memory_ids,
    from,
    similarityThreshold: p.similarity_threshold,
    vectorSimilarityWeight: 1 - p.keywords_similarity_weight,
    topN: p.top_n,
    topK: p.top_k,
    rerankId: p.rerank_id,
    useKg: p.use_kg,
    crossLanguages: p.cross_languages,
    tocEnhance: p.toc_enhance,
    metaDataFilter: p.meta_data_filter,
  };
  const result = await ctx.ports.retrieval!.retrieve(request, { signal: ctx.signal });
  if (from === 'memory') {
    const text = result.text ?? '';
    ctx.setOutput('formalized_content', text || p.empty_response);
    return text || p.empty_response;
  }
  await ctx.addReferences(result.chunks, result.docAggs);
  const json = result.chunks.map(({ vector: _v, content_ltks: _c, ...rest }) => rest);
  ctx.setOutput('json', json);
  const formatted = result.chunks.length ? await formatChunks(result.chunks) : p.empty_response;
  ctx.setOutput('formalized_content', formatted);
  return formatted;
}

export const retrieval: ComponentImpl = {
  async invoke(ctx) {
    await search(ctx, String(ctx.params.query ?? ''));
  },
};
