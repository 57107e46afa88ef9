/**
 * Knowledge bases and documents (API.md §5, §6, §19.6): name limits, upload allow-list, and the
 * parser_config defaults and bounds the client needs. Payload shapes are in `contract/kb.ts` and
 * `contract/document.ts`. The server keeps its own copy of the rules (apps/server/src/ingest/
 * parser-config.ts, file-types.ts); these mirror them for the UI.
 */
import { IMAGE_EXTENSIONS } from './constants.js';
import type { ParserConfig, RaptorConfig } from './contract/common.js';
import type { kbContract } from './contract/kb.js';
import type { BodyInput } from './contract/route.js';

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
/** Document languages offered for a knowledge base (stored by name). */
export const KB_LANGUAGES = ['English', 'Chinese'] as const;
export const RAPTOR_DEFAULT_PROMPT =
  'Please summarize the following paragraphs. Be careful with the numbers, do not make things up. Paragraphs as following:\n      {cluster_content}\nThe above is the content you need to summarize.';

export const RAPTOR_DEFAULTS = {
  use_raptor: true,
  prompt: RAPTOR_DEFAULT_PROMPT,
  max_token: 256,
  threshold: 0.1,
  max_cluster: 64,
  random_seed: 0,
} satisfies RaptorConfig;

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

/** Body of `POST /v1/kb/update`. */
export type KbUpdateBody = BodyInput<typeof kbContract.update>;
