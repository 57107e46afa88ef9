/** Content types of served files (API.md §1.1). */
const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  mdx: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  jpg: 'image/jpeg',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const IMAGE_EXT = new Set(['png', 'jpeg', 'gif', 'bmp', 'tif', 'tiff', 'webp', 'ico', 'avif']);

/** Content type from the extension (API.md §1.1): images `image/<ext>`, else `application/<ext>`. */
export function contentTypeOf(ext: string): string {
  if (CONTENT_TYPES[ext]) return CONTENT_TYPES[ext];
  if (IMAGE_EXT.has(ext)) return `image/${ext}`;
  return `application/${ext || 'octet-stream'}`;
}
