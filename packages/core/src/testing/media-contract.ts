import { describe, expect, it } from 'vitest';
import type { AttachmentMetadata, AttachmentQuery, NewAttachment } from '../store/media-records.js';
import type { SiteStore } from '../store/repositories.js';
import { newEvent, newVenue } from './fixtures.js';

let attachmentSerial = 0;

/**
 * A complete attachment record for store tests. Each gets its own slug: attachments are past the draft stage,
 * where a slug is unique within its type (PostgreSQL's index enforces this as WordPress's wp_unique_post_slug does).
 */
export function newAttachment(overrides: Partial<NewAttachment> = {}): NewAttachment {
  return {
    type: 'attachment',
    status: 'inherit',
    authorId: 1,
    title: 'photo',
    content: '',
    excerpt: '',
    slug: `photo-${++attachmentSerial}`,
    password: '',
    parentId: 0,
    menuOrder: 0,
    date: '2026-11-01 10:00:00',
    dateGmt: '2026-11-01 10:00:00',
    modified: '2026-11-01 10:00:00',
    modifiedGmt: '2026-11-01 10:00:00',
    trashedFrom: null,
    imageId: 0,
    mimeType: 'image/jpeg',
    file: '2026/11/photo.jpg',
    guid: 'https://example.org/uploads/2026/11/photo.jpg',
    metadata: null,
    altText: '',
    sourceUrl: '',
    context: '',
    ...overrides,
  };
}

const METADATA: AttachmentMetadata = {
  width: 2560,
  height: 1707,
  file: '2026/11/photo-scaled.jpg',
  filesize: 1234,
  // Key order is part of the wire shape: it must come back as written.
  sizes: {
    medium: { file: 'photo-300x200.jpg', width: 300, height: 200, 'mime-type': 'image/jpeg', filesize: 10 },
    large: { file: 'photo-1024x683.jpg', width: 1024, height: 683, 'mime-type': 'image/jpeg', filesize: 20 },
    thumbnail: { file: 'photo-150x150.jpg', width: 150, height: 150, 'mime-type': 'image/jpeg', filesize: 5 },
  },
  image_meta: {
    aperture: '0', credit: '', camera: '', caption: '', created_timestamp: '0', copyright: '', focal_length: '0', iso: '0',
    shutter_speed: '0', title: '', orientation: '1', keywords: ['a', 'b'],
  },
  original_image: 'photo.jpg',
};

function query(overrides: Partial<AttachmentQuery> = {}): AttachmentQuery {
  return { statuses: ['inherit'], orderBy: 'id', order: 'asc', offset: 0, limit: 100, ...overrides };
}

