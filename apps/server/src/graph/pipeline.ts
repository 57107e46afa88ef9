/**
 * The knowledge-graph job's algorithm (API.md §19.10), free of storage: the caller loads the KB's
 * stored graph and the chunks of the documents to (re)extract, calls `runGraphRag`, and writes the
 * returned graph and records (./index-records.ts). Steps:
 *  1. drop what removed and re-extracted documents contributed (incremental: other documents are not
 *     extracted again);
 *  2. extract every chunk of the given documents on one pool of `concurrency` model calls;
 *  3. build one subgraph per document and merge it into the KB graph;
 *  4. summarize merged descriptions that grew long;
 *  5. optional entity resolution; PageRank; optional communities with reports.
 * It throws only on cancellation, or when nothing at all could be extracted because of model trouble
 * (the caller then keeps the stored graph, so the knowledge base keeps working).
 */
import { progressMessage } from '@lectern/shared';
import { detectCommunities, assignPageRank, type Community } from './communities.js';
import {
  extractGraph,
  extractionDoneMessage,
  extractionFailure,
  type ChunkInput,
  type ExtractionMethod,
  type ExtractionStats,
} from './extractor.js';
import {
  buildDocumentSubgraph,
  createKbGraph,
  mergeSubgraph,
  removeDocuments,
  type GraphChange,
  type KbGraph,
} from './kb-graph.js';
import {
  addUsage,
  emptyUsage,
  type GraphChatModel,
  type ProgressReporter,
  type TokenUsage,
} from './ports.js';
import { writeCommunityReports, type CommunityReport } from './reports.js';
import { resolveEntities, type ResolveResult } from './resolution.js';
import { summarizeLongDescriptions } from './summarize.js';

export interface GraphRagConfig {
  entity_types: string[];
  method: ExtractionMethod;
  resolution?: boolean;
  community?: boolean;
  language?: string;
}

export interface GraphRagInput {
  /** Documents to extract (all of their chunks). Re-extracting a document replaces its contribution. */
  documents: Array<{ id: string; chunks: Array<{ id: string; text: string }> }>;
  /** The KB graph as stored (importKbGraph), or undefined for the first run. */
  existing?: KbGraph;
  /** Documents deleted since the last run, whose contributions must go. */
  removedDocIds?: string[];
  config: GraphRagConfig;
}

export interface GraphRagPorts {
  model: GraphChatModel;
  concurrency: number;
  signal?: AbortSignal;
  onProgress?: ProgressReporter;
  /** Seed of community detection (default 0). */
  seed?: number;
  /** Gleaning rounds of the `general` method (default 2). */
  maxGleanings?: number;
  /** Token length above which merged descriptions are summarized (default 500). */
  summaryThresholdTokens?: number;
}

export interface GraphRagResult {
  graph: KbGraph;
  /** One subgraph per extracted document (for `subgraph` records). */
  subgraphs: Map<string, KbGraph>;
  communities: Community[];
  reports: CommunityReport[];
  extraction: ExtractionStats;
  resolution?: Omit<ResolveResult, 'usage'>;
  /** Nodes and edges added or changed by this run (to re-embed and re-index). */
  changed: GraphChange;
  /** Nodes and edges of the input graph that are gone (their index records must be deleted). */
  removedNodes: string[];
  removedEdges: string[];
  usage: TokenUsage;
}

