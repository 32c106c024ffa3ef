import { resolve } from 'node:path';
import { createHash } from 'node:crypto';
import type { PostTypeCaps } from '../auth/roles.js';
import { siteZone, type SiteSettings } from '../settings.js';
import type { AttachmentMetadata, AttachmentRecord, NewAttachment } from '../store/media-records.js';
import type { PostRecord } from '../store/records.js';
import type { PostTypeRepository, SiteStore } from '../store/repositories.js';
import { sanitizeTextField } from '../text/sanitize.js';
import { formatWpDate } from '../time.js';
import { postSlug } from '../namespaces/calendar/posts/slugs.js';
import { EVENT_CAPS, EVENT_TYPE, ORGANIZER_CAPS, ORGANIZER_TYPE, VENUE_CAPS, VENUE_TYPE } from '../namespaces/calendar/constants.js';
import { FileTooLargeError, localFileStorage, type FileData, type FileStorage } from './file-storage.js';
import {
  BIG_IMAGE_THRESHOLD,
  constrainDimensions,
  DEFAULT_IMAGE_SIZES,
  mergeImageSizes,
  resizeDimensions,
  suffixedName,
  type ImageSize,
} from './image-sizes.js';
import { ImageProcessingError, ImageProcessor, type ImageProcessorOptions } from './images.js';
import { baseName, folderOf, generateMetadata, originalKeyOf, sourceOf } from './metadata.js';
import { OutboundClient, OutboundRequestError, type OutboundOptions } from './outbound.js';
import { fileNameFor, IMAGE_TYPES, imageTypeOfMime, sniffImageType, SNIFF_BYTES, type ImageType } from './sniff.js';

export const ATTACHMENT_TYPE = 'attachment';

export interface MediaOptions {
  /** Where files go; default a local `uploads` folder served by the host app at `<site url>/uploads`. */
  files?: FileStorage;
  /** Sizes to add to WordPress's defaults (or to redefine one of them, by name). */
  imageSizes?: readonly ImageSize[];
  /** `big_image_size_threshold`: 2560 by default, `false` to keep big uploads as they are. */
  bigImageThreshold?: number | false;
  /** Largest upload or sideload, in bytes (32 MiB). */
  maxUploadBytes?: number;
  /** The image MIME types accepted (default JPEG, PNG, GIF, WebP and AVIF). */
  allowedTypes?: readonly string[];
  processor?: ImageProcessorOptions;
  /** Guards of every outbound request (oEmbed, sideloads); see docs/security.md. */
  outbound?: OutboundOptions;
}

/** Why an upload or sideload was refused; the REST layer turns it into WordPress's error. */
export class MediaError extends Error {
  constructor(
    readonly reason: 'not_allowed_type' | 'too_large' | 'not_an_image' | 'no_data' | 'fetch_failed' | 'not_found' | 'file_missing' | 'hash_mismatch',
    message: string,
    readonly limit?: number,
  ) {
    super(message);
    this.name = 'MediaError';
  }
}

export interface UploadInput {
  /** The bytes, whole or streamed. */
  data: FileData;
  /** The name the client gave (only its last segment is used, sanitised; its extension follows the real type). */
  filename: string;
  title?: string;
  caption?: string;
  description?: string;
  altText?: string;
  authorId?: number;
  parentId?: number;
  /** Where a sideloaded image came from. */
  sourceUrl?: string;
  /** The hex MD5 the bytes must have (the `Content-MD5` header WordPress checks). */
  md5?: string;
}

export interface RegenerateOptions {
  onlyMissing: boolean;
  deleteUnregistered: boolean;
}

/** A post type whose content may show images, and how to write its content back. */
export interface ContentPostType {
  type: string;
  /** Who may edit its posts (attaching media to one needs that). */
  caps: PostTypeCaps;
  repository: (store: SiteStore) => PostTypeRepository<PostRecord, unknown>;
}

/** Read bytes from a FileData until at least `count` are at hand; returns them and the rest of the stream. */
async function peek(data: FileData, count: number): Promise<{ head: Buffer; rest: FileData }> {
  if (data instanceof Uint8Array) return { head: Buffer.from(data.subarray(0, count)), rest: data };
  const iterator = data[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < count) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(Buffer.from(next.value));
    size += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest(): AsyncIterable<Uint8Array> {
    if (head.length) yield head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, rest: rest() };
}

