/**
 * Web search through the Tavily API (`POST <base>/search`, https://api.tavily.com by default) when an
 * assistant has a `tavily_api_key`. Results become chunks with their URL so the model can cite them.
 * The base URL comes from config TAVILY_BASE_URL (tests point it at a stand-in on 127.0.0.1). The call
 * goes through the outbound guard (net/), like every request made on a user's behalf.
 */
import { isOutboundError, safeFetch, type OutboundPolicy } from '../net/index.js';
import { newId } from '../util/ids.js';
import { ChatError } from './errors.js';
import type { Knowledge, RefChunk } from './types.js';

interface TavilyResult {
  title?: string;
  url?: string;
  content?: string;
  score?: number;
}

export async function tavilySearch(
  apiKey: string,
  query: string,
  opts: {
    baseUrl: string;
    policy: OutboundPolicy;
    maxResults?: number;
    signal?: AbortSignal;
    timeoutMs?: number;
  },
): Promise<Knowledge> {
  const signal = AbortSignal.any([
    ...(opts.signal ? [opts.signal] : []),
    AbortSignal.timeout(opts.timeoutMs ?? 20_000),
  ]);
  let res: Response;
  try {
    res = await safeFetch(opts.policy, `${opts.baseUrl}/search`, {
      maxBytes: 5 * 1024 * 1024,
      timeoutMs: 0, // the signal above carries the time limit
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({
        api_key: apiKey,
        query,
        search_depth: 'advanced',
        max_results: opts.maxResults ?? 6,
        include_answer: false,
        include_raw_content: false,
      }),
      signal,
    });
  } catch (err) {
    if (isOutboundError(err) && err.refused)
      throw new ChatError(`Web search (Tavily) refused: ${err.message}`);
    const why = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : 'could not be reached';
    throw new ChatError(`Web search (Tavily) ${why}.`);
  }
  if (!res.ok) {
    const detail =
      res.status === 401 || res.status === 403 ? 'the Tavily API key is invalid' : `HTTP ${res.status}`;
    throw new ChatError(`Web search (Tavily) failed: ${detail}.`);
  }
  const body = (await res.json().catch(() => ({}))) as { results?: TavilyResult[] };
  const chunks: RefChunk[] = (body.results ?? [])
    .filter((r) => typeof r.content === 'string' && r.content.trim() !== '')
    .map((r) => ({
      chunk_id: newId(),
      content_with_weight: r.content as string,
      doc_id: newId(),
      docnm_kwd: r.title || r.url || 'Web result',
      kb_id: '',
      important_kwd: [],
      image_id: '',
      positions: [],
      similarity: typeof r.score === 'number' ? r.score : 0,
      vector_similarity: 1,
      term_similarity: 0,
      doc_type_kwd: '',
      url: r.url,
      vector: null,
    }));
  return {
    total: chunks.length,
    chunks,
    doc_aggs: chunks.map((c) => ({ doc_name: c.docnm_kwd, doc_id: c.doc_id, count: 1, url: c.url })),
  };
}
