/** Business constants of SPEC §9 and API.md shared by server and client (wire enums: `contract/enums.ts`). */
import type { ChunkMethod } from './contract/enums.js';

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

export const PASSWORD_MIN_EXCLUSIVE = 8; // the password must be LONGER than 8 characters
export const REQUEST_TIMEOUT_MS = 300_000;
export const AVATAR_MAX_SIDE_PX = 100;
export const AUTH_TOKEN_LOG_PREVIEW = 10;

export const DEFAULT_TIMEZONE = 'UTC+8\tAsia/Shanghai';

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'tif', 'tiff', 'webp', 'ico'] as const;

export const UPLOAD_LIMITS = {
  maxFileBytes: 1024 * 1024 * 1024,
  maxFilesPerBatch: 32,
} as const;

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
