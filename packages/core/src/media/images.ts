import sharp, { type Sharp } from 'sharp';
import { Limiter } from './limiter.js';
import type { ResizePlan } from './image-sizes.js';
import type { ImageType } from './sniff.js';

export interface ImageProcessorOptions {
  /** Images worked on at once (each also uses libvips threads). Default 2. */
  concurrency?: number;
  /** Refuse images with more pixels than this (decompression bombs). Default 100 megapixels. */
  maxPixels?: number;
}

export interface ProbedImage {
  width: number;
  height: number;
  /** Width and height once the EXIF orientation is applied. */
  orientedWidth: number;
  orientedHeight: number;
  /** EXIF orientation, 1 when none. */
  orientation: number;
  /** Whether the file carries an EXIF orientation at all (WordPress reports `"0"` when not). */
  hadOrientation: boolean;
}

export interface RenderedImage {
  data: Buffer;
  width: number;
  height: number;
}

/** WordPress's default encode qualities (wp_editor_set_quality): 82, WebP 86. */
const QUALITY: Record<ImageType['format'], number> = { jpeg: 82, png: 100, gif: 100, webp: 86, avif: 82 };

/** Raised when sharp cannot read an image (corrupt, truncated, too many pixels). */
export class ImageProcessingError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'ImageProcessingError';
  }
}

/**
 * Every decode, resize, crop and encode of the media library, done by sharp (libvips, on libuv's thread
 * pool, so off the event loop) with a bound on how many images are in flight.
 */
export class ImageProcessor {
  readonly limiter: Limiter;
  readonly maxPixels: number;

  constructor(options: ImageProcessorOptions = {}) {
    this.limiter = new Limiter(options.concurrency ?? 2);
    this.maxPixels = options.maxPixels ?? 100_000_000;
  }

  private open(input: string | Buffer): Sharp {
    // Animated GIF/WebP: the first frame, as WordPress's GD editor does.
    return sharp(input, { limitInputPixels: this.maxPixels, failOn: 'error', animated: false });
  }

  /** Upright width and height from the file's header only (no decoding). */
  async dimensions(input: string | Buffer): Promise<{ width: number; height: number } | null> {
    try {
      const meta = await this.open(input).metadata();
      if (!meta.width || !meta.height) return null;
      const swapped = (meta.orientation ?? 1) >= 5;
      return swapped ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
    } catch {
      return null;
    }
  }

  /**
   * Dimensions and orientation; with `verify` (uploads) the whole file is decoded once, at a small scale, so a
   * truncated or corrupt file is refused before any size is made.
   */
  async probe(input: string | Buffer, options: { verify?: boolean } = {}): Promise<ProbedImage> {
    return this.limiter.run(async () => {
      try {
        const meta = await this.open(input).metadata();
        if (!meta.width || !meta.height) throw new Error('no dimensions');
        if (meta.width * meta.height > this.maxPixels) throw new Error('too many pixels');
        const orientation = meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : 1;
        const swapped = orientation >= 5;
        if (options.verify !== false) {
          await sharp(input, { limitInputPixels: this.maxPixels, failOn: 'truncated', animated: false }).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
        }
        return {
          width: meta.width,
          height: meta.height,
          orientedWidth: swapped ? meta.height : meta.width,
          orientedHeight: swapped ? meta.width : meta.height,
          orientation,
          hadOrientation: meta.orientation !== undefined,
        };
      } catch (error) {
        throw new ImageProcessingError('The image could not be read.', error);
      }
    });
  }

  /**
   * The image upright (EXIF orientation applied), cut to the plan's source rectangle and scaled to its size,
   * encoded as `format`. Metadata is not copied (no GPS positions leak into thumbnails).
   */
  async render(input: string | Buffer, plan: ResizePlan, format: ImageType['format'], source: { width: number; height: number }): Promise<RenderedImage> {
    const full = plan.srcX === 0 && plan.srcY === 0 && plan.srcWidth === source.width && plan.srcHeight === source.height;
    return this.limiter.run(async () => {
      try {
        // Auto-orient first, then cut: the plan's rectangle is in upright coordinates.
        let image = this.open(input).rotate();
        const scale = plan.width / plan.srcWidth;
        const scaledWidth = Math.round(source.width * scale);
        const scaledHeight = Math.round(source.height * scale);
        if (full) {
          image = image.resize(plan.width, plan.height, { fit: 'fill' });
        } else if (scaledWidth >= plan.width && scaledHeight >= plan.height) {
          // Scale the whole image first (JPEG shrink-on-load makes that cheap), then cut the scaled rectangle.
          const left = Math.min(Math.round(plan.srcX * scale), scaledWidth - plan.width);
          const top = Math.min(Math.round(plan.srcY * scale), scaledHeight - plan.height);
          image = image.resize(scaledWidth, scaledHeight, { fit: 'fill' }).extract({ left, top, width: plan.width, height: plan.height });
        } else {
          image = image.extract({ left: plan.srcX, top: plan.srcY, width: plan.srcWidth, height: plan.srcHeight }).resize(plan.width, plan.height, { fit: 'fill' });
        }
        const data = await encode(image, format).toBuffer();
        return { data, width: plan.width, height: plan.height };
      } catch (error) {
        throw new ImageProcessingError('The image could not be resized.', error);
      }
    });
  }
}

function encode(image: Sharp, format: ImageType['format']): Sharp {
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality: QUALITY.jpeg });
    case 'png':
      return image.png();
    case 'gif':
      return image.gif();
    case 'webp':
      return image.webp({ quality: QUALITY.webp });
    case 'avif':
      return image.avif({ quality: QUALITY.avif, effort: 2 });
  }
}
