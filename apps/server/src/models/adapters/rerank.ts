import { withRetry, type CallPolicy } from '../call.js';
import { ModelError, httpError } from '../errors.js';
import type { CallOptions, RerankModel, RerankResult } from '../ports.js';
import { estimateTokens, trimSlash, type ModelSpec } from '../spec.js';

/**
 * Rerank over plain fetch, by wire shape:
 * - jina   POST <base>/rerank {model, query, documents, top_n} → {results:[{index, relevance_score}], usage:{total_tokens}}
 *          (Jina, Xinference, LocalAI, vLLM, SILICONFLOW, ZHIPU, Together…)
 * - cohere POST <base>/v2/rerank, same body → {results:[{index, relevance_score}], meta:{billed_units}}
 * - voyage POST <base>/rerank {model, query, documents, top_k} → {data:[{index, relevance_score}], usage:{total_tokens}}
 * - tei    POST <base>/rerank {query, texts} → [{index, score}]   (HuggingFace text-embeddings-inference)
 */
interface Scored {
  index: number;
  score: number;
}

export class FetchRerankModel implements RerankModel {
  readonly kind = 'rerank' as const;
  readonly id: string;
  private readonly provider: string;

  constructor(
    private readonly spec: ModelSpec,
    private readonly policy: CallPolicy,
  ) {
    this.id = spec.id;
    this.provider = spec.factory.name;
  }

  private url(): string {
    const r = this.spec.factory.rerank;
    if (!r)
      throw new ModelError(
        `${this.provider}: rerank models are not supported by this provider`,
        this.provider,
        undefined,
        false,
      );
    // A tenant's own base url wins; some providers serve rerank on another host than chat (Cohere).
    let base =
      this.spec.baseUrl && this.spec.baseUrl !== this.spec.factory.default_base_url
        ? this.spec.baseUrl
        : (r.base_url ?? this.spec.baseUrl);
    if (!base)
      throw new ModelError(`${this.provider}: a base url is required`, this.provider, undefined, false);
    base = trimSlash(base);
    if (r.strip_v1) base = base.replace(/\/v1$/, '');
    return `${base}${r.path}`;
  }

  private body(query: string, documents: string[]): unknown {
    const protocol = this.spec.factory.rerank?.protocol;
    const model = this.spec.callName;
    if (protocol === 'tei') return { query, texts: documents, raw_scores: false, truncate: true };
    if (protocol === 'voyage') return { model, query, documents, top_k: documents.length };
    return { model, query, documents, top_n: documents.length, return_documents: false };
  }

  private parse(text: string, count: number): { scored: Scored[]; tokens: number } {
    const malformed = () =>
      new ModelError(`${this.provider}: malformed response from the server`, this.provider, undefined, false);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw malformed();
    }
    const o = json as Record<string, unknown>;
    const list = Array.isArray(json)
      ? json
      : Array.isArray(o.results)
        ? o.results
        : Array.isArray(o.data)
          ? o.data
          : null;
    if (!list) throw malformed();
    const scored = list.map((item) => {
      const it = item as Record<string, unknown>;
      const score = typeof it.relevance_score === 'number' ? it.relevance_score : it.score;
      if (typeof it.index !== 'number' || typeof score !== 'number' || it.index < 0 || it.index >= count)
        throw malformed();
      return { index: it.index, score };
    });
    const usage = o.usage as { total_tokens?: number } | undefined;
    return { scored, tokens: typeof usage?.total_tokens === 'number' ? usage.total_tokens : 0 };
  }

  async rerank(query: string, documents: string[], options: CallOptions = {}): Promise<RerankResult> {
    if (documents.length === 0) return { scores: [], usage: { tokens: 0 } };
    const url = this.url();
    const policy = options.timeoutMs ? { ...this.policy, timeoutMs: options.timeoutMs } : this.policy;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.spec.apiKey && this.spec.apiKey !== 'x') headers.authorization = `Bearer ${this.spec.apiKey}`;
    const body = JSON.stringify(this.body(query, documents));
    const { scored, tokens } = await withRetry(this.provider, policy, options.signal, async (signal) => {
      const res = await (this.spec.fetch ?? fetch)(url, { method: 'POST', headers, body, signal });
      const text = await res.text();
      if (!res.ok) throw httpError(this.provider, res.status, text, Object.fromEntries(res.headers));
      return this.parse(text, documents.length);
    });
    const scores = new Array<number>(documents.length).fill(0);
    for (const s of scored) scores[s.index] = s.score;
    return { scores, usage: { tokens: tokens > 0 ? tokens : estimateTokens(query, ...documents) } };
  }
}
