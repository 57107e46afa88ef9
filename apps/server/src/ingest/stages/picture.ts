/**
 * Picture descriptions (API.md §19.7 `picture`: OCR text + vision-model description = one chunk). With
 * the tenant's image-to-text model (`img2txt_id`) each picture chunk gets the model's description of
 * its image appended to the OCR text; a picture in which OCR found no text (the chunker drops empty
 * chunks) becomes one chunk holding the description alone. Without a model, or when the model fails,
 * the OCR text stays alone and the log says why.
 */
import sharp from 'sharp';
import { progressMessage } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import { loadPicture } from '../parsers/image.js';
import type { ChunkDraft } from '../types.js';
import type { Image2TextModel } from '../../models/ports.js';
import { defaultModelId, modelFor } from '../../models/registry.js';
import type { TaskProgress } from '../../queue/progress.js';

/** Longest side of a picture sent to the model (the stored chunk picture has the same bound). */
const SEND_MAX_SIDE = 1280;

function stopping(err: unknown, signal: AbortSignal): boolean {
  const name = (err as Error)?.name;
  return signal.aborted || name === 'TaskCancelled' || name === 'TaskLost';
}

/** A JPEG of the original upload, for pictures the chunker produced no chunk for. */
async function pictureOf(bytes: Buffer, ext: string): Promise<Buffer> {
  const img = await loadPicture(bytes, ext);
  const flat = await img.flatten({ background: '#ffffff' }).toColourspace('srgb').png().toBuffer();
  return sharp(flat)
    .resize({ width: SEND_MAX_SIDE, height: SEND_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Adds descriptions to the picture chunks of a `picture`-method image document. Returns the drafts
 * (one new draft when OCR produced none and the model described the picture).
 */
export async function describePictures(
  ctx: AppContext,
  tenantId: string,
  file: { bytes: Buffer | null; ext: string },
  drafts: ChunkDraft[],
  progress: TaskProgress,
  signal: AbortSignal,
): Promise<ChunkDraft[]> {
  const pictures = drafts.filter((d) => d.doc_type_kwd === 'image' && d.image);
  if (drafts.length > 0 && pictures.length === 0) return drafts;
  if (drafts.length === 0 && !file.bytes) return drafts;
  const modelId = await defaultModelId(ctx, tenantId, 'image2text');
  if (!modelId) {
    await progress.report(null, progressMessage('pictureNoModel'));
    return drafts;
  }
  let model: Image2TextModel;
  try {
    model = await modelFor(ctx, tenantId, modelId, 'image2text');
  } catch (err) {
    await progress.report(
      null,
      progressMessage('pictureModelUnavailable', { model: modelId, error: (err as Error).message }),
    );
    return drafts;
  }
  const out = [...drafts];
  try {
    if (out.length === 0) {
      const image = await pictureOf(file.bytes!, file.ext);
      out.push({ content_with_weight: '', positions: [], doc_type_kwd: 'image', image });
    }
    for (const d of out.filter((x) => x.doc_type_kwd === 'image' && x.image)) {
      await progress.checkCancel();
      await progress.report(null, progressMessage('pictureDescribe', { model: modelId }));
      const answer = (
        await model.describe({ data: d.image!, mimeType: 'image/jpeg' }, undefined, { signal })
      ).text.trim();
      await progress.report(
        null,
        progressMessage('pictureAnswer', {
          answer: `${answer.slice(0, 32)}${answer.length > 32 ? '...' : ''}`,
        }),
      );
      if (answer) d.content_with_weight = [d.content_with_weight.trim(), answer].filter(Boolean).join('\n');
    }
  } catch (err) {
    if (stopping(err, signal)) throw err;
    await progress.report(null, progressMessage('pictureFailed', { error: (err as Error).message }));
    return drafts.filter((d) => d.content_with_weight.trim());
  }
  return out.filter((d) => d.content_with_weight.trim());
}
