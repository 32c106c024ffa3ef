import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, localFileStorage, manualClock, silentLogger, type Site, type SiteStore } from '@siterest/core';
import { seedDemoSite } from '@siterest/core/demo';
import { basicAuth, rawRequest, type RunningServer } from '@siterest/core/testing';
import { DEMO_NEWS, DEMO_POSTS, DEMO_VIDEOS, type DemoArticle } from '../../packages/core/src/demo/content.js';
import { serveWithExpress } from '../../packages/adapter-express/test/serve.js';
import { storeVariants } from '../support/stores.js';

/** Yoast's rank of a post, straight from its rules: what each demo post must be counted as. */
function ranksOf(post: DemoArticle): string[] {
  const score = post.seo?.score ?? 0;
  const ranks: string[] = [];
  if (score >= 1 && score <= 40) ranks.push('bad');
  if (score >= 41 && score <= 70) ranks.push('ok');
  if (score >= 71 && score <= 100) ranks.push('good');
  if (!post.seo?.focusKeyphrase) ranks.push('na');
  if (post.seo?.noindex) ranks.push('noindex');
  return ranks;
}

for (const variant of storeVariants()) {
  describe(`the demo site's content and SEO statistics (${variant.label})`, () => {
    let store: SiteStore;
    let site: Site;
    let server: RunningServer;
    let admin = '';

    beforeAll(async () => {
      store = await variant.create();
      site = createSite({
        store,
        clock: manualClock('2026-11-21T16:41:37Z'),
        logger: silentLogger,
        settings: { url: 'http://127.0.0.1:8080' },
        files: localFileStorage({ directory: mkdtempSync(join(tmpdir(), 'siterest-demo-content-')), baseUrl: 'http://127.0.0.1:8080/uploads' }),
      });
      await site.createUser({ login: 'admin', roles: ['administrator'] });
      admin = basicAuth('admin', (await site.createApplicationPassword('admin', 'demo')).password);
      await seedDemoSite(site);
      server = await serveWithExpress(site);
    }, 180_000);

    afterAll(async () => {
      await server?.close();
      if (store) await variant.destroy(store);
    });

    it('answers statistics that match the seeded posts\u2019 scores exactly', async () => {
      const published = DEMO_POSTS.filter((post) => (post.status ?? 'publish') === 'publish');
      const expected = new Map<string, number>();
      for (const post of published) for (const rank of ranksOf(post)) expected.set(rank, (expected.get(rank) ?? 0) + 1);
      const answer = JSON.parse((await rawRequest(`${server.url}/seo/v1/statistics`, { headers: { Authorization: admin } })).body);
      const counted = new Map<string, number>(answer.seo_scores.map((s: { seo_rank: string; count: number }) => [s.seo_rank, s.count]));
      expect(counted).toEqual(expected);
      expect(answer.seo_scores.map((s: { seo_rank: string }) => s.seo_rank)).toEqual(['bad', 'ok', 'good', 'na', 'noindex'].filter((rank) => expected.has(rank)));
      const good = expected.get('good') ?? 0;
      const all = [...expected.values()].reduce((a, b) => a + b, 0);
      expect(answer.header).toBe(good / all > 0.66 ? 'Hey, your SEO is doing pretty well! Check out the stats:' : "Below are your published posts' SEO scores. Now is as good a time as any to start improving some of your posts!");
    });

    it('lists the published demo news, posts and videos on rest/v1, drafts left out', async () => {
      const list = async (path: string) => JSON.parse((await rawRequest(`${server.url}${path}`)).body) as Array<{ title: string; image: unknown }>;
      const titles = (items: readonly DemoArticle[]) => items.filter((i) => (i.status ?? 'publish') === 'publish').map((i) => i.title);
      expect((await list('/rest/v1/articles')).map((a) => a.title)).toEqual(titles(DEMO_NEWS));
      expect((await list('/rest/v1/articles?post_type=post')).map((a) => a.title)).toEqual(titles(DEMO_POSTS));
      const videos = await list('/rest/v1/videos');
      expect(videos.map((v) => v.title)).toEqual(titles(DEMO_VIDEOS));
      expect(videos[0]!.image).toMatchObject({ url: expect.stringMatching(/jazz-poster.*\.jpg$/) });
      expect((await list('/rest/v1/events')).length).toBeGreaterThan(0);
    });
  });
}