export async function runGraphRag(input: GraphRagInput, ports: GraphRagPorts): Promise<GraphRagResult> {
  const progress: ProgressReporter = ports.onProgress ?? (() => {});
  const usage = emptyUsage();
  const graph = input.existing ?? createKbGraph();
  const { config } = input;
  const nodesBefore = graph.nodes();
  const edgesBefore = graph.edges();

  const dropped = removeDocuments(graph, [
    ...(input.removedDocIds ?? []),
    ...input.documents.map((d) => d.id),
  ]);

  const chunks: ChunkInput[] = input.documents.flatMap((d) =>
    d.chunks.map((c) => ({ id: c.id, docId: d.id, text: c.text })),
  );
  progress(
    0.01,
    progressMessage('graphExtractStart', {
      chunks: chunks.length,
      docs: input.documents.length,
      method: config.method,
      concurrency: ports.concurrency,
    }),
  );
  const reportEvery = Math.max(1, Math.ceil(chunks.length / 50));
  const extraction = await extractGraph(chunks, {
    model: ports.model,
    entityTypes: config.entity_types,
    method: config.method,
    concurrency: ports.concurrency,
    maxGleanings: ports.maxGleanings,
    language: config.language,
    signal: ports.signal,
    onChunkDone: (done, total, s) => {
      if (done % reportEvery === 0 || done === total) {
        progress(
          0.05 + 0.65 * (done / total),
          progressMessage('graphExtracted', { done, total, entities: s.entities, relations: s.relations }),
        );
      }
    },
  });
  addUsage(usage, extraction.usage);
  progress(undefined, extractionDoneMessage(extraction.stats));
  const failure = extractionFailure(extraction.stats);
  if (failure) throw new Error(failure);

  const byDoc = new Map<string, typeof extraction.chunks>();
  for (const ex of extraction.chunks) byDoc.set(ex.docId, [...(byDoc.get(ex.docId) ?? []), ex]);
  const subgraphs = new Map<string, KbGraph>();
  const changed: GraphChange = { nodes: [...dropped.nodes], edges: [...dropped.edges] };
  let dangling = 0;
  for (const doc of input.documents) {
    const { graph: sub, stats } = buildDocumentSubgraph(doc.id, byDoc.get(doc.id) ?? []);
    dangling += stats.danglingRelations;
    subgraphs.set(doc.id, sub);
    const c = mergeSubgraph(graph, sub);
    changed.nodes.push(...c.nodes);
    changed.edges.push(...c.edges);
  }
  changed.nodes = [...new Set(changed.nodes)].filter((n) => graph.hasNode(n));
  changed.edges = [...new Set(changed.edges)].filter((e) => graph.hasEdge(e));
  progress(
    0.72,
    dangling
      ? progressMessage('graphMergedDangling', {
          docs: subgraphs.size,
          entities: graph.order,
          relations: graph.size,
          dangling,
        })
      : progressMessage('graphMerged', {
          docs: subgraphs.size,
          entities: graph.order,
          relations: graph.size,
        }),
  );

  const summaries = await summarizeLongDescriptions(
    graph,
    {
      model: ports.model,
      concurrency: ports.concurrency,
      language: config.language,
      signal: ports.signal,
      thresholdTokens: ports.summaryThresholdTokens,
    },
    changed,
  );
  addUsage(usage, summaries.usage);
  if (summaries.summarized || summaries.failed) {
    progress(
      0.78,
      summaries.failed
        ? progressMessage('graphSummarizedFailed', { count: summaries.summarized, failed: summaries.failed })
        : progressMessage('graphSummarized', { count: summaries.summarized }),
    );
  }

  let resolution: GraphRagResult['resolution'];
  if (config.resolution) {
    const r = await resolveEntities(graph, {
      model: ports.model,
      concurrency: ports.concurrency,
      signal: ports.signal,
    });
    addUsage(usage, r.usage);
    const { usage: _u, ...rest } = r;
    resolution = rest;
    for (const m of r.merges) changed.nodes.push(m.kept);
    changed.nodes = [...new Set(changed.nodes)].filter((n) => graph.hasNode(n));
    changed.edges = changed.edges.filter((e) => graph.hasEdge(e));
    graph.forEachEdge((e, _a, s, t) => {
      if (r.merges.some((m) => m.kept === s || m.kept === t)) changed.edges.push(e);
    });
    changed.edges = [...new Set(changed.edges)];
    const merged = r.merges.reduce((s, m) => s + m.merged.length, 0);
    progress(
      0.84,
      r.failedBatches
        ? progressMessage('graphResolutionFailed', { pairs: r.candidates, merged, failed: r.failedBatches })
        : progressMessage('graphResolution', { pairs: r.candidates, merged }),
    );
  }

  assignPageRank(graph);
  // PageRank changes every node: all of them need their rank re-indexed (not their embeddings).
  progress(0.86, progressMessage('graphPageRank'));

  let communities: Community[] = [];
  let reports: CommunityReport[] = [];
  if (config.community) {
    communities = detectCommunities(graph, { seed: ports.seed ?? 0 });
    progress(0.88, progressMessage('graphCommunities', { count: communities.length }));
    const written = await writeCommunityReports(graph, communities, {
      model: ports.model,
      concurrency: ports.concurrency,
      language: config.language,
      signal: ports.signal,
    });
    addUsage(usage, written.usage);
    reports = written.reports;
    progress(
      0.97,
      written.failed
        ? progressMessage('graphReportsFailed', { count: reports.length, failed: written.failed })
        : progressMessage('graphReports', { count: reports.length }),
    );
  }

  return {
    graph,
    subgraphs,
    communities,
    reports,
    extraction: extraction.stats,
    resolution,
    changed,
    removedNodes: nodesBefore.filter((n) => !graph.hasNode(n)),
    removedEdges: edgesBefore.filter((e) => !graph.hasEdge(e)),
    usage,
  };
}
