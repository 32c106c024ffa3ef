import { phpTrim } from '../http/php.js';
/** An image type the media library accepts, told by its content (never by the name or a header). */
export interface ImageType {
  mime: string;
  /** The extension WordPress gives files of this type. */
  extension: string;
  /** Extensions that already name this type (a `.jpeg` upload keeps its name). */
  extensions: readonly string[];
  /** sharp's output format. */
  format: 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';
}

export const IMAGE_TYPES: readonly ImageType[] = [
  { mime: 'image/jpeg', extension: 'jpg', extensions: ['jpg', 'jpeg', 'jpe'], format: 'jpeg' },
  { mime: 'image/png', extension: 'png', extensions: ['png'], format: 'png' },
  { mime: 'image/gif', extension: 'gif', extensions: ['gif'], format: 'gif' },
  { mime: 'image/webp', extension: 'webp', extensions: ['webp'], format: 'webp' },
  { mime: 'image/avif', extension: 'avif', extensions: ['avif'], format: 'avif' },
];

/** How many leading bytes {@link sniffImageType} needs. */
export const SNIFF_BYTES = 64;

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/**
 * The image type of a file from its first bytes (magic numbers), or null. AVIF is an ISO-BMFF file whose
 * `ftyp` box names the `avif` or `avis` brand, as major or compatible brand.
 */
export function sniffImageType(head: Uint8Array): ImageType | null {
  const byMime = (mime: string) => IMAGE_TYPES.find((t) => t.mime === mime)!;
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return byMime('image/jpeg');
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)) return byMime('image/png');
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return byMime('image/gif');
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return byMime('image/webp');
  if (ascii(head, 4, 'ftyp') && head.length >= 16) {
    const boxSize = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
    const end = Math.min(head.length, boxSize >= 16 ? boxSize : 16);
    for (let at = 8; at + 4 <= end; at += 4) {
      if (at === 12) continue; // minor version
      if (ascii(head, at, 'avif') || ascii(head, at, 'avis')) return byMime('image/avif');
    }
  }
  return null;
}

export function imageTypeOfMime(mime: string): ImageType | undefined {
  return IMAGE_TYPES.find((t) => t.mime === mime.toLowerCase());
}

/** Upload names the way WordPress's sanitize_file_name leaves them: no path, no special characters, dashes for spaces. */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  let out = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[?[\]/\\=<>:;,'"&$#*()|~`!{}%+’«»”“]/g, '')
    .replace(/[\s\u00a0]+/g, '-')
    .replace(/-+/g, '-');
  out = phpTrim(out, '.-_');
  if (out.length > 200) {
    const dot = out.lastIndexOf('.');
    const ext = dot > 0 && out.length - dot <= 10 ? out.slice(dot) : '';
    out = out.slice(0, 200 - ext.length) + ext;
  }
  return out;
}

/**
 * The stored file name for an upload of `type`: the sanitized name, its extension corrected to the real type
 * (WordPress wp_check_filetype_and_ext renames a JPEG sent as `photo.png` to `photo.jpg`).
 */
export function fileNameFor(name: string, type: ImageType): string {
  const clean = sanitizeFileName(name) || 'image';
  const dot = clean.lastIndexOf('.');
  const stem = dot > 0 ? clean.slice(0, dot) : clean;
  const ext = dot > 0 ? clean.slice(dot + 1).toLowerCase() : '';
  return `${stem}.${type.extensions.includes(ext) ? clean.slice(dot + 1) : type.extension}`;
}