/**
 * The media library: uploads and sideloads (streamed to the file storage, type sniffed, size bounded),
 * WordPress attachment metadata with every registered size made by sharp, thumbnail regeneration, the
 * featured images of posts, and the wire objects other namespaces show.
 */
export class MediaLibrary {
  readonly processor: ImageProcessor;
  readonly outbound: OutboundClient;
  readonly maxUploadBytes: number;
  readonly bigImageThreshold: number | false;
  readonly allowedTypes: readonly ImageType[];
  private sizes: ImageSize[];
  private storage: FileStorage | undefined;
  private readonly contentTypes = new Map<string, ContentPostType>();

  constructor(
    private readonly site: { readonly store: SiteStore; readonly settings: SiteSettings; now(): number },
    options: MediaOptions = {},
  ) {
    this.storage = options.files;
    this.sizes = mergeImageSizes(DEFAULT_IMAGE_SIZES, options.imageSizes ?? []);
    this.bigImageThreshold = options.bigImageThreshold ?? BIG_IMAGE_THRESHOLD;
    this.maxUploadBytes = options.maxUploadBytes ?? 32 * 1024 * 1024;
    const allowed = options.allowedTypes ?? IMAGE_TYPES.map((t) => t.mime);
    this.allowedTypes = IMAGE_TYPES.filter((t) => allowed.includes(t.mime));
    this.processor = new ImageProcessor(options.processor);
    this.outbound = new OutboundClient(options.outbound);
    for (const [type, caps, pick] of [
      [EVENT_TYPE, EVENT_CAPS, (store: SiteStore) => store.events],
      [VENUE_TYPE, VENUE_CAPS, (store: SiteStore) => store.venues],
      [ORGANIZER_TYPE, ORGANIZER_CAPS, (store: SiteStore) => store.organizers],
    ] as const) {
      this.registerContentType({ type, caps, repository: pick as ContentPostType['repository'] });
    }
  }

  /** The file storage (default: `./uploads`, public at `<site url>/uploads`). */
  get files(): FileStorage {
    this.storage ??= localFileStorage({ directory: resolve('uploads'), baseUrl: () => `${this.site.settings.url}/uploads` });
    return this.storage;
  }

  /** Registered sizes in registration order (WordPress get_intermediate_image_sizes). */
  get imageSizes(): readonly ImageSize[] {
    return this.sizes;
  }

  /** Adds or redefines an image size (WordPress add_image_size); existing images get it on regeneration. */
  addImageSize(size: ImageSize): void {
    this.sizes = mergeImageSizes(this.sizes, [size]);
  }

  /** Removes a registered size (WordPress remove_image_size); its files stay until regenerated with cleanup. */
  removeImageSize(name: string): void {
    this.sizes = this.sizes.filter((s) => s.name !== name);
  }

  /** Lets a post type's content be rewritten when its images' sizes change (articles, videos…). */
  registerContentType(type: ContentPostType): void {
    this.contentTypes.set(type.type, type);
  }

  get contentPostTypes(): string[] {
    return [...this.contentTypes.keys()];
  }

  contentType(type: string): ContentPostType | undefined {
    return this.contentTypes.get(type);
  }

