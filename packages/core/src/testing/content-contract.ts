import { describe, expect, it } from 'vitest';
import type { NewContent } from '../store/content.js';
import type { SiteStore } from '../store/repositories.js';

export function newContent(overrides: Partial<NewContent> = {}): NewContent {
  return {
    type: 'news',
    status: 'publish',
    authorId: 1,
    title: 'Harbour festival returns',
    content: '<p>The festival is back.</p>',
    excerpt: '',
    slug: 'harbour-festival-returns',
    password: '',
    parentId: 0,
    menuOrder: 0,
    date: '2026-11-20 09:00:00',
    dateGmt: '2026-11-20 09:00:00',
    modified: '2026-11-20 09:00:00',
    modifiedGmt: '2026-11-20 09:00:00',
    trashedFrom: null,
    imageId: 0,
    categoryIds: [],
    videoUrl: '',
    focusKeyphrase: '',
    seoScore: 0,
    noindex: false,
    linkCount: null,
    ...overrides,
  };
}

const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id);

/** The content part of the store contract (articles, videos, SEO meta), run by storeContractSuite. */
export function contentStoreContract(current: () => SiteStore): void {
  describe('content', () => {
    const repo = () => current().content;

    it('round-trips every field, shares the post id sequence, updates only what a patch names, and deletes', async () => {
      const input = newContent({ categoryIds: [7, 3], videoUrl: 'https://video.example/1', focusKeyphrase: 'harbour', seoScore: 64, noindex: true, linkCount: 2 });
      const created = await repo().create(input);
      expect(created).toEqual({ ...input, id: created.id });
      expect(await current().posts.typeOf(created.id)).toBe('news');
      const popup = await current().popups.create({ ...newContent(), type: 'popup', slug: 'p' });
      expect(popup.id).toBe(created.id + 1);
      const updated = await repo().update(created.id, { title: 'Renamed', seoScore: 80, linkCount: null });
      expect(updated).toEqual({ ...input, id: created.id, title: 'Renamed', seoScore: 80, linkCount: null });
      expect(await repo().get(created.id)).toEqual(updated);
      expect(await repo().update(999_999, { title: 'x' })).toBeNull();
      expect(await repo().get(popup.id)).toBeNull();
      expect(await repo().delete(created.id)).toBe(true);
      expect(await repo().delete(created.id)).toBe(false);
      expect(await repo().get(created.id)).toBeNull();
      expect(await current().posts.typeOf(created.id)).toBeNull();
    });

    it('lists newest first by type, status, category and password, with totals, and knows slugs per type', async () => {
      const a = await repo().create(newContent({ slug: 'a', date: '2026-11-01 10:00:00', categoryIds: [1] }));
      const b = await repo().create(newContent({ slug: 'b', date: '2026-11-03 10:00:00', categoryIds: [2] }));
      const c = await repo().create(newContent({ slug: 'c', date: '2026-11-03 10:00:00', categoryIds: [1, 2] }));
      await repo().create(newContent({ slug: 'd', status: 'draft' }));
      const locked = await repo().create(newContent({ slug: 'e', password: 'secret', date: '2026-10-01 00:00:00' }));
      const video = await repo().create(newContent({ type: 'video', slug: 'a' }));
      const list = (q: Partial<Parameters<SiteStore['content']['list']>[0]> = {}) =>
        repo().list({ types: ['news'], statuses: ['publish'], offset: 0, limit: 10, ...q });
      expect(ids((await list()).items)).toEqual([c.id, b.id, a.id, locked.id]);
      expect(ids((await list({ withoutPassword: true })).items)).toEqual([c.id, b.id, a.id]);
      expect(await list({ withoutPassword: true, offset: 1, limit: 1 })).toMatchObject({ total: 3, items: [{ id: b.id }] });
      expect(ids((await list({ categoryIds: [1] })).items)).toEqual([c.id, a.id]);
      expect((await list({ categoryIds: [99] })).total).toBe(0);
      expect((await list({ statuses: 'any' })).total).toBe(5);
      expect(ids((await list({ types: ['video'] })).items)).toEqual([video.id]);
      expect(await current().posts.slugTaken('news', 'a')).toBe(true);
      expect(await current().posts.slugTaken('news', 'a', a.id)).toBe(false);
      expect(await current().posts.idBySlug('video', 'a')).toBe(video.id);
    });

    it('counts SEO ranks of published posts of one type exactly, per author when asked', async () => {
      const rows: Array<Partial<NewContent>> = [
        { seoScore: 1, focusKeyphrase: 'k' },
        { seoScore: 40, focusKeyphrase: 'k' },
        { seoScore: 41, focusKeyphrase: 'k', authorId: 2 },
        { seoScore: 70, focusKeyphrase: 'k', noindex: true },
        { seoScore: 71, focusKeyphrase: 'k' },
        { seoScore: 100, focusKeyphrase: 'k', authorId: 2 },
        { seoScore: 0, focusKeyphrase: '' },
        { seoScore: 90, focusKeyphrase: '', noindex: true, authorId: 2 },
        { seoScore: 90, focusKeyphrase: 'k', status: 'draft' },
        { seoScore: 90, focusKeyphrase: 'k', type: 'news' },
      ];
      for (const [i, row] of rows.entries()) await repo().create(newContent({ type: 'post', slug: `p${i}`, ...row }));
      expect(await repo().seoRankCounts({ type: 'post', status: 'publish' })).toEqual({ bad: 2, ok: 2, good: 3, na: 2, noindex: 2 });
      expect(await repo().seoRankCounts({ type: 'post', status: 'publish', authorId: 2 })).toEqual({ bad: 0, ok: 1, good: 2, na: 1, noindex: 1 });
      expect(await repo().seoRankCounts({ type: 'post', status: 'publish', authorId: 99 })).toEqual({ bad: 0, ok: 0, good: 0, na: 0, noindex: 0 });
    });

    it('hands out published records whose links were never counted, and stores a count only for unchanged content', async () => {
      const first = await repo().create(newContent({ slug: 'one' }));
      const counted = await repo().create(newContent({ slug: 'two', linkCount: 3 }));
      await repo().create(newContent({ slug: 'three', status: 'draft' }));
      const video = await repo().create(newContent({ type: 'video', slug: 'four' }));
      expect(ids(await repo().linksPending(10))).toEqual([first.id, video.id]);
      expect(ids(await repo().linksPending(1))).toEqual([first.id]);
      expect(await repo().setLinkCount(first.id, 4, 'something else')).toBe(false);
      expect(await repo().setLinkCount(first.id, 4, first.content)).toBe(true);
      expect((await repo().get(first.id))?.linkCount).toBe(4);
      expect(ids(await repo().linksPending(10))).toEqual([video.id]);
      expect((await repo().get(counted.id))?.linkCount).toBe(3);
    });

    it('leaves the change version alone', async () => {
      const before = await current().changeVersion?.();
      const created = await repo().create(newContent({ slug: 'quiet' }));
      await repo().update(created.id, { title: 'Still quiet' });
      await repo().setLinkCount(created.id, 1, created.content);
      await repo().delete(created.id);
      expect(await current().changeVersion?.()).toBe(before);
    });
  });
}
