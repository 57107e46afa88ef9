import {
  parserFieldDefaults,
  type GraphragConfig,
  type KbDetail,
  type KbPermission,
  type KbUpdateBody,
  type ParserConfig,
  type RaptorConfig,
} from '@lectern/shared';
import { fromPages, toPages, type PageRange } from './page-ranges';

/** The configuration form of a knowledge base: which settings each chunk method uses, and conversions. */

export type ParserField =
  | 'layout'
  | 'taskPageSize'
  | 'pages'
  | 'chunkTokenNum'
  | 'delimiter'
  | 'html4excel'
  | 'autoKeywords'
  | 'autoQuestions'
  | 'tags'
  | 'entityTypes'
  | 'raptor'
  | 'graphrag';

const PDF_LAYOUT: ParserField[] = ['layout', 'taskPageSize', 'pages'];
const ENRICH: ParserField[] = ['autoKeywords', 'autoQuestions', 'tags'];
const HIERARCHY: ParserField[] = ['raptor', 'graphrag'];

/** Settings each chunk method reads (API.md §19.7); the rest are kept but not shown. */
export const METHOD_FIELDS: Record<string, readonly ParserField[]> = {
  naive: [...PDF_LAYOUT, 'chunkTokenNum', 'delimiter', 'html4excel', ...ENRICH, ...HIERARCHY],
  book: [...PDF_LAYOUT, ...ENRICH, ...HIERARCHY],
  laws: [...PDF_LAYOUT, ...ENRICH, ...HIERARCHY],
  manual: [...PDF_LAYOUT, ...ENRICH, ...HIERARCHY],
  paper: [...PDF_LAYOUT, ...ENRICH, ...HIERARCHY],
  presentation: [...PDF_LAYOUT, ...ENRICH, ...HIERARCHY],
  qa: [...PDF_LAYOUT, 'tags', ...HIERARCHY],
  resume: [...ENRICH],
  table: [...ENRICH],
  picture: [...ENRICH],
  one: ['layout', 'pages', ...ENRICH, ...HIERARCHY],
  knowledge_graph: ['layout', 'pages', 'chunkTokenNum', 'delimiter', 'entityTypes'],
  tag: [],
  email: [...ENRICH],
  audio: [...ENRICH],
};

export function methodUses(method: string, field: ParserField): boolean {
  return (METHOD_FIELDS[method] ?? METHOD_FIELDS.naive).includes(field);
}

/** The largest chunk token number a method allows (knowledge_graph keeps its 8192 default). */
export function maxChunkTokens(method: string): number {
  return method === 'knowledge_graph' ? 8192 : 2048;
}

export interface ParserConfigValues extends Omit<ParserConfig, 'pages' | 'raptor' | 'graphrag'> {
  pages: PageRange[];
  raptor: RaptorConfig;
  graphrag: GraphragConfig;
}

export interface KbConfigValues {
  name: string;
  avatar: string | null;
  description: string;
  language: string;
  permission: KbPermission;
  embd_id: string;
  parser_id: string;
  pagerank: number;
  parser_config: ParserConfigValues;
}

/** Stored values over the method's defaults, so every shown field starts with a value. */
export function parserValues(method: string, stored: ParserConfig | undefined): ParserConfigValues {
  const defaults = parserFieldDefaults(method);
  const config = stored ?? {};
  return {
    ...defaults,
    ...config,
    pages: fromPages(config.pages),
    raptor: { ...defaults.raptor, ...(config.raptor ?? {}) },
    graphrag: { ...defaults.graphrag, ...(config.graphrag ?? {}) },
  };
}

export function toFormValues(kb: KbDetail): KbConfigValues {
  return {
    name: kb.name,
    avatar: kb.avatar,
    description: kb.description ?? '',
    language: kb.language || 'English',
    permission: kb.permission === 'team' ? 'team' : 'me',
    embd_id: kb.embd_id,
    parser_id: kb.parser_id,
    pagerank: kb.pagerank ?? 0,
    parser_config: parserValues(kb.parser_id, kb.parser_config),
  };
}

/** Form rows → a stored parser_config: empty page lists are dropped (= the whole document). */
export function toParserConfig(base: ParserConfig, values: Partial<ParserConfigValues>): ParserConfig {
  const { pages, ...rest } = values;
  const config: ParserConfig = { ...base, ...rest };
  const stored = toPages(pages);
  if (stored.length > 0) config.pages = stored;
  else delete config.pages;
  return config;
}

/**
 * The body of `kb/update`: only the fields a client may send. parser_config replaces the stored one
 * on the server, so keys the form does not show (llm_id, context sizes…) are carried over.
 */
export function toUpdateBody(kb: KbDetail, values: KbConfigValues): KbUpdateBody {
  return {
    kb_id: kb.id,
    name: values.name.trim(),
    description: values.description ?? '',
    parser_id: values.parser_id,
    avatar: values.avatar ?? null,
    language: values.language,
    permission: values.permission,
    ...(values.embd_id && values.embd_id !== kb.embd_id ? { embd_id: values.embd_id } : {}),
    pagerank: values.pagerank ?? 0,
    parser_config: toParserConfig(kb.parser_config ?? {}, values.parser_config),
  };
}
