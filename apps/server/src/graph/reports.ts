/**
 * Community reports (`graphrag.community`, API.md §19.10): the model reads a community's entities and
 * relations and answers a JSON report {title, summary, rating, rating_explanation, findings[]}. Answers
 * are parsed robustly (think blocks, code fences, prose around the object, trailing commas, smart quotes,
 * findings given as strings, ratings given as "8/10"); an answer that cannot be read is counted and the
 * community goes without a report.
 */
import { isAbortError, mapConcurrent } from './concurrency.js';
import type { Community } from './communities.js';
import type { KbGraph } from './kb-graph.js';
import { addUsage, emptyUsage, type GraphChatModel, type TokenUsage } from './ports.js';
import { countTokens } from './tokens.js';
import { firstJsonObject, parseLooseJson, toCsv } from './text.js';

export interface ReportFinding {
  summary: string;
  explanation: string;
}

export interface CommunityReport {
  community: number;
  title: string;
  summary: string;
  rating: number;
  rating_explanation: string;
  findings: ReportFinding[];
  /** Member entity names (stored as `entities_kwd` on the report record). */
  entities: string[];
  weight: number;
}

export function communityReportPrompt(entitiesCsv: string, relationsCsv: string, language?: string): string {
  return `You are an analyst writing a report about one community of a knowledge graph: a group of related
entities and the relationships among them. The report informs decision-makers about what the community is,
who and what is in it, and why it matters.

Write the report as one JSON object with these keys:
- "title": a short, specific name of the community that names its key entities
- "summary": an executive summary of the community's structure and its most important relationships
- "rating": a number from 0 to 10 for how important the community is
- "rating_explanation": one sentence explaining the rating
- "findings": a list of 5 to 10 objects {"summary": a one-line insight, "explanation": a paragraph grounded in the data}

Use only the information below. Write in ${language || 'the language of the data'}. Output only the JSON object.

Entities
${entitiesCsv}
Relationships
${relationsCsv}`;
}

function stripWrapping(text: string): string {
  return text
    .replace(/<think>[\s\S]*?(<\/think>|$)/gi, '')
    .replace(/```(?:json)?/gi, '')
    .replace(/[“”]/g, '"')
    .trim();
}

function asText(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number') return String(v);
  return '';
}

function asRating(v: unknown): number {
  const m = /-?\d+(?:\.\d+)?/.exec(typeof v === 'number' ? String(v) : asText(v));
  const n = m ? Number(m[0]) : NaN;
  return Number.isFinite(n) ? Math.max(0, Math.min(10, n)) : 0;
}

export type ParsedReport = Omit<CommunityReport, 'community' | 'entities' | 'weight'>;

/** Reads a report answer; null when it holds no object with a title or summary. */
export function parseCommunityReport(answer: string): ParsedReport | null {
  const json = firstJsonObject(stripWrapping(answer ?? ''));
  if (!json) return null;
  const obj = parseLooseJson(json);
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return null;
  const o = obj as Record<string, unknown>;
  const title = asText(o.title);
  const summary = asText(o.summary);
  if (!title && !summary) return null;
  const findings: ReportFinding[] = [];
  for (const f of Array.isArray(o.findings) ? o.findings : []) {
    if (typeof f === 'string' && f.trim()) findings.push({ summary: f.trim(), explanation: '' });
    else if (f && typeof f === 'object') {
      const r = f as Record<string, unknown>;
      const s = asText(r.summary);
      const e = asText(r.explanation);
      if (s || e) findings.push({ summary: s, explanation: e });
    }
  }
  return {
    title: title || summary.slice(0, 80),
    summary,
    rating: asRating(o.rating),
    rating_explanation: asText(o.rating_explanation),
    findings,
  };
}

/** The text stored on a `community_report` record (`content_with_weight` JSON and `docnm_kwd` title). */
export function renderCommunityReport(r: CommunityReport): {
  title: string;
  content: { report: string; evidences: string };
} {
  const report = [
    `# ${r.title}`,
    r.summary,
    ...r.findings.map((f) => `## ${f.summary}\n\n${f.explanation}`.trim()),
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    title: r.title,
    content: {
      report,
      evidences: r.findings
        .map((f) => f.explanation)
        .filter(Boolean)
        .join('\n'),
    },
  };
}

/** Entity and relation tables of a community, most central first, within `maxTokens`. */
export function communityTables(
  graph: KbGraph,
  community: Community,
  maxTokens: number,
): { entities: string; relations: string } {
  const members = new Set(community.entities);
  const entityRows: string[][] = [];
  let used = 0;
  for (const name of community.entities) {
    const row = [name, graph.getNodeAttribute(name, 'description')];
    const cost = countTokens(row.join(','));
    if (used + cost > maxTokens / 2 && entityRows.length > 0) break;
    entityRows.push(row);
    used += cost;
  }
  const edges = graph
    .edges()
    .filter((e) => members.has(graph.source(e)) && members.has(graph.target(e)))
    .sort((a, b) => graph.getEdgeAttribute(b, 'weight') - graph.getEdgeAttribute(a, 'weight'));
  const relationRows: string[][] = [];
  for (const e of edges) {
    const a = graph.getEdgeAttributes(e);
    const row = [a.src_id, a.tgt_id, a.description];
    const cost = countTokens(row.join(','));
    if (used + cost > maxTokens) break;
    relationRows.push(row);
    used += cost;
  }
  return {
    entities: toCsv(['entity', 'description'], entityRows),
    relations: toCsv(['source', 'target', 'description'], relationRows),
  };
}

export interface ReportOptions {
  model: GraphChatModel;
  concurrency: number;
  /** Input budget of one report prompt (default 6000 tokens). */
  maxInputTokens?: number;
  language?: string;
  signal?: AbortSignal;
  onReport?: (done: number, total: number) => void;
}

export async function writeCommunityReports(
  graph: KbGraph,
  communities: readonly Community[],
  opts: ReportOptions,
): Promise<{ reports: CommunityReport[]; failed: number; usage: TokenUsage }> {
  const usage = emptyUsage();
  let failed = 0;
  let done = 0;
  const results = await mapConcurrent(
    communities,
    opts.concurrency,
    async (community): Promise<CommunityReport | null> => {
      const tables = communityTables(graph, community, opts.maxInputTokens ?? 6000);
      try {
        const answer = await opts.model.complete(
          [
            {
              role: 'user',
              content: communityReportPrompt(tables.entities, tables.relations, opts.language),
            },
          ],
          { signal: opts.signal, temperature: 0.3 },
        );
        addUsage(usage, answer.usage);
        const parsed = parseCommunityReport(answer.text);
        if (!parsed) failed++;
        return parsed
          ? { ...parsed, community: community.id, entities: community.entities, weight: community.weight }
          : null;
      } catch (err) {
        if (opts.signal?.aborted || isAbortError(err)) throw err;
        failed++;
        return null;
      } finally {
        opts.onReport?.(++done, communities.length);
      }
    },
    opts.signal,
  );
  return { reports: results.filter((r): r is CommunityReport => r !== null), failed, usage };
}
