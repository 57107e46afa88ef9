/**
 * Knowledge bases and documents (API.md §5, §6, §19.6): payload shapes, name limits, upload allow-list,
 * and the parser_config defaults and bounds the client needs. The server keeps its own copy of the
 * rules (apps/server/src/ingest/parser-config.ts, file-types.ts); these mirror them for the UI.
 */
import { IMAGE_EXTENSIONS, type ChunkMethod } from './constants.js';

/** Dataset names: at most 128 UTF-8 bytes; file/document names: 255 (API.md §1.8). */
export const KB_NAME_LIMIT_BYTES = 128;
export const DOC_NAME_LIMIT_BYTES = 255;

/** Bounds of parser_config values and the KB page rank (API.md §19.6, §5). `max` absent = unbounded. */
export const PARSER_BOUNDS = {
  chunk_token_num: { min: 1, max: 2048 },
  /** `knowledge_graph` keeps its own 8192-token default. */
  chunk_token_num_knowledge_graph: { min: 1, max: 8192 },
  auto_keywords: { min: 0, max: 32 },
  auto_questions: { min: 0, max: 10 },
  topn_tags: { min: 1, max: 10 },
  task_page_size: { min: 1 },
  pagerank: { min: 0, max: 100 },
  raptor_max_token: { min: 1, max: 2048 },
  raptor_threshold: { min: 0, max: 1 },
  raptor_max_cluster: { min: 1, max: 1024 },
  raptor_random_seed: { min: 0 },
} as const satisfies Record<string, { min: number; max?: number }>;

/** Built-in choices of the PDF layout recognizer (a vision-model id is also accepted). */
export const LAYOUT_RECOGNIZERS = ['DeepDOC', 'Plain Text'] as const;
export const GRAPH_METHODS = ['light', 'general'] as const;
export type GraphMethod = (typeof GRAPH_METHODS)[number];
/** Document languages offered for a knowledge base (stored by name). */
export const KB_LANGUAGES = ['English', 'Chinese'] as const;
export const KB_PERMISSIONS = ['me', 'team'] as const;
export type KbPermission = (typeof KB_PERMISSIONS)[number];

export const RAPTOR_DEFAULT_PROMPT =
  'Please summarize the following paragraphs. Be careful with the numbers, do not make things up. Paragraphs as following:\n      {cluster_content}\nThe above is the content you need to summarize.';

export interface RaptorConfig {
  use_raptor?: boolean;
  prompt?: string;
  max_token?: number;
  threshold?: number;
  max_cluster?: number;
  random_seed?: number;
}

export interface GraphragConfig {
  use_graphrag?: boolean;
  entity_types?: string[];
  method?: GraphMethod;
  resolution?: boolean;
  community?: boolean;
}

/** The parser_config keys the UI edits. */
export interface ParserConfigFields {
  layout_recognize?: string;
  chunk_token_num?: number;
  delimiter?: string;
  auto_keywords?: number;
  auto_questions?: number;
  html4excel?: boolean;
  topn_tags?: number;
  tag_kb_ids?: string[];
  task_page_size?: number;
  /** 1-based inclusive page ranges `[[from, to], …]`. */
  pages?: Array<[number, number]>;
  entity_types?: string[];
  raptor?: RaptorConfig;
  graphrag?: GraphragConfig;
}

/** A stored parser_config: the keys above plus any other the server keeps as it is. */
export interface ParserConfig extends ParserConfigFields {
  [key: string]: unknown;
}

export const RAPTOR_DEFAULTS: Required<RaptorConfig> = {
  use_raptor: true,
  prompt: RAPTOR_DEFAULT_PROMPT,
  max_token: 256,
  threshold: 0.1,
  max_cluster: 64,
  random_seed: 0,
};

export const DEFAULT_ENTITY_TYPES = ['organization', 'person', 'geo', 'event', 'category'];
export const KNOWLEDGE_GRAPH_ENTITY_TYPES = ['organization', 'person', 'location', 'event', 'time'];