  /** Stores an image and creates its attachment with full metadata. */
  async upload(input: UploadInput): Promise<AttachmentRecord> {
    const { head, rest } = await peek(input.data, SNIFF_BYTES);
    if (head.length === 0) throw new MediaError('no_data', 'No data supplied.');
    const type = sniffImageType(head);
    if (!type || !this.allowedTypes.includes(type)) throw new MediaError('not_allowed_type', 'Sorry, you are not allowed to upload this file type.');
    const now = this.site.now();
    const local = formatWpDate(now, siteZone(this.site.settings));
    const fileName = fileNameFor(input.filename, type);
    const hash = input.md5 ? createHash('md5') : null;
    async function* hashed(data: FileData): AsyncIterable<Uint8Array> {
      for await (const chunk of data instanceof Uint8Array ? [data] : data) {
        hash!.update(chunk);
        yield chunk;
      }
    }
    let stored;
    try {
      stored = await this.files.write(`${local.slice(0, 4)}/${local.slice(5, 7)}/${fileName}`, hash ? hashed(rest) : rest, { maxBytes: this.maxUploadBytes });
    } catch (error) {
      if (error instanceof FileTooLargeError) throw new MediaError('too_large', 'The file is too large.', this.maxUploadBytes);
      throw error;
    }
    if (hash && hash.digest('hex') !== input.md5) {
      await this.files.delete(stored.key).catch(() => false);
      throw new MediaError('hash_mismatch', 'Content hash did not match expected.');
    }
    try {
      const source = await sourceOf(this.files, stored.key);
      const probed = await this.processor.probe(source!);
      const generated = await generateMetadata(stored.key, probed, {
        files: this.files,
        processor: this.processor,
        sizes: this.sizes,
        type,
        bigImageThreshold: this.bigImageThreshold,
        originalBytes: stored.size,
      });
      const defaultTitle = sanitizeTextField(baseName(stored.key).replace(/\.[^.]+$/, ''));
      const title = input.title !== undefined && input.title !== '' ? input.title : defaultTitle;
      const record: NewAttachment = {
        type: ATTACHMENT_TYPE,
        status: 'inherit',
        authorId: input.authorId ?? 0,
        title,
        content: input.description ?? '',
        excerpt: input.caption ?? '',
        slug: await postSlug(this.site.store, ATTACHMENT_TYPE, undefined, title, 'inherit'),
        password: '',
        parentId: input.parentId ?? 0,
        menuOrder: 0,
        date: local,
        dateGmt: formatWpDate(now, 'UTC'),
        modified: local,
        modifiedGmt: formatWpDate(now, 'UTC'),
        trashedFrom: null,
        imageId: 0,
        mimeType: type.mime,
        file: generated.file,
        guid: this.files.url(generated.file),
        metadata: generated.metadata,
        altText: input.altText ?? '',
        sourceUrl: input.sourceUrl ?? '',
        context: '',
      };
      return await this.site.store.attachments.create(record);
    } catch (error) {
      await this.removeFiles(stored.key, null);
      if (error instanceof ImageProcessingError) throw new MediaError('not_an_image', 'Sorry, you are not allowed to upload this file type.');
      throw error;
    }
  }

  /**
   * An image from the web, through the guarded client: the answer must be 200 with an allowed image content
   * type (TEC's check) and within the upload limit; the bytes are then sniffed like any upload. A URL that was
   * sideloaded before, or that is an attachment's own URL, gives that attachment again.
   */
  async sideload(url: string, input: Omit<UploadInput, 'data' | 'filename'> = {}): Promise<AttachmentRecord> {
    const existing = await this.site.store.attachments.findByUrl(url);
    if (existing) return existing;
    let response;
    try {
      response = await this.outbound.fetch(url, { maxBytes: this.maxUploadBytes, headers: { accept: 'image/*' } });
    } catch (error) {
      if (error instanceof OutboundRequestError) {
        if (error.code === 'too_large') throw new MediaError('too_large', 'The image is too large.', this.maxUploadBytes);
        throw new MediaError('fetch_failed', error.message);
      }
      throw error;
    }
    if (response.status !== 200) throw new MediaError('fetch_failed', `The image URL answered ${response.status}.`);
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const declared = imageTypeOfMime(contentType);
    if (!contentType.startsWith('image') || !declared || !this.allowedTypes.includes(declared)) {
      throw new MediaError('not_allowed_type', 'The URL does not point to an image of an allowed type.');
    }
    let name = '';
    try {
      name = decodeURIComponent(new URL(response.url).pathname.split('/').pop() ?? '');
    } catch {
      name = '';
    }
    return this.upload({ ...input, data: response.body, filename: name || 'image', sourceUrl: url });
  }

  /** Deletes an attachment's record and every file it has (original, attached copy, sizes). */
  async delete(record: AttachmentRecord): Promise<boolean> {
    const deleted = await this.site.store.attachments.delete(record.id);
    if (deleted) await this.removeFiles(record.file, record.metadata);
    return deleted;
  }