/** The media library's part of the store contract (run inside storeContractSuite). */
export function mediaStoreContract(store: () => SiteStore): void {
  describe('attachments', () => {
    it('round-trips every field, metadata key order included, and shares the post id sequence', async () => {
      const event = await store().events.create(newEvent({}));
      const input = newAttachment({ metadata: METADATA, altText: 'Alt', sourceUrl: 'https://elsewhere.example/p.jpg', parentId: event.id });
      const created = await store().attachments.create(input);
      expect(created).toEqual({ ...input, id: created.id });
      expect(created.id).toBeGreaterThan(event.id);
      expect(await store().posts.typeOf(created.id)).toBe('attachment');
      const read = await store().attachments.get(created.id);
      expect(JSON.stringify(read!.metadata)).toBe(JSON.stringify(METADATA));
      const updated = await store().attachments.update(created.id, { title: 'Renamed', metadata: { ...METADATA, width: 10 } });
      expect(updated).toMatchObject({ title: 'Renamed', altText: 'Alt', metadata: { width: 10 } });
      expect((await store().attachments.getMany([created.id, 999_999])).map((a) => a.id)).toEqual([created.id]);
      expect(await store().attachments.get(event.id)).toBeNull();
      await expect(store().attachments.update(999_999, { title: 'x' })).rejects.toMatchObject({ kind: 'not_found' });
      expect(await store().attachments.delete(created.id)).toBe(true);
      expect(await store().attachments.delete(created.id)).toBe(false);
      expect(await store().attachments.get(created.id)).toBeNull();
      expect(await store().posts.typeOf(created.id)).toBeNull();
    });

    it('lists with every filter, order and page', async () => {
      const a = await store().attachments.create(newAttachment({ title: 'Beach', slug: 'beach', file: '2026/11/beach.jpg', date: '2026-11-02 10:00:00', authorId: 2 }));
      const b = await store().attachments.create(newAttachment({ title: 'Alps', slug: 'alps', mimeType: 'image/png', file: '2026/11/mountain.png', date: '2026-11-03 10:00:00', parentId: 77 }));
      const c = await store().attachments.create(newAttachment({ title: 'Hidden', slug: 'hidden', status: 'private', date: '2026-11-04 10:00:00', content: 'secret notes' }));
      const ids = async (q: Partial<AttachmentQuery>) => (await store().attachments.list(query(q))).items.map((x) => x.id);
      expect(await ids({})).toEqual([a.id, b.id]);
      expect(await ids({ statuses: ['inherit', 'private'], order: 'desc' })).toEqual([c.id, b.id, a.id]);
      expect(await ids({ mimeTypes: ['image/png'] })).toEqual([b.id]);
      expect(await ids({ mimeTypes: ['image/'] })).toEqual([a.id, b.id]);
      expect(await ids({ search: 'mountain' })).toEqual([b.id]);
      expect(await ids({ statuses: 'any', search: 'SECRET' })).toEqual([c.id]);
      expect(await ids({ include: [b.id, a.id], orderBy: 'include' })).toEqual([b.id, a.id]);
      expect(await ids({ exclude: [a.id] })).toEqual([b.id]);
      expect(await ids({ parentIds: [77] })).toEqual([b.id]);
      expect(await ids({ excludeParentIds: [77] })).toEqual([a.id]);
      expect(await ids({ authorIds: [2] })).toEqual([a.id]);
      expect(await ids({ excludeAuthorIds: [2] })).toEqual([b.id]);
      expect(await ids({ slugs: ['alps'] })).toEqual([b.id]);
      expect(await ids({ after: '2026-11-02 10:00:00' })).toEqual([b.id]);
      expect(await ids({ before: '2026-11-03 10:00:00' })).toEqual([a.id]);
      expect(await ids({ orderBy: 'title' })).toEqual([b.id, a.id]);
      const page = await store().attachments.list(query({ offset: 1, limit: 1 }));
      expect([page.items.map((x) => x.id), page.total]).toEqual([[b.id], 2]);
    });

    it('finds attachments by URL and lists the files of a folder', async () => {
      const a = await store().attachments.create(newAttachment({ sourceUrl: 'https://elsewhere.example/cat.jpg', file: '2026/11/cat.jpg', guid: 'https://example.org/uploads/2026/11/cat.jpg' }));
      await store().attachments.create(newAttachment({ file: '2026/12/dog.jpg', guid: 'https://example.org/uploads/2026/12/dog.jpg' }));
      await store().attachments.create(newAttachment({ file: '2026/11/deeper/x.jpg' }));
      expect((await store().attachments.findByUrl('https://elsewhere.example/cat.jpg'))?.id).toBe(a.id);
      expect((await store().attachments.findByUrl('https://example.org/uploads/2026/11/cat.jpg'))?.id).toBe(a.id);
      expect(await store().attachments.findByUrl('https://example.org/nothing.jpg')).toBeNull();
      expect(await store().attachments.filesIn('2026/11/')).toEqual(['2026/11/cat.jpg']);
      expect(await store().attachments.filesIn('2026/1_/')).toEqual([]);
    });

    it('lists distinct featured images by first use, and the posts whose content names an image', async () => {
      const one = await store().attachments.create(newAttachment({}));
      const two = await store().attachments.create(newAttachment({}));
      const e1 = await store().events.create(newEvent({ imageId: two.id, content: `<img class="wp-image-${one.id} size-medium" />` }));
      await store().venues.create(newVenue({ imageId: one.id, content: `<img class="WP-IMAGE-${one.id}" />` }));
      await store().events.create(newEvent({ imageId: two.id }));
      const featured = await store().attachments.featuredImages(0, 10);
      expect(featured).toEqual({ items: [two.id, one.id], total: 2 });
      expect(await store().attachments.featuredImages(1, 1)).toEqual({ items: [one.id], total: 2 });
      const users = await store().attachments.postsUsingImage({ attachmentId: one.id, offset: 0, limit: 10 });
      expect(users.map((u) => u.id)).toHaveLength(2);
      expect(users[0]).toEqual({ id: e1.id, type: e1.type });
      expect(await store().attachments.postsUsingImage({ attachmentId: one.id, types: [e1.type], offset: 0, limit: 10 })).toEqual([{ id: e1.id, type: e1.type }]);
      expect(await store().attachments.postsUsingImage({ attachmentId: one.id, ids: [e1.id + 1000], offset: 0, limit: 10 })).toEqual([]);
      expect((await store().attachments.postsUsingImage({ attachmentId: one.id, offset: 1, limit: 1 })).length).toBe(1);
    });

    it('advances the change version only for what calendar answers show', async () => {
      if (!store().changeVersion) throw new Error('a store must report its change version');
      const version = () => store().changeVersion!();
      const start = await version();
      const a = await store().attachments.create(newAttachment({}));
      await store().attachments.update(a.id, { title: 'New title', altText: 'alt', excerpt: 'caption' });
      expect(await version()).toBe(start);
      await store().attachments.update(a.id, { metadata: METADATA });
      const afterMetadata = await version();
      expect(afterMetadata).toBeGreaterThan(start);
      await store().attachments.delete(a.id);
      expect(await version()).toBeGreaterThan(afterMetadata);
    });
  });

  describe('oEmbed cache', () => {
    it('keeps values until they expire', async () => {
      const cache = store().oembedCache;
      await cache.set('k', { html: '<iframe></iframe>', n: 1 }, 2_000);
      expect(await cache.get('k', 1_000)).toEqual({ html: '<iframe></iframe>', n: 1 });
      expect(await cache.get('k', 2_000)).toBeUndefined();
      await cache.set('k', { n: 2 }, 5_000);
      expect(await cache.get('k', 1_000)).toEqual({ n: 2 });
      await cache.set('old', 1, 100);
      expect(await cache.purge(1_000)).toBe(1);
      await cache.delete('k');
      expect(await cache.get('k', 0)).toBeUndefined();
      const version = await store().changeVersion!();
      await cache.set('x', 'y', 10_000);
      expect(await store().changeVersion!()).toBe(version);
    });
  });
}
