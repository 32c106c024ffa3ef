import type { AttachmentMetadata, AttachmentSizeMeta, ImageMeta } from '../store/media-records.js';
import { inCreationOrder, resizeDimensions, suffixedName, type ImageSize } from './image-sizes.js';
import type { ImageProcessor, ProbedImage } from './images.js';
import type { FileStorage } from './file-storage.js';
import type { ImageType } from './sniff.js';

/** wp_read_image_metadata's answer for a file without IPTC/EXIF text: every value a string. */
function blankImageMeta(orientation: number | null): ImageMeta {
  return {
    aperture: '0',
    credit: '',
    camera: '',
    caption: '',
    created_timestamp: '0',
    copyright: '',
    focal_length: '0',
    iso: '0',
    shutter_speed: '0',
    title: '',
    orientation: orientation === null ? '0' : String(orientation),
    keywords: [],
  };
}

export const folderOf = (key: string) => (key.includes('/') ? key.slice(0, key.lastIndexOf('/') + 1) : '');
export const baseName = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/** What image processing reads: the local path when the storage has one, else the bytes. */
export async function sourceOf(files: FileStorage, key: string): Promise<string | Buffer | null> {
  if (files.localPath) return (await files.exists(key)) ? files.localPath(key) : null;
  return files.read(key);
}

export interface GenerateOptions {
  files: FileStorage;
  processor: ImageProcessor;
  sizes: readonly ImageSize[];
  type: ImageType;
  /** `false` turns big-image scaling off. */
  bigImageThreshold: number | false;
  /** The upload's size in bytes, when known (saves reading it back). */
  originalBytes?: number;
  /** Sizes not to make (they are kept from the old metadata instead); default none. */
  skip?: (size: ImageSize, plan: { width: number; height: number } | null) => Promise<boolean>;
}

export interface GeneratedMetadata {
  metadata: AttachmentMetadata;
  /** The storage key of the file the attachment now shows (the `-scaled` / `-rotated` copy, or the original). */
  file: string;
  /** Sizes left out by `skip`, in registration order. */
  skipped: string[];
}

/**
 * wp_generate_attachment_metadata / wp_create_image_subsizes for the image stored at `originalKey`: big
 * images (except PNG) get a `-scaled` copy no larger than the threshold, images with an EXIF orientation a
 * `-rotated` upright copy; either then becomes the attached file and `original_image` names the upload. Every
 * registered size the image is large enough for is made from the original, named `<name>-<w>x<h>.<ext>`, in
 * WordPress's order (medium, large, thumbnail, medium_large, then the others).
 */
export async function generateMetadata(originalKey: string, probed: ProbedImage, options: GenerateOptions): Promise<GeneratedMetadata> {
  const { files, processor, type } = options;
  const folder = folderOf(originalKey);
  const originalName = baseName(originalKey);
  const source = await sourceOf(files, originalKey);
  if (source === null) throw new Error(`The file ${originalKey} is missing.`);
  const upright = { width: probed.orientedWidth, height: probed.orientedHeight };
  const originalSize = options.originalBytes ?? (await files.read(originalKey))?.length ?? 0;
  const metadata: AttachmentMetadata = {
    width: probed.width,
    height: probed.height,
    file: originalKey,
    filesize: originalSize,
    sizes: {},
    image_meta: blankImageMeta(probed.orientation === 1 && !probed.hadOrientation ? null : probed.orientation),
  };
  let attached = originalKey;
  const threshold = options.bigImageThreshold;
  const big = threshold !== false && type.mime !== 'image/png' && (upright.width > threshold || upright.height > threshold);
  if (big || probed.orientation !== 1) {
    const plan = big
      ? resizeDimensions(upright.width, upright.height, { width: threshold as number, height: threshold as number, crop: false })
      : null;
    const target = plan ?? { srcX: 0, srcY: 0, srcWidth: upright.width, srcHeight: upright.height, width: upright.width, height: upright.height };
    const rendered = await processor.render(source, target, type.format, upright);
    const key = `${folder}${suffixedName(originalName, big ? 'scaled' : 'rotated')}`;
    const stored = await files.write(key, rendered.data, { onConflict: 'replace' });
    attached = stored.key;
    metadata.width = rendered.width;
    metadata.height = rendered.height;
    metadata.file = stored.key;
    metadata.filesize = stored.size;
    if (probed.orientation !== 1) (metadata.image_meta as { orientation: string | number }).orientation = 1;
  }
  const skipped: string[] = [];
  const made: Array<[string, AttachmentSizeMeta]> = [];
  const wanted: ImageSize[] = [];
  for (const size of options.sizes) {
    const plan = resizeDimensions(upright.width, upright.height, size);
    if (options.skip && (await options.skip(size, plan))) skipped.push(size.name);
    else if (plan) wanted.push(size);
  }
  for (const size of inCreationOrder(wanted)) {
    const plan = resizeDimensions(upright.width, upright.height, size)!;
    try {
      const rendered = await processor.render(source, plan, type.format, upright);
      const name = suffixedName(originalName, `${rendered.width}x${rendered.height}`);
      const stored = await files.write(`${folder}${name}`, rendered.data, { onConflict: 'replace' });
      made.push([size.name, { file: name, width: rendered.width, height: rendered.height, 'mime-type': type.mime, filesize: stored.size }]);
    } catch {
      // WordPress goes on with the other sizes when one cannot be made.
    }
  }
  for (const [name, meta] of made) metadata.sizes[name] = meta;
  if (attached !== originalKey) {
    // original_image comes after image_meta, as _wp_image_meta_replace_original adds it.
    metadata.original_image = originalName;
  }
  return { metadata, file: attached, skipped };
}

/** The storage key of the image sizes are made from: the upload itself, not its scaled or rotated copy. */
export function originalKeyOf(file: string, metadata: AttachmentMetadata | null): string {
  return metadata?.original_image ? `${folderOf(file)}${metadata.original_image}` : file;
}