  private async removeFiles(file: string, metadata: AttachmentMetadata | null): Promise<void> {
    const folder = folderOf(file);
    const keys = new Set([file, originalKeyOf(file, metadata)]);
    for (const size of Object.values(metadata?.sizes ?? {})) keys.add(`${folder}${size.file}`);
    await Promise.all([...keys].map((key) => this.files.delete(key).catch(() => false)));
  }

  /** The URL of the attached file (`wp_get_attachment_url`). */
  url(record: Pick<AttachmentRecord, 'file'>): string {
    return this.files.url(record.file);
  }

  /** image_downsize: URL, width and height of a named size, falling back to the full image constrained to it. */
  downsize(record: AttachmentRecord, sizeName: string): { url: string; width: number; height: number } | null {
    const meta = record.metadata;
    if (!meta) return null;
    const own = meta.sizes[sizeName];
    if (own) return { url: this.files.url(`${folderOf(record.file)}${own.file}`), width: own.width, height: own.height };
    const registered = this.sizes.find((s) => s.name === sizeName);
    const [width, height] =
      sizeName === 'full' || !registered ? [meta.width, meta.height] : constrainDimensions(meta.width, meta.height, registered.width, registered.height);
    return { url: this.url(record), width, height };
  }

  /** The size a box of `width` × any height gets: the full image, constrained (oEmbed thumbnails). */
  fitWidth(record: AttachmentRecord, width: number): { url: string; width: number; height: number } | null {
    const meta = record.metadata;
    if (!meta) return null;
    const [w, h] = constrainDimensions(meta.width, meta.height, width, 99_999);
    return { url: this.url(record), width: w, height: h };
  }

  /** Sets (or with `null` removes) the featured image of an event, venue or organizer. */
  async setImage(kind: 'event' | 'venue' | 'organizer', postId: number, attachmentId: number | null): Promise<void> {
    if (attachmentId !== null) {
      const attachment = await this.site.store.attachments.get(attachmentId);
      if (!attachment || !attachment.mimeType.startsWith('image/')) throw new MediaError('not_found', `No image attachment ${attachmentId}.`);
    }
    const repository = kind === 'event' ? this.site.store.events : kind === 'venue' ? this.site.store.venues : this.site.store.organizers;
    await (repository as PostTypeRepository<PostRecord, unknown>).update(postId, { imageId: attachmentId ?? 0 });
  }

  /** The storage key sizes are made from: the upload itself (wp_get_original_image_path). */
  originalKey(record: AttachmentRecord): string {
    return originalKeyOf(record.file, record.metadata);
  }

  /** The upright dimensions of the upload itself (the `-scaled` copy's original), null when unreadable. */
  async originalDimensions(record: AttachmentRecord): Promise<{ width: number; height: number } | null> {
    const source = await sourceOf(this.files, this.originalKey(record));
    return source === null ? null : this.processor.dimensions(source);
  }

  /** The file name a size would get for this image (Regenerate Thumbnails' get_thumbnail), or null if it is not made. */
  sizeFileName(record: AttachmentRecord, size: ImageSize, dims: { width: number; height: number }): string | null {
    const plan = resizeDimensions(dims.width, dims.height, size);
    if (!plan) return null;
    const original = baseName(this.originalKey(record));
    const dot = original.lastIndexOf('.');
    return suffixedName(original, `${plan.width}x${plan.height}`, dot > 0 ? original.slice(dot + 1).toLowerCase() : undefined);
  }

