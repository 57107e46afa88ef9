/** Business constants of SPEC §9 and API.md shared by server and client. */

export const LANGUAGES = ['en', 'zh', 'zh-TRADITIONAL', 'id', 'ja', 'es', 'vi', 'pt-BR', 'de'] as const;
export type LanguageCode = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: LanguageCode = 'en';

/** Display names stored in `user.language` (the server keeps the long name). */
export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: 'English',
  zh: 'Chinese',
  'zh-TRADITIONAL': 'Traditional Chinese',
  id: 'Indonesia',
  ja: 'Japanese',
  es: 'Spanish',
  vi: 'Vietnamese',
  'pt-BR': 'Portuguese (Brazil)',
  de: 'German',
};

/** Browser storage keys (SPEC §1). */
export const STORAGE_KEYS = {
  authorization: 'Authorization',
  token: 'Token',
  userInfo: 'userInfo',
  language: 'lng',
} as const;

export const COLOR_SCHEMAS = ['Bright', 'Dark'] as const;
export type ColorSchema = (typeof COLOR_SCHEMAS)[number];

export const PASSWORD_MIN_EXCLUSIVE = 8; // the password must be LONGER than 8 characters
export const REQUEST_TIMEOUT_MS = 300_000;
export const AVATAR_MAX_SIDE_PX = 100;
export const AUTH_TOKEN_LOG_PREVIEW = 10;

export const DEFAULT_TIMEZONE = 'UTC+8\tAsia/Shanghai';

/** Document parsing status (SPEC §4; `run` is sent as a string). */
export const DocRun = {
  UNSTART: '0',
  RUNNING: '1',
  CANCEL: '2',
  DONE: '3',
  FAIL: '4',
  SCHEDULE: '5',
} as const;
export type DocRun = (typeof DocRun)[keyof typeof DocRun];

export const CHUNK_METHODS = [
  'naive',
  'book',
  'laws',
  'manual',
  'paper',
  'presentation',
  'qa',
  'resume',
  'table',
  'picture',
  'one',
  'knowledge_graph',
  'tag',
] as const;
export type ChunkMethod = (typeof CHUNK_METHODS)[number];

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'tif', 'tiff', 'webp', 'ico'] as const;

export const UPLOAD_LIMITS = {
  maxFileBytes: 1024 * 1024 * 1024,
  maxFilesPerBatch: 32,
} as const;

export const MODEL_TYPES = [
  'chat',
  'embedding',
  'rerank',
  'image2text',
  'speech2text',
  'tts',
  'ocr',
] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

export const CLOUD_REGIONS = [
  'us-east-1',
  'us-west-2',
  'ap-southeast-1',
  'ap-northeast-1',
  'eu-central-1',
  'us-gov-west-1',
  'ap-southeast-2',
] as const;

/** Formats a byte count in 1024-based units, one decimal under 10 (SPEC §9). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} B`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** Display labels of the chunk methods (SPEC §9; `naive` is shown as "General"). */
export const CHUNK_METHOD_LABELS: Record<ChunkMethod, string> = {
  naive: 'General',
  book: 'Book',
  laws: 'Laws',
  manual: 'Manual',
  paper: 'Paper',
  presentation: 'Presentation',
  qa: 'Q&A',
  resume: 'Resume',
  table: 'Table',
  picture: 'Picture',
  one: 'One',
  knowledge_graph: 'Knowledge Graph',
  tag: 'Tag',
};

/** Methods chosen automatically by file type, never offered in the method picker (API.md §6 upload). */
export const AUTO_CHUNK_METHODS = ['email', 'audio'] as const;
