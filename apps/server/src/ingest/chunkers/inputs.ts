/** Which file extensions each chunk method accepts (API.md §19.7 "inputs"), lower-case, no dot. */
import { IMAGE_EXTENSIONS } from '@lectern/shared';
import { VIDEO_EXTENSIONS } from './picture.js';

export const CODE_EXTENSIONS = [
  'py',
  'js',
  'java',
  'c',
  'cpp',
  'h',
  'php',
  'go',
  'ts',
  'sh',
  'cs',
  'kt',
  'sql',
];
export const AUDIO_EXTENSIONS = [
  'wav',
  'flac',
  'ape',
  'alac',
  'wavpack',
  'wv',
  'mp3',
  'aac',
  'ogg',
  'vorbis',
  'opus',
];

const NAIVE = [
  'pdf',
  'docx',
  'doc',
  'xlsx',
  'xls',
  'csv',
  'txt',
  ...CODE_EXTENSIONS,
  'md',
  'mdx',
  'markdown',
  'htm',
  'html',
  'json',
  'jsonl',
  'ldjson',
];

export const CHUNK_METHOD_INPUTS: Readonly<Record<string, readonly string[]>> = {
  naive: NAIVE,
  general: NAIVE,
  book: ['pdf', 'docx', 'doc', 'txt', 'htm', 'html'],
  laws: ['pdf', 'docx', 'doc', 'txt', 'md', 'mdx', 'markdown', 'htm', 'html'],
  manual: ['pdf', 'docx'],
  paper: ['pdf'],
  presentation: ['pdf', 'ppt', 'pptx'],
  qa: ['xlsx', 'xls', 'csv', 'txt', 'pdf', 'docx', 'md', 'mdx', 'markdown'],
  resume: ['pdf', 'doc', 'docx', 'txt'],
  table: ['xlsx', 'xls', 'csv', 'txt'],
  picture: [...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS],
  one: ['pdf', 'docx', 'doc', 'xlsx', 'xls', 'txt', 'md', 'mdx', 'markdown', 'htm', 'html'],
  knowledge_graph: NAIVE,
  tag: ['xlsx', 'xls', 'csv', 'txt'],
  email: ['eml', 'msg'],
  audio: AUDIO_EXTENSIONS,
};

/** True when `method` takes files with extension `ext` (case-insensitive, with or without the dot). */
export function methodAccepts(method: string, ext: string): boolean {
  const list = CHUNK_METHOD_INPUTS[method];
  return !!list && list.includes(ext.replace(/^\./, '').toLowerCase());
}
