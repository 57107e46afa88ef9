import {
  bearer,
  countTokens,
  lexicalScore,
  sendJson,
  startStandin,
  type Route,
  type Standin,
  type StandinContext,
} from './common.js';

/**
 * Rerank APIs, each in its real wire shape; scores are the share of query words found in the document:
 * - jina:   POST /v1/rerank {model, query, documents, top_n} → {model, results:[{index, relevance_score}], usage:{total_tokens}}
 * - cohere: POST /v2/rerank {model, query, documents, top_n} → {id, results:[{index, relevance_score}], meta:{billed_units:{search_units}}}
 * - voyage: POST /v1/rerank {model, query, documents, top_k} → {object:"list", data:[{index, relevance_score}], model, usage:{total_tokens}}
 * - tei:    POST /rerank {query, texts} → [{index, score}]
 */
export type RerankFlavor = 'jina' | 'cohere' | 'voyage' | 'tei';

export interface RerankStandinOptions {
  flavor?: RerankFlavor;
  apiKey?: string;
}

function fail(c: StandinContext, flavor: RerankFlavor): boolean {
  switch (c.fault) {
    case '401':
      sendJson(
        c.res,
        401,
        flavor === 'cohere' ? { message: 'invalid api token' } : { detail: 'Unauthorized: invalid API key' },
      );
      return true;
    case '429':
      sendJson(c.res, 429, { detail: 'Too many requests, rate limit exceeded' });
      return true;
    case '500':
      sendJson(
        c.res,
        500,
        flavor === 'tei'
          ? { error: 'Inference failed', error_type: 'backend' }
          : { detail: 'Internal server error' },
      );
      return true;
    case 'malformed':
      c.res.writeHead(200, { 'content-type': 'application/json' });
      c.res.end(flavor === 'tei' ? '[{"index": 0, "score": ' : '{"results": [{"index": 0, "relevance_');
      return true;
    default:
      return false;
  }
}

export function rerankRoute(flavor: RerankFlavor, apiKey?: string): Route {
  return (c) => {
    if (c.rec.method !== 'POST' || !c.rec.path.endsWith('/rerank')) return false;
    if (apiKey && bearer(c.req) !== apiKey) {
      sendJson(
        c.res,
        401,
        flavor === 'cohere' ? { message: 'invalid api token' } : { detail: 'Unauthorized: invalid API key' },
      );
      return true;
    }
    if (fail(c, flavor)) return true;
    const body = (c.rec.body ?? {}) as {
      query?: string;
      documents?: unknown[];
      texts?: string[];
      model?: string;
      top_n?: number;
      top_k?: number;
    };
    const docs =
      (flavor === 'tei' ? body.texts : body.documents)?.map((d) =>
        typeof d === 'string' ? d : String((d as { text?: unknown })?.text ?? ''),
      ) ?? [];
    const query = body.query ?? '';
    const scored = docs
      .map((d, index) => ({ index, score: lexicalScore(query, d) }))
      .sort((a, b) => b.score - a.score);
    const limit = body.top_n ?? body.top_k ?? scored.length;
    const top = scored.slice(0, limit);
    const tokens = countTokens(query) * docs.length + docs.reduce((n, d) => n + countTokens(d), 0);
    if (flavor === 'tei')
      sendJson(
        c.res,
        200,
        top.map((s) => ({ index: s.index, score: s.score })),
      );
    else if (flavor === 'cohere')
      sendJson(c.res, 200, {
        id: 'rr-1',
        results: top.map((s) => ({ index: s.index, relevance_score: s.score })),
        meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
      });
    else if (flavor === 'voyage')
      sendJson(c.res, 200, {
        object: 'list',
        data: top.map((s) => ({ index: s.index, relevance_score: s.score })),
        model: body.model,
        usage: { total_tokens: tokens },
      });
    else
      sendJson(c.res, 200, {
        model: body.model,
        results: top.map((s) => ({ index: s.index, relevance_score: s.score })),
        usage: { total_tokens: tokens },
      });
    return true;
  };
}

/** A rerank server; `url` is the base a client configures (…/v1 for jina/voyage, the origin for cohere/tei). */
export function startRerankStandin(o: RerankStandinOptions = {}): Promise<Standin> {
  const flavor = o.flavor ?? 'jina';
  const basePath = flavor === 'jina' || flavor === 'voyage' ? '/v1' : '';
  return startStandin([rerankRoute(flavor, o.apiKey)], { basePath });
}