  /**
   * Regenerate Thumbnails' regenerate(): metadata made again from the original file. With `onlyMissing`,
   * sizes whose file exists at the right dimensions are kept; with `deleteUnregistered`, files of sizes no
   * longer registered are deleted (metadata entries and stray `<name>-<w>x<h>.<ext>` files that are not
   * another attachment's upload); otherwise a size that changed dimensions keeps its old file as
   * `<size>_old_<w>x<h>`.
   */
  async regenerate(record: AttachmentRecord, options: RegenerateOptions): Promise<AttachmentRecord> {
    const files = this.files;
    const originalKey = this.originalKey(record);
    const type = imageTypeOfMime(record.mimeType);
    if (!type) throw new MediaError('not_an_image', 'The current image editor cannot process this file type.');
    const source = await sourceOf(files, originalKey);
    if (source === null) throw new MediaError('file_missing', originalKey);
    // The file was verified when it was uploaded.
    const probed = await this.processor.probe(source, { verify: false });
    const old = record.metadata;
    const folder = folderOf(originalKey);
    const generated = await generateMetadata(originalKey, probed, {
      files,
      processor: this.processor,
      sizes: this.sizes,
      type,
      bigImageThreshold: this.bigImageThreshold,
      skip: options.onlyMissing
        ? async (size, plan) => {
            const had = old?.sizes[size.name];
            if (!had) return false;
            if (!plan) return true;
            const name = this.sizeFileName(record, size, { width: probed.orientedWidth, height: probed.orientedHeight });
            return plan.width === had.width && plan.height === had.height && name !== null && (await files.exists(`${folder}${name}`));
          }
        : undefined,
    });
    const metadata = generated.metadata;
    for (const name of generated.skipped) {
      const kept = old?.sizes[name];
      if (kept) metadata.sizes[name] = kept;
    }
    const registered = new Set(this.sizes.map((s) => s.name));
    if (options.deleteUnregistered) {
      for (const [name, size] of Object.entries(old?.sizes ?? {})) {
        if (registered.has(name)) continue;
        await files.delete(`${folder}${size.file}`).catch(() => false);
        delete metadata.sizes[name];
      }
      if (files.list) {
        const keep = new Set([
          ...(await this.site.store.attachments.filesIn(folder)).map(baseName),
          ...Object.values(metadata.sizes).map((s) => s.file),
        ]);
        const original = baseName(originalKey);
        const dot = original.lastIndexOf('.');
        const stem = dot > 0 ? original.slice(0, dot) : original;
        const ext = dot > 0 ? original.slice(dot + 1) : '';
        for (const name of await files.list(folder.replace(/\/$/, ''))) {
          if (keep.has(name) || !name.startsWith(`${stem}-`) || !name.endsWith(`.${ext}`)) continue;
          const middle = name.slice(stem.length + 1, name.length - ext.length - 1);
          if (/^\d+x\d+$/.test(middle)) await files.delete(`${folder}${name}`).catch(() => false);
        }
      }
    } else if (old) {
      for (const [name, size] of Object.entries(old.sizes)) {
        const now = metadata.sizes[name];
        if (!now) {
          metadata.sizes[name] = size;
          continue;
        }
        if (now.width !== size.width && now.height !== size.height && (await files.exists(`${folder}${size.file}`))) {
          metadata.sizes[`${name}_old_${size.width}x${size.height}`] = size;
        }
      }
    }
    return this.site.store.attachments.update(record.id, { metadata, file: generated.file });
  }

  /** The calendar's `image` object (TEC get_featured_image): URL, id, extension, then the metadata without file and image_meta. */
  calendarImage(record: AttachmentRecord | undefined): Record<string, unknown> | false {
    if (!record) return false;
    const data: Record<string, unknown> = { url: this.url(record), id: record.id, extension: extensionOf(record.file) };
    const meta = record.metadata;
    if (!meta) return data;
    const folder = folderOf(record.file);
    for (const [key, value] of Object.entries(meta)) {
      if (key === 'file' || key === 'image_meta') continue;
      if (key === 'sizes') {
        const sizes: Record<string, unknown> = {};
        for (const [name, size] of Object.entries(meta.sizes)) {
          const { file, ...rest } = size;
          sizes[name] = { ...rest, url: this.files.url(`${folder}${file}`) };
        }
        data.sizes = sizes;
      } else data[key] = value;
    }
    for (const [key, value] of Object.entries(data)) {
      if (!value || (typeof value === 'object' && Object.keys(value).length === 0)) delete data[key];
    }
    return data;
  }
}

function extensionOf(file: string): string {
  const name = baseName(file);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : '';
}

export type { ImageSize };
