/**
 * Files of agent runs: uploads for file inputs (`POST /v1/canvas/upload/<id>`, stored in the blob
 * store under the canvas) and agent-core's `StoragePort` over them — an image becomes a data URL,
 * any other file its text through the ingest parsers (in the parse child processes) — plus the
 * Message component's attachments.
 */
import type { Attachment, StoragePort, UploadDescriptor } from '@lectern/agent-core';
import type { AppContext } from '../context.js';
import { extensionOf } from '../ingest/file-types.js';
import { newId } from '../util/ids.js';

/** Uploads belong to the canvas owner's tenant: any of its canvases' runs may read them. */
const uploadKey = (tenantId: string, id: string) => `agent-uploads/${tenantId}/${id}`;

const MIME_OF: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function mimeOf(fileName: string): string {
  return MIME_OF[extensionOf(fileName)] ?? 'application/octet-stream';
}

/** Stores one upload of a canvas's run form; answers its descriptor (AGENTS.md §5). */
export async function saveUpload(
  ctx: AppContext,
  tenantId: string,
  createdBy: string,
  file: { name: string; bytes: Buffer },
): Promise<Required<Omit<UploadDescriptor, 'preview_url'>> & { preview_url: string | null }> {
  const id = newId();
  await ctx.blobs.put(uploadKey(tenantId, id), file.bytes);
  return {
    id,
    name: file.name,
    size: file.bytes.length,
    extension: extensionOf(file.name),
    mime_type: mimeOf(file.name),
    created_by: createdBy,
    created_at: Date.now() / 1000,
    preview_url: null,
  };
}

const PLAIN_TEXT = new Set(['txt', 'md', 'markdown', 'csv', 'json']);

const TEXT_FORMATS: Record<string, string> = { markdown: 'md', md: 'md', html: 'html', txt: 'txt' };

export function agentStoragePort(ctx: AppContext, tenantId: string, canvasId: string): StoragePort {
  return {
    async fileToText(file: UploadDescriptor) {
      const bytes = await ctx.blobs.get(uploadKey(tenantId, String(file.id)));
      if (!bytes) throw new Error(`File ${file.name} was not found; upload it again.`);
      const mime = file.mime_type || mimeOf(file.name);
      if (mime.startsWith('image/')) return `data:${mime};base64,${bytes.toString('base64')}`;
      const ext = (file.extension || extensionOf(file.name)).toLowerCase();
      // Plain text needs no parser process.
      if (PLAIN_TEXT.has(ext)) return bytes.toString('utf8');
      return ctx.parsePool.run<string>(
        'text',
        { bytes, ext: file.extension || extensionOf(file.name), fileName: file.name },
        { timeoutMs: 300_000 },
      );
    },
    async saveAttachment({ content, format }): Promise<Attachment> {
      const ext = TEXT_FORMATS[format.toLowerCase()];
      if (!ext) throw new Error(`Attachments in ${format} format are not available yet.`);
      const id = newId();
      await ctx.blobs.put(`agent-attachments/${canvasId}/${id}.${ext}`, Buffer.from(content, 'utf8'));
      return { doc_id: id, format, file_name: `${id}.${ext}` };
    },
  };
}
