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
import { metaSettingRows, toMetaSetting, type MetaSettingRow } from './structure-config';

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
  | 'graphrag'
  | 'childrenDelimiter'
  | 'tocExtraction'
  | 'metadata'
  | 'fieldMap';

const PDF_LAYOUT: ParserField[] = ['layout', 'taskPageSize', 'pages'];
const ENRICH: ParserField[] = ['autoKeywords', 'autoQuestions', 'tags', 'metadata'];
const HIERARCHY: ParserField[] = ['raptor', 'graphrag'];
/** Parent/child chunks and a table of contents: for methods whose chunks are running text. */
const STRUCTURE: ParserField[] = ['childrenDelimiter', 'tocExtraction'];

/** Settings each chunk method reads (API.md §19.7); the rest are kept but not shown. */
export const METHOD_FIELDS: Record<string, readonly ParserField[]> = {
  naive: [...PDF_LAYOUT, 'chunkTokenNum', 'delimiter', 'html4excel', ...STRUCTURE, ...ENRICH, ...HIERARCHY],
  book: [...PDF_LAYOUT, ...STRUCTURE, ...ENRICH, ...HIERARCHY],
  laws: [...PDF_LAYOUT, ...STRUCTURE, ...ENRICH, ...HIERARCHY],
  manual: [...PDF_LAYOUT, ...STRUCTURE, ...ENRICH, ...HIERARCHY],
  paper: [...PDF_LAYOUT, ...STRUCTURE, ...ENRICH, ...HIERARCHY],
  presentation: [...PDF_LAYOUT, ...STRUCTURE, ...ENRICH, ...HIERARCHY],
  qa: [...PDF_LAYOUT, 'tags', 'metadata', ...HIERARCHY],
  resume: [...ENRICH],
  table: [...ENRICH, 'fieldMap'],
  picture: [...ENRICH],
  one: ['layout', 'pages', ...STRUCTURE, ...ENRICH, ...HIERARCHY],
  knowledge_graph: ['layout', 'pages', 'chunkTokenNum', 'delimiter', 'entityTypes'],
  tag: [],
  email: [...STRUCTURE, ...ENRICH],
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
  /** Parent/child chunks (empty = off). */
  children_delimiter: string;
  toc_extraction: boolean;
  enable_metadata: boolean;
  /** The metadata fields to extract, as form rows (stored as a list, `kb/update_metadata_setting`'s `metadata`). */
  metadata: MetaSettingRow[];
}

/** Keys of a stored parser_config the form never sends back: the server writes them (the Table field map). */
const SERVER_OWNED = ['field_map'] as const;

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
    children_delimiter: typeof stored?.children_delimiter === 'string' ? stored.children_delimiter : '',
    toc_extraction: extra(stored).toc_extraction === true,
    enable_metadata: extra(stored).enable_metadata === true,
    metadata: metaSettingRows(extra(stored).metadata),
  };
}

/** Keys of a stored parser_config that the shared type does not list (API.md §19.6 "other keys"). */
function extra(config: ParserConfig | undefined): Record<string, unknown> {
  return (config ?? {}) as Record<string, unknown>;
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

/**
 * Form rows → a stored parser_config: empty page lists are dropped (= the whole document), an empty
 * child delimiter is dropped (= no child chunks), metadata rows become the stored list (only when the
 * KB had a setting or the form lists fields), and server-owned keys keep their stored value.
 */
export function toParserConfig(base: ParserConfig, values: Partial<ParserConfigValues>): ParserConfig {
  const { pages, metadata, children_delimiter, ...rest } = values;
  const config: Record<string, unknown> = { ...base, ...rest };
  const stored = toPages(pages);
  if (stored.length > 0) config.pages = stored;
  else delete config.pages;
  if (children_delimiter) config.children_delimiter = children_delimiter;
  else delete config.children_delimiter;
  if (metadata !== undefined && (metadata.length > 0 || extra(base).metadata !== undefined)) {
    config.metadata = toMetaSetting(metadata);
  }
  for (const key of SERVER_OWNED) {
    if (extra(base)[key] !== undefined) config[key] = extra(base)[key];
    else delete config[key];
  }
  return config as ParserConfig;
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
