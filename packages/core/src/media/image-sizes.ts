/** A horizontal and vertical crop anchor, as WordPress's `add_image_size( …, array( 'left', 'top' ) )`. */
export type CropAnchor = readonly ['left' | 'center' | 'right', 'top' | 'center' | 'bottom'];

/** A registered image size: a bounding box (0 = unbounded), hard-cropped to it or scaled to fit inside. */
export interface ImageSize {
  name: string;
  width: number;
  height: number;
  crop: boolean | CropAnchor;
}

/**
 * WordPress's default sizes in registration order: the four option-backed ones, then the two core adds with
 * add_image_size (`1536x1536`, `2048x2048`).
 */
export const DEFAULT_IMAGE_SIZES: readonly ImageSize[] = [
  { name: 'thumbnail', width: 150, height: 150, crop: true },
  { name: 'medium', width: 300, height: 300, crop: false },
  { name: 'medium_large', width: 768, height: 0, crop: false },
  { name: 'large', width: 1024, height: 1024, crop: false },
  { name: '1536x1536', width: 1536, height: 1536, crop: false },
  { name: '2048x2048', width: 2048, height: 2048, crop: false },
];

/** WordPress's `big_image_size_threshold`: larger uploads are scaled down to this and saved as `-scaled`. */
export const BIG_IMAGE_THRESHOLD = 2560;

/** The order in which _wp_make_subsizes makes sizes (and so the order of `sizes` in the metadata). */
const PRIORITY = ['medium', 'large', 'thumbnail', 'medium_large'];

export function inCreationOrder(sizes: readonly ImageSize[]): ImageSize[] {
  const first = PRIORITY.map((name) => sizes.find((s) => s.name === name)).filter((s): s is ImageSize => s !== undefined);
  return [...first, ...sizes.filter((s) => !PRIORITY.includes(s.name))];
}

/** Sizes an app registers on top of (or replacing) the defaults; the name keeps its first position. */
export function mergeImageSizes(base: readonly ImageSize[], extra: readonly ImageSize[]): ImageSize[] {
  const out = [...base];
  for (const size of extra) {
    if (!/^[\w-]{1,64}$/.test(size.name)) throw new Error(`Invalid image size name "${size.name}".`);
    if (!Number.isInteger(size.width) || !Number.isInteger(size.height) || size.width < 0 || size.height < 0 || size.width > 20000 || size.height > 20000) {
      throw new Error(`Invalid dimensions for image size "${size.name}".`);
    }
    const at = out.findIndex((s) => s.name === size.name);
    if (at === -1) out.push(size);
    else out[at] = size;
  }
  return out;
}

/** WordPress wp_fuzzy_number_match: within one pixel. */
const fuzzyMatch = (a: number, b: number) => Math.abs(a - b) <= 1;

/** PHP round(): halves away from zero. */
const phpRound = (n: number) => Math.sign(n) * Math.round(Math.abs(n));

/**
 * WordPress wp_constrain_dimensions: scale to fit the box (0 = unbounded), never up, rounding a pixel short
 * of a bound up to it.
 */
export function constrainDimensions(width: number, height: number, maxWidth = 0, maxHeight = 0): [number, number] {
  if (!maxWidth && !maxHeight) return [width, height];
  let widthRatio = 1;
  let heightRatio = 1;
  let didWidth = false;
  let didHeight = false;
  if (maxWidth > 0 && width > 0 && width > maxWidth) {
    widthRatio = maxWidth / width;
    didWidth = true;
  }
  if (maxHeight > 0 && height > 0 && height > maxHeight) {
    heightRatio = maxHeight / height;
    didHeight = true;
  }
  const smaller = Math.min(widthRatio, heightRatio);
  const larger = Math.max(widthRatio, heightRatio);
  const ratio = phpRound(width * larger) > maxWidth || phpRound(height * larger) > maxHeight ? smaller : larger;
  let w = Math.max(1, phpRound(width * ratio));
  let h = Math.max(1, phpRound(height * ratio));
  if (didWidth && w === maxWidth - 1) w = maxWidth;
  if (didHeight && h === maxHeight - 1) h = maxHeight;
  return [w, h];
}

/** Where to cut and what to scale to: WordPress image_resize_dimensions, or null when the size is not made. */
export interface ResizePlan {
  srcX: number;
  srcY: number;
  srcWidth: number;
  srcHeight: number;
  width: number;
  height: number;
}

export function resizeDimensions(origWidth: number, origHeight: number, size: Pick<ImageSize, 'width' | 'height' | 'crop'>): ResizePlan | null {
  if (origWidth <= 0 || origHeight <= 0) return null;
  const { width: destWidth, height: destHeight, crop } = size;
  if (destWidth <= 0 && destHeight <= 0) return null;
  let newWidth: number;
  let newHeight: number;
  let srcX = 0;
  let srcY = 0;
  let srcWidth = origWidth;
  let srcHeight = origHeight;
  if (crop) {
    const aspect = origWidth / origHeight;
    newWidth = Math.min(destWidth, origWidth);
    newHeight = Math.min(destHeight, origHeight);
    if (!newWidth) newWidth = phpRound(newHeight * aspect);
    if (!newHeight) newHeight = phpRound(newWidth / aspect);
    const sizeRatio = Math.max(newWidth / origWidth, newHeight / origHeight);
    srcWidth = phpRound(newWidth / sizeRatio);
    srcHeight = phpRound(newHeight / sizeRatio);
    const [x, y] = Array.isArray(crop) ? crop : ['center', 'center'];
    srcX = x === 'left' ? 0 : x === 'right' ? origWidth - srcWidth : Math.floor((origWidth - srcWidth) / 2);
    srcY = y === 'top' ? 0 : y === 'bottom' ? origHeight - srcHeight : Math.floor((origHeight - srcHeight) / 2);
  } else {
    [newWidth, newHeight] = constrainDimensions(origWidth, origHeight, destWidth, destHeight);
  }
  // A size with (virtually) the original's dimensions is not made: the original serves it.
  if (fuzzyMatch(newWidth, origWidth) && fuzzyMatch(newHeight, origHeight)) return null;
  return { srcX, srcY, srcWidth, srcHeight, width: Math.trunc(newWidth), height: Math.trunc(newHeight) };
}

/** A file name with a suffix before its extension: `photo.jpg` + `150x150` → `photo-150x150.jpg`. */
export function suffixedName(fileName: string, suffix: string, extension?: string): string {
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const ext = extension ?? (dot > 0 ? fileName.slice(dot + 1) : '');
  return ext ? `${stem}-${suffix}.${ext}` : `${stem}-${suffix}`;
}
