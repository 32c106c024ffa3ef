import type { ArgValidator } from '../../../args/spec.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { coreErrors } from '../../../http/errors.js';
import { intval, isEmpty, isNumeric } from '../../../http/php.js';
import { MediaError, type MediaLibrary } from '../../../media/library.js';
import type { AttachmentRecord } from '../../../store/media-records.js';
import type { SiteStore } from '../../../store/repositories.js';

/**
 * TEC's is_image: an attachment id of an image, or an image URL. TEC fetches the URL (HEAD) while
 * validating, before permissions are checked, so anyone could make the site request any URL; here the URL
 * is only checked to be http(s) now and fetched (guarded) by the write, for callers who may upload.
 */
export const isImage: ArgValidator = async (value, { request }) => {
  if (isNumeric(value)) {
    const id = intval(value);
    if (id <= 0) return false;
    const attachment = await request.site.store.attachments.get(id);
    return attachment !== null && attachment.mimeType.startsWith('image/');
  }
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

export const isImageOrEmpty: ArgValidator = (value, ctx) => isEmpty(value) || isImage(value, ctx);

const invalidImage = () => coreErrors.invalidParams({ image: 'Invalid parameter.' }, {});

/**
 * The featured image a write asks for: undefined when `image` is not sent, 0 to remove it, else an
 * attachment id. A URL is sideloaded through the guarded client (TEC's Tribe__Image__Uploader: a URL seen
 * before gives the same attachment); it needs `upload_files`. Runs before the write's transaction.
 */
export async function requestedImage(request: ApiRequest): Promise<number | undefined> {
  if (!request.provided('image')) return undefined;
  const value = request.get('image');
  if (isEmpty(value)) return 0;
  if (isNumeric(value)) return intval(value);
  if (!request.can('upload_files')) throw invalidImage();
  try {
    return (await request.site.media.sideload(String(value), { authorId: request.principal?.id ?? 0 })).id;
  } catch (error) {
    if (error instanceof MediaError) throw invalidImage();
    throw error;
  }
}

/** The attachments that records show as their image, by id. */
export async function imagesOf(store: SiteStore, records: ReadonlyArray<{ imageId: number }>): Promise<Map<number, AttachmentRecord>> {
  const ids = [...new Set(records.map((r) => r.imageId).filter((id) => id > 0))];
  if (!ids.length) return new Map();
  return new Map((await store.attachments.getMany(ids)).map((a) => [a.id, a]));
}

/** TEC's image object for a record's featured image, or false. */
export function imageObject(media: MediaLibrary, images: ReadonlyMap<number, AttachmentRecord>, imageId: number): Record<string, unknown> | false {
  return imageId ? media.calendarImage(images.get(imageId)) : false;
}
