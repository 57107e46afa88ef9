import { AVATAR_MAX_SIDE_PX } from '@lectern/shared';
import { readAsDataUrl } from './read-file';

/** Target size of a picture whose longest side is at most `max` (never enlarged). */
export function fitWithin(
  width: number,
  height: number,
  max: number = AVATAR_MAX_SIDE_PX,
): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A knowledge-base picture as a PNG data URL whose longest side is at most 100 px (SPEC §9). Falls back
 * to the file as it is when the browser cannot decode it.
 */
export async function avatarDataUrl(file: File): Promise<string> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = fitWithin(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    bitmap.close();
    return canvas.toDataURL('image/png');
  } catch {
    return readAsDataUrl(file);
  }
}