/** Values a settings form starts from when a method's stored config lacks them (API.md §19.6). */
export function parserFieldDefaults(method: string): ParserConfig {
  return {
    layout_recognize: 'DeepDOC',
    chunk_token_num: method === 'knowledge_graph' ? 8192 : 512,
    delimiter: '\n',
    auto_keywords: 0,
    auto_questions: 0,
    html4excel: false,
    topn_tags: 3,
    tag_kb_ids: [],
    task_page_size: method === 'paper' ? 22 : 12,
    entity_types: KNOWLEDGE_GRAPH_ENTITY_TYPES,
    raptor: { ...RAPTOR_DEFAULTS, use_raptor: false },
    graphrag: {
      use_graphrag: false,
      entity_types: DEFAULT_ENTITY_TYPES,
      method: 'light',
      resolution: false,
      community: false,
    },
  };
}

/** Extensions of the API.md §12.3 document types other than `other`: what a knowledge base accepts. */
export const UPLOAD_EXTENSIONS: readonly string[] = [
  'pdf',
  'msg', 'eml', 'doc', 'docx', 'ppt', 'pptx', 'yml', 'xml', 'htm', 'html', 'json', 'jsonl', 'ldjson', 'csv', 'txt',
  'ini', 'xls', 'xlsx', 'wps', 'rtf', 'hlp', 'pages', 'numbers', 'key', 'md', 'mdx', 'py', 'js', 'java', 'c', 'cpp',
  'h', 'php', 'go', 'ts', 'sh', 'cs', 'kt', 'sql',
  'wav', 'flac', 'ape', 'alac', 'wavpack', 'wv', 'mp3', 'aac', 'ogg', 'vorbis', 'opus',
  'jpg', 'jpeg', 'png', 'tif', 'gif', 'pcx', 'tga', 'exif', 'fpx', 'svg', 'psd', 'cdr', 'pcd', 'dxf', 'ufo', 'eps',
  'ai', 'raw', 'wmf', 'webp', 'avif', 'apng', 'icon', 'ico', 'mpg', 'mpeg', 'avi', 'rm', 'rmvb', 'mov', 'wmv', 'asf',
  'dat', 'asx', 'wvx', 'mpe', 'mpa', 'mp4', 'mkv',
  ...IMAGE_EXTENSIONS.filter((e) => !['jpg', 'jpeg', 'png', 'tif', 'gif', 'webp', 'ico'].includes(e)),
]; // prettier-ignore

/** `POST /v1/kb/list` entry. */
export interface KbListItem {
  id: string;
  avatar: string | null;
  name: string;
  language: string;
  description: string | null;
  tenant_id: string;
  permission: KbPermission;
  doc_num: number;
  token_num: number;
  chunk_num: number;
  parser_id: string;
  embd_id: string;
  nickname: string | null;
  tenant_avatar: string | null;
  update_time: number;
}

export interface KbListAnswer {
  kbs: KbListItem[];
  total: number;
}

/** `GET /v1/kb/detail`. */
export interface KbDetail {
  id: string;
  embd_id: string;
  avatar: string | null;
  name: string;
  language: string;
  description: string | null;
  permission: KbPermission;
  doc_num: number;
  token_num: number;
  chunk_num: number;
  parser_id: ChunkMethod | string;
  parser_config: ParserConfig;
  pagerank: number;
  create_time: number;
  update_time: number;
  size: number;
}

/** Body of `POST /v1/kb/update` (only the fields a client may send). */
export interface KbUpdateBody {
  kb_id: string;
  name: string;
  description: string | null;
  parser_id: string;
  avatar?: string | null;
  language?: string;
  permission?: KbPermission;
  embd_id?: string;
  parser_config?: ParserConfig;
  pagerank?: number;
}

export type DocumentType = 'pdf' | 'doc' | 'visual' | 'aural' | 'virtual' | 'other';

/** The document object of API.md §6 (as `document/list` shows it). */
export interface DocumentInfo {
  id: string;
  kb_id: string;
  name: string;
  type: DocumentType;
  suffix: string;
  size: number;
  location: string;
  thumbnail: string | null;
  parser_id: string;
  parser_config: ParserConfig;
  source_type: string;
  created_by: string;
  token_num: number;
  chunk_num: number;
  progress: number;
  progress_msg: string;
  process_begin_at: string | null;
  process_duration: number;
  run: string;
  status: string;
  meta_fields: Record<string, unknown>;
  create_time: number;
  create_date: string;
  update_time: number;
  update_date: string;
  nickname?: string | null;
}

export interface DocumentListAnswer {
  total: number;
  docs: DocumentInfo[];
}
