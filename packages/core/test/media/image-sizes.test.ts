import { describe, expect, it } from 'vitest';
import { constrainDimensions, DEFAULT_IMAGE_SIZES, inCreationOrder, resizeDimensions, suffixedName } from '../../src/media/image-sizes.js';
import { fileNameFor, IMAGE_TYPES, sanitizeFileName, sniffImageType } from '../../src/media/sniff.js';
import { filenameFromDisposition } from '../../src/namespaces/media/routes.js';

describe('WordPress image size math', () => {
  it('constrains like wp_constrain_dimensions, rounding a pixel short up', () => {
    expect(constrainDimensions(3000, 2000, 300, 300)).toEqual([300, 200]);
    expect(constrainDimensions(3000, 2000, 768, 0)).toEqual([768, 512]);
    expect(constrainDimensions(465, 700, 177, 177)).toEqual([118, 177]);
    expect(constrainDimensions(100, 50, 300, 300)).toEqual([100, 50]);
    expect(constrainDimensions(3000, 2000)).toEqual([3000, 2000]);
  });

  it('plans sizes like image_resize_dimensions: centre crops, no upscaling, nothing for the same size', () => {
    expect(resizeDimensions(1600, 1200, { width: 150, height: 150, crop: true })).toEqual({ srcX: 200, srcY: 0, srcWidth: 1200, srcHeight: 1200, width: 150, height: 150 });
    expect(resizeDimensions(1600, 1200, { width: 400, height: 100, crop: ['left', 'top'] })).toEqual({ srcX: 0, srcY: 0, srcWidth: 1600, srcHeight: 400, width: 400, height: 100 });
    expect(resizeDimensions(1600, 1200, { width: 400, height: 100, crop: ['right', 'bottom'] })).toMatchObject({ srcX: 0, srcY: 800 });
    expect(resizeDimensions(100, 80, { width: 150, height: 150, crop: true })).toBeNull();
    expect(resizeDimensions(120, 300, { width: 150, height: 150, crop: true })).toEqual({ srcX: 0, srcY: 75, srcWidth: 120, srcHeight: 150, width: 120, height: 150 });
    expect(resizeDimensions(1024, 768, { width: 1024, height: 1024, crop: false })).toBeNull();
    expect(resizeDimensions(1025, 768, { width: 1024, height: 1024, crop: false })).toBeNull();
    expect(resizeDimensions(800, 600, { width: 0, height: 0, crop: false })).toBeNull();
  });

  it('makes sizes in WordPress’s order and names them by their dimensions', () => {
    expect(inCreationOrder(DEFAULT_IMAGE_SIZES).map((s) => s.name)).toEqual(['medium', 'large', 'thumbnail', 'medium_large', '1536x1536', '2048x2048']);
    expect(suffixedName('photo.jpeg', '300x200')).toBe('photo-300x200.jpeg');
    expect(suffixedName('archive.tar.gz', 'scaled')).toBe('archive.tar-scaled.gz');
  });
});

describe('upload names and types', () => {
  it('tells the five image types by their first bytes only', () => {
    const bytes = (...parts: Array<number[] | string>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0]))?.mime).toBe('image/jpeg');
    expect(sniffImageType(bytes([0x89], 'PNG\r\n\x1a\n'))?.mime).toBe('image/png');
    expect(sniffImageType(bytes('GIF89a'))?.mime).toBe('image/gif');
    expect(sniffImageType(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))?.mime).toBe('image/webp');
    expect(sniffImageType(bytes([0, 0, 0, 0x1c], 'ftypavif', [0, 0, 0, 0], 'mif1miaf'))?.mime).toBe('image/avif');
    expect(sniffImageType(bytes([0, 0, 0, 0x1c], 'ftypmif1', [0, 0, 0, 0], 'mif1avif'))?.mime).toBe('image/avif');
    expect(sniffImageType(bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic'))).toBeNull();
    expect(sniffImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffImageType(bytes('<?php'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });

  it('sanitises names and corrects extensions to the real type', () => {
    expect(sanitizeFileName('../../etc/My Summer  Photo (1).JPG')).toBe('My-Summer-Photo-1.JPG');
    expect(sanitizeFileName('C:\\fakepath\\a b.png')).toBe('a-b.png');
    expect(sanitizeFileName('...')).toBe('');
    const jpeg = IMAGE_TYPES[0]!;
    expect(fileNameFor('photo.png', jpeg)).toBe('photo.jpg');
    expect(fileNameFor('photo.JPEG', jpeg)).toBe('photo.JPEG');
    expect(fileNameFor('noext', jpeg)).toBe('noext.jpg');
    expect(fileNameFor('', jpeg)).toBe('image.jpg');
  });

  it('reads Content-Disposition as WordPress does', () => {
    expect(filenameFromDisposition(['attachment; filename="image.png"'])).toBe('image.png');
    expect(filenameFromDisposition(['attachment; filename=image.png'])).toBe('image.png');
    expect(filenameFromDisposition(['inline;filename="a b.jpg";size=3'])).toBe('a b.jpg');
    expect(filenameFromDisposition(['attachment'])).toBeNull();
    expect(filenameFromDisposition(["attachment; filename*=UTF-8''x.jpg"])).toBeNull();
  });
});
