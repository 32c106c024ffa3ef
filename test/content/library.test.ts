import { describe, expect, it } from 'vitest';
import { content, createSite, manualClock, seo, silentLogger } from '@siterest/core';
import { storeVariants } from '../support/stores.js';

for (const variant of storeVariants()) {
  describe(`content(site) and seo(site) (${variant.label})`, () => {
    const open = async () => {
      const store = await variant.create();
      const site = createSite({ store, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger, settings: { timezone_string: 'Europe/Berlin' } });
      return { store, site, done: () => variant.destroy(store) };
    };

    it('creates records with site-local and UTC dates, unique slugs per type once published, and categories by name', async () => {
      const { site, done } = await open();
      try {
        const library = content(site);
        const first = await library.createArticle({ title: 'Hello World', date: '2026-07-01 12:00:00', categories: ['Town News'] });
        expect(first).toMatchObject({ type: 'news', slug: 'hello-world', date: '2026-07-01 12:00:00', dateGmt: '2026-07-01 10:00:00', status: 'publish', linkCount: null });
        const second = await library.createArticle({ title: 'Hello World', categories: ['Town News'] });
        expect(second.slug).toBe('hello-world-2');
        expect(second.categoryIds).toEqual(first.categoryIds);
        expect((await library.createArticle({ title: 'Hello World', type: 'post' })).slug).toBe('hello-world');
        const draft = await library.createArticle({ title: 'Hello World', status: 'draft' });
        expect(draft.slug).toBe('hello-world');
        expect((await library.update(draft.id, { status: 'publish' }))?.slug).toBe('hello-world-3');
        const video = await library.createVideo({ title: 'Clip', videoUrl: 'https://v.example/1.mp4', categories: ['Town News'] });
        expect(video.categoryIds).not.toEqual(first.categoryIds);
        expect((await site.store.terms.get(video.categoryIds[0]!))?.taxonomy).toBe('video_category');
      } finally {
        await done();
      }
    });

    it('links with plain permalinks when the site has none, and shows an explicit excerpt whole', async () => {
      const store = await variant.create();
      const site = createSite({ store, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger, settings: { url: 'http://site.example', permalink_structure: '' } });
      try {
        const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
        const news = await content(site).createArticle({ title: 'Plain', excerpt: `<p>${long}</p>`, content: `<p>${long}</p>` });
        const post = await content(site).createArticle({ title: 'Plain post', type: 'post', content: `<p>${long}</p>` });
        const list = async (query: string) => JSON.parse((await site.handle({ method: 'GET', path: '/rest/v1/articles', query, headers: {} })).body);
        expect((await list(''))[0]).toMatchObject({ id: news.id, link: 'http://site.example/?news=plain', excerpt: long });
        const [summary] = await list('post_type=post');
        expect(summary).toMatchObject({ id: post.id, link: `http://site.example/?p=${post.id}` });
        expect(summary.excerpt).toBe(`${long.split(' ').slice(0, 55).join(' ')}…`);
      } finally {
        await variant.destroy(store);
      }
    });

    it('refuses bad input with errors instead of storing it', async () => {
      const { site, done } = await open();
      try {
        const library = content(site);
        await expect(library.createArticle({ title: 'x', type: 'Not A Type!' })).rejects.toThrow(/post type key/);
        await expect(library.createArticle({ title: 'x', date: 'yesterday' })).rejects.toThrow(/date/);
        await expect(library.createArticle({ title: 'x', status: 'gone' as 'draft' })).rejects.toThrow(/status/);
        await expect(library.createArticle({ title: 'x', seo: { score: 101 } })).rejects.toThrow(/score/);
        await expect(library.createArticle({ title: 'x', categories: [987654] })).rejects.toThrow(/category/);
        await expect(library.createArticle({ title: 42 as unknown as string })).rejects.toThrow(/title/);
        await expect(seo(site).updateSettings({ robotsTxt: 'x'.repeat(600 * 1024) })).rejects.toThrow(/robotsTxt/);
        expect((await library.list({ statuses: 'any' })).total).toBe(0);
      } finally {
        await done();
      }
    });

    it('sets SEO meta without touching the modification date, and clears link counts when content changes', async () => {
      const { site, done } = await open();
      try {
        const library = content(site);
        const post = await library.createArticle({ type: 'post', title: 'Scored', content: '<a href="/a/">a</a>' });
        const scored = await seo(site).setPostMeta(post.id, { focusKeyphrase: ' harbour ', score: 55, noindex: true });
        expect(scored).toMatchObject({ focusKeyphrase: 'harbour', seoScore: 55, noindex: true, modified: post.modified });
        expect(await seo(site).rankCounts()).toEqual({ bad: 0, ok: 1, good: 0, na: 0, noindex: 1 });
        expect(await seo(site).reindex()).toBe(1);
        expect((await library.get(post.id))?.linkCount).toBe(1);
        await library.update(post.id, { title: 'Renamed' });
        expect((await library.get(post.id))?.linkCount).toBe(1);
        await library.update(post.id, { content: 'no links' });
        expect((await library.get(post.id))?.linkCount).toBeNull();
        expect(await seo(site).reindex()).toBe(1);
        expect((await library.get(post.id))?.linkCount).toBe(0);
        expect(await seo(site).setPostMeta(987654, { score: 1 })).toBeNull();
      } finally {
        await done();
      }
    });
  });
}
