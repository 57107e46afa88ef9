import sharp from 'sharp';
import { AVATAR_MAX_SIDE_PX } from '@lectern/shared';
import { errors } from '../../http/envelope.js';

const DATA_URL = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/=\s]+)$/i;

/**
 * Avatars are kept as PNG data URLs whose longest side is at most 100 px (SPEC §9), whatever the
 * browser sent: the server does the resize so every client gets the same result.
 */
export async function normalizeAvatar(input: string | null): Promise<string | null> {
  if (input === null || input === '') return null;
  const match = DATA_URL.exec(input);
  if (!match) throw errors.exception('`avatar` must be an image data URL.');
  const bytes = Buffer.from(match[1], 'base64');
  try {
    const png = await sharp(bytes, { limitInputPixels: 64_000_000 })
      .rotate()
      .resize(AVATAR_MAX_SIDE_PX, AVATAR_MAX_SIDE_PX, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    return `data:image/png;base64,${png.toString('base64')}`;
  } catch {
    throw errors.exception('`avatar` is not an image that can be read.');
  }
}
