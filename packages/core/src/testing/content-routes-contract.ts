import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from '../clock.js';
import { content } from '../namespaces/content/admin.js';
import { contentNamespace } from '../namespaces/content/index.js';
import { builtInNamespaces } from '../namespaces/index.js';
import { seo } from '../namespaces/seo/admin.js';
import { createSite, type Site } from '../site.js';
import { silentLogger } from '../site-context.js';
import type { ContentRecord } from '../store/content.js';
import type { SiteStore } from '../store/repositories.js';
import type { RunningServer } from './adapter-contract.js';
import { basicAuth, header, rawRequest, type RawResponse } from './http-client.js';

export interface ContentRoutesHarness {
  createStore(): Promise<SiteStore>;
  destroyStore?(store: SiteStore): Promise<void>;
  /** A real HTTP server (port 0) with the site at `/api`. */
  serve(site: Site): Promise<RunningServer>;
}

type Role = 'administrator' | 'editor' | 'author' | 'subscriber' | 'anonymous';

interface Answer {
  status: number;
  body: any;
  raw: RawResponse;
}

const SUMMARY_KEYS = ['id', 'title', 'slug', 'date', 'link', 'excerpt', 'image', 'categories'];
/** Small enough that `posts_per_page=-1` needs pages here. */
const MAX_ITEMS = 5;

/**
 * `rest/v1` and `seo/v1` over real HTTP: every route, parameter and default of the spec, drafts never leaking,
 * permissions and error shapes. Run by both stores and both adapters.
 */
export function contentRoutesContract(name: string, harness: ContentRoutesHarness): void {
  describe(`rest/v1 and seo/v1: ${name}`, () => {
    let store: SiteStore;
    let site: Site;
    let server: RunningServer;
    let clock: ManualClock;
    const auth = {} as Record<Exclude<Role, 'anonymous'>, string>;
    const users = {} as Record<Exclude<Role, 'anonymous'>, number>;
    const news: ContentRecord[] = [];
    const hidden: ContentRecord[] = [];
    const videos: ContentRecord[] = [];
    let music = 0;
    let culture = 0;
    let recipe: ContentRecord;
    let events: { upcoming: number[]; concert: number; past: number; draft: number; hiddenEvent: number };

    const call = async (method: string, path: string, role: Role = 'anonymous', body?: unknown): Promise<Answer> => {
      const headers: Record<string, string> = {};
      if (role !== 'anonymous') headers.Authorization = auth[role];
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const raw = await rawRequest(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      let parsed: unknown = null;
      try {
        parsed = raw.body ? JSON.parse(raw.body) : null;
      } catch {
        parsed = raw.body;
      }
      return { status: raw.status, body: parsed, raw };
    };
    const get = (path: string, role: Role = 'anonymous') => call('GET', path, role);
    const idsOf = (answer: Answer) => (answer.body as Array<{ id: number }>).map((item) => item.id);
    const total = (answer: Answer) => [header(answer.raw, 'x-wp-total'), header(answer.raw, 'x-wp-totalpages')];
    const eventBody = (title: string, start: string, end: string, extra: Record<string, unknown> = {}) => ({ title, start_date: start, end_date: end, status: 'publish', ...extra });

    beforeAll(async () => {
      store = await harness.createStore();
      clock = manualClock('2026-11-21T16:41:37Z');
      site = createSite({
        store,
        clock,
        logger: silentLogger,
        settings: { name: 'Content Site', url: 'http://127.0.0.1:8080' },
        namespaces: [...builtInNamespaces().filter((ns) => ns.namespace !== 'rest/v1'), contentNamespace({ articleTypes: ['news', 'post', 'recipe'], maxItems: MAX_ITEMS })],
      });
      for (const role of ['administrator', 'editor', 'author', 'subscriber'] as const) {
        const user = await site.createUser({ login: role, roles: [role], displayName: `The ${role}` });
        users[role] = user.id;
        auth[role] = basicAuth(role, (await site.createApplicationPassword(role, 'tests')).password);
      }
      const library = content(site);
      const community = (await library.category('Community')).id;
      culture = (await library.category('Culture')).id;
      music = (await library.category('Music', { parentId: culture })).id;
      // Twelve published news items, one a day, the newest first in every list.
      for (let day = 1; day <= 12; day++) {
        news.push(
          await library.createArticle({
            title: `News ${day}`,
            content: `<p>Item ${day} with <a href="/other/">a link</a> and <a href="https://elsewhere.example/">another</a>.</p><p>More.</p>`,
            date: `2026-11-${String(day).padStart(2, '0')} 09:00:00`,
            authorId: users.editor,
            categories: day % 3 === 0 ? [music] : day % 2 === 0 ? [culture] : [community],
          }),
        );
      }
      news.reverse();
      for (const status of ['draft', 'pending', 'private'] as const) {
        hidden.push(await library.createArticle({ title: `Hidden ${status}`, status, date: '2026-11-20 09:00:00', categories: [music] }));
      }
      hidden.push(await library.createArticle({ title: 'Protected', password: 'secret', date: '2026-11-20 10:00:00', categories: [music] }));
      recipe = await library.createArticle({ type: 'recipe', title: 'Apple pie', content: '<p>Bake it.</p>', date: '2026-11-05 12:00:00' });
      for (let i = 1; i <= 3; i++) {
        videos.push(await library.createVideo({ title: `Video ${i}`, videoUrl: `https://videos.example/${i}.mp4`, date: `2026-11-1${i} 08:00:00` }));
      }
      videos.reverse();
      hidden.push(await library.createVideo({ title: 'Video draft', videoUrl: 'https://videos.example/d.mp4', status: 'draft' }));

      server = await harness.serve(site);
      const concerts = (await call('POST', '/cal/events/v1/categories', 'administrator', { name: 'Concerts' })).body.id as number;
      const created = async (body: Record<string, unknown>) => {
        const answer = await call('POST', '/cal/events/v1/events', 'administrator', body);
        if (answer.status !== 201) throw new Error(`event not created: ${answer.raw.body}`);
        return answer.body.id as number;
      };
      const later = await created(eventBody('Later event', '2026-12-10 18:00:00', '2026-12-10 20:00:00'));
      const soon = await created(eventBody('Soon event', '2026-11-25 18:00:00', '2026-11-25 20:00:00'));
      const concert = await created(eventBody('Concert', '2026-12-01 19:00:00', '2026-12-01 21:00:00', { categories: [concerts] }));
      const running = await created(eventBody('Running now', '2026-11-21 10:00:00', '2026-11-21 22:00:00'));
      const past = await created(eventBody('Past event', '2026-11-01 18:00:00', '2026-11-01 20:00:00'));
      const draft = await created(eventBody('Draft event', '2026-11-26 18:00:00', '2026-11-26 20:00:00', { status: 'draft' }));
      const hiddenEvent = await created(eventBody('Hidden event', '2026-11-27 18:00:00', '2026-11-27 20:00:00', { hide_from_listings: true }));
      events = { upcoming: [running, soon, concert, later], concert, past, draft, hiddenEvent };
    });

    afterAll(async () => {
      await server?.close();
      if (store) await harness.destroyStore?.(store);
    });

    describe('rest/v1', () => {
      it('lists its four routes with their args and defaults in the namespace index, after seo/v1 in the root index', async () => {
        const index = await get('/rest/v1');
        expect(index.status).toBe(200);
        const routes = index.body.routes;
        expect(Object.keys(routes)).toEqual(['/rest/v1', '/rest/v1/articles', '/rest/v1/articles/(?P<id>\\d+)', '/rest/v1/videos', '/rest/v1/events']);
        const args = (route: string) => routes[route].endpoints[0].args;
        expect(args('/rest/v1/articles')).toMatchObject({
          posts_per_page: { default: 10, type: 'integer', required: false },
          page: { default: 1, type: 'integer', required: false },
          post_type: { default: 'news', type: 'string', enum: ['news', 'post', 'recipe'], required: false },
          category: { default: '', type: 'string', required: false },
        });
        expect(args('/rest/v1/articles/(?P<id>\\d+)')).toMatchObject({ id: { type: 'integer', required: true } });
        expect(args('/rest/v1/videos')).toMatchObject({ offset: { default: 0, type: 'integer', required: false }, length: { type: 'integer', required: false } });
        expect(args('/rest/v1/videos').length.default).toBeUndefined();
        expect(args('/rest/v1/events')).toMatchObject({
          posts_per_page: { default: -1 },
          page: { default: 1 },
          post_type: { default: 'cal_events', enum: ['cal_events', 'news', 'post', 'recipe'] },
          category: { default: '' },
        });
        const root = await get('/');
        const namespaces: string[] = root.body.namespaces;
        expect(namespaces).toContain('rest/v1');
        expect(namespaces.indexOf('seo/v1')).toBeGreaterThan(namespaces.indexOf('cal/events/v1'));
      });

      it('lists ten published news articles newest first by default, with WordPress collection headers', async () => {
        const first = await get('/rest/v1/articles');
        expect(first.status).toBe(200);
        expect(idsOf(first)).toEqual(news.slice(0, 10).map((r) => r.id));
        expect(total(first)).toEqual(['12', '2']);
        const links = first.raw.headers.filter(([n]) => n.toLowerCase() === 'link').map(([, v]) => v);
        expect(links.filter((link) => link.includes('rel="next"'))).toEqual([expect.stringMatching(/^<http:\/\/127\.0\.0\.1:\d+\/api\/rest\/v1\/articles\?page=2>; rel="next"$/)]);
        expect(links.some((link) => link.includes('rel="prev"'))).toBe(false);
        const item = first.body[0];
        expect(Object.keys(item)).toEqual(SUMMARY_KEYS);
        expect(item).toEqual({
          id: news[0]!.id,
          title: 'News 12',
          slug: 'news-12',
          date: '2026-11-12T09:00:00',
          link: 'http://127.0.0.1:8080/news/news-12/',
          excerpt: 'Item 12 with a link and another. More.',
          image: null,
          categories: [{ id: music, name: 'Music', slug: 'music' }],
        });
        const second = await get('/rest/v1/articles?page=2');
        expect(idsOf(second)).toEqual(news.slice(10).map((r) => r.id));
        expect(total(second)).toEqual(['12', '2']);
        expect((await get('/rest/v1/articles?posts_per_page=3&page=4')).body.map((a: { title: string }) => a.title)).toEqual(['News 3', 'News 2', 'News 1']);
        expect(idsOf(await get('/rest/v1/articles?posts_per_page=0'))).toEqual([news[0]!.id]);
      });

      it('serves posts_per_page=-1 in bounded pages, with the real total', async () => {
        const all = await get('/rest/v1/articles?posts_per_page=-1');
        expect(idsOf(all)).toEqual(news.slice(0, MAX_ITEMS).map((r) => r.id));
        expect(total(all)).toEqual(['12', String(Math.ceil(12 / MAX_ITEMS))]);
        const last = await get('/rest/v1/articles?posts_per_page=-1&page=3');
        expect(idsOf(last)).toEqual(news.slice(2 * MAX_ITEMS).map((r) => r.id));
      });

      it('filters by a category slug or id, children included; an unknown category is an empty list', async () => {
        const byMusic = await get('/rest/v1/articles?category=music&posts_per_page=-1');
        expect(idsOf(byMusic)).toEqual(news.filter((r) => r.categoryIds.includes(music)).map((r) => r.id));
        const byCulture = await get(`/rest/v1/articles?category=${culture}&posts_per_page=20`);
        expect(idsOf(byCulture)).toEqual(news.filter((r) => r.categoryIds.includes(music) || r.categoryIds.includes(culture)).map((r) => r.id));
        const none = await get('/rest/v1/articles?category=nope');
        expect(none.body).toEqual([]);
        expect(total(none)).toEqual(['0', '0']);
        expect((await get('/rest/v1/articles?category=999999')).body).toEqual([]);
      });

      it('lists another registered post type, and refuses bad parameters the WordPress way', async () => {
        const recipes = await get('/rest/v1/articles?post_type=recipe');
        expect(recipes.body).toMatchObject([{ id: recipe.id, link: 'http://127.0.0.1:8080/recipe/apple-pie/' }]);
        const badType = await get('/rest/v1/articles?post_type=video');
        expect(badType.status).toBe(400);
        expect(badType.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { post_type: 'post_type is not one of news, post, and recipe.' } } });
        for (const query of ['posts_per_page=abc', 'posts_per_page=101', 'posts_per_page=-2', 'page=0', 'page=x', 'category[]=1']) {
          const bad = await get(`/rest/v1/articles?${query}`);
          expect(bad.status, query).toBe(400);
          expect(bad.body.code, query).toBe('rest_invalid_param');
        }
        const beyond = await get('/rest/v1/articles?page=3');
        expect(beyond.status).toBe(400);
        expect(beyond.body).toEqual({ code: 'rest_post_invalid_page_number', message: 'The page number requested is larger than the number of pages available.', data: { status: 400 } });
      });

      it('answers one published article with its content; anything else is rest_post_invalid_id', async () => {
        const one = await get(`/rest/v1/articles/${news[0]!.id}`);
        expect(one.status).toBe(200);
        expect(Object.keys(one.body)).toEqual([...SUMMARY_KEYS, 'type', 'modified', 'author', 'content']);
        expect(one.body).toMatchObject({ id: news[0]!.id, type: 'news', author: 'The editor', content: '<p>Item 12 with <a href="/other/">a link</a> and <a href="https://elsewhere.example/">another</a>.</p>\n<p>More.</p>' });
        for (const id of [...hidden.map((r) => r.id), videos[0]!.id, events.concert, 987654321]) {
          for (const role of ['anonymous', 'administrator'] as const) {
            const missing = await get(`/rest/v1/articles/${id}`, role);
            expect(missing.status, `${id} as ${role}`).toBe(404);
            expect(missing.body).toEqual({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
          }
        }
        expect((await get('/rest/v1/articles/abc')).body.code).toBe('rest_no_route');
        expect((await call('POST', `/rest/v1/articles/${news[0]!.id}`, 'administrator', {})).body.code).toBe('rest_no_route');
      });

      it('never shows drafts, pending, private or protected content, whoever asks', async () => {
        const secret = new Set(hidden.map((r) => r.id));
        for (const role of ['anonymous', 'subscriber', 'administrator'] as const) {
          for (const path of ['/rest/v1/articles?posts_per_page=-1', '/rest/v1/articles?posts_per_page=-1&page=2', '/rest/v1/articles?posts_per_page=-1&page=3', '/rest/v1/articles?category=music&posts_per_page=100', '/rest/v1/videos', '/rest/v1/events']) {
            const answer = await get(path, role);
            expect(answer.status, path).toBe(200);
            expect(idsOf(answer).filter((id) => secret.has(id) || id === events.draft), `${path} as ${role}`).toEqual([]);
          }
        }
      });

      it('lists published videos newest first from offset, all or length of them', async () => {
        const all = await get('/rest/v1/videos');
        expect(idsOf(all)).toEqual(videos.map((v) => v.id));
        expect(total(all)).toEqual(['3', '1']);
        expect(Object.keys(all.body[0])).toEqual([...SUMMARY_KEYS, 'video_url']);
        expect(all.body[0]).toMatchObject({ title: 'Video 3', video_url: 'https://videos.example/3.mp4', link: 'http://127.0.0.1:8080/video/video-3/' });
        const window = await get('/rest/v1/videos?offset=1&length=1');
        expect(idsOf(window)).toEqual([videos[1]!.id]);
        expect(total(window)).toEqual(['3', '3']);
        expect((await get('/rest/v1/videos?offset=5')).body).toEqual([]);
        for (const query of ['offset=-1', 'length=0', 'length=abc', 'offset=1.5']) expect((await get(`/rest/v1/videos?${query}`)).status, query).toBe(400);
      });

      it('lists upcoming published events soonest first, all by default, by category, and by page', async () => {
        const all = await get('/rest/v1/events');
        expect(idsOf(all)).toEqual(events.upcoming);
        expect(total(all)).toEqual(['4', '1']);
        expect(Object.keys(all.body[0])).toEqual([...SUMMARY_KEYS, 'start_date', 'end_date', 'all_day', 'venue']);
        expect(all.body[2]).toMatchObject({ id: events.concert, title: 'Concert', start_date: '2026-12-01T19:00:00', end_date: '2026-12-01T21:00:00', all_day: false, venue: null, link: 'http://127.0.0.1:8080/event/concert/' });
        expect(idsOf(all)).not.toContain(events.past);
        expect(idsOf(all)).not.toContain(events.hiddenEvent);
        expect(idsOf(await get('/rest/v1/events?category=concerts'))).toEqual([events.concert]);
        const paged = await get('/rest/v1/events?posts_per_page=3&page=2');
        expect(idsOf(paged)).toEqual(events.upcoming.slice(3));
        expect(total(paged)).toEqual(['4', '2']);
        expect(idsOf(await get('/rest/v1/events?post_type=recipe'))).toEqual([recipe.id]);
        expect((await get('/rest/v1/events?post_type=video')).status).toBe(400);
      });

      it('answers hostile input with 4xx or an empty list, never a 500', async () => {
        for (const path of [
          '/rest/v1/articles?category=%00',
          '/rest/v1/articles?category=__proto__',
          '/rest/v1/articles?category=constructor',
          `/rest/v1/articles?category=${'a'.repeat(5000)}`,
          '/rest/v1/articles?category=99999999999999999999',
          '/rest/v1/articles?page=99999999999999999999',
          '/rest/v1/articles/99999999999999999999',
          '/rest/v1/articles/00000000000000000001',
          '/rest/v1/videos?offset=99999999999999999999&length=100',
          '/rest/v1/events?category=%F0%9F%8E%B7&posts_per_page=-1',
          '/rest/v1/events?post_type[]=news',
        ]) {
          const answer = await get(path);
          expect(answer.status, path).toBeLessThan(500);
          if (answer.status === 200) expect(Array.isArray(answer.body) || typeof answer.body.id === 'number', path).toBe(true);
          else expect(typeof answer.body.code, path).toBe('string');
        }
        // Leading zeros name the same id, as PHP's (int) cast reads them.
        expect((await get(`/rest/v1/articles/000${news[0]!.id}`)).body.id).toBe(news[0]!.id);
      });

      it('lets other sites embed published articles and videos (oEmbed), by permalink or id', async () => {
        const embed = (url: string) => get(`/oembed/1.0/embed?url=${encodeURIComponent(url)}`);
        const byLink = await embed(`http://127.0.0.1:8080/news/${news[0]!.slug}/`);
        expect(byLink.status).toBe(200);
        expect(byLink.body).toMatchObject({ type: 'rich', title: 'News 12', provider_name: 'Content Site' });
        expect(byLink.body.html).toContain(`http://127.0.0.1:8080/news/${news[0]!.slug}/embed/`);
        expect((await embed(`http://127.0.0.1:8080/video/${videos[0]!.slug}/`)).body.title).toBe('Video 3');
        expect((await embed(`http://127.0.0.1:8080/?post_type=recipe&p=${recipe.id}`)).body.title).toBe('Apple pie');
        for (const url of [`http://127.0.0.1:8080/news/${hidden[0]!.slug || 'hidden-draft'}/`, `http://127.0.0.1:8080/?post_type=news&p=${hidden[0]!.id}`, `http://127.0.0.1:8080/news/${news[0]!.slug}/extra/`]) {
          expect((await embed(url)).status, url).toBe(404);
        }
      });

      it('answers HEAD with the headers of GET and no body', async () => {
        const head = await call('HEAD', '/rest/v1/articles');
        expect(head.status).toBe(200);
        expect(head.raw.body).toBe('');
        expect(total(head)).toEqual(['12', '2']);
      });
    });

    describe('seo/v1', () => {
      const ROUTES: Array<[string, string]> = [
        ['GET', '/seo/v1/configurator'],
        ['POST', '/seo/v1/configurator'],
        ['GET', '/seo/v1/reindex_posts'],
        ['GET', '/seo/v1/statistics'],
        ['GET', '/seo/v1/checker'],
      ];
      const FORBIDDEN = (status: number) => ({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status } });

      it('declares no args, and refuses callers without the capability with rest_forbidden (401 anonymous, 403 signed in)', async () => {
        const index = await get('/seo/v1');
        expect(Object.keys(index.body.routes)).toEqual(['/seo/v1', '/seo/v1/configurator', '/seo/v1/reindex_posts', '/seo/v1/statistics', '/seo/v1/checker']);
        expect(index.body.routes['/seo/v1/configurator'].endpoints).toEqual([
          { methods: ['GET'], args: [] },
          { methods: ['POST'], args: [] },
        ]);
        for (const [method, path] of ROUTES) {
          const anonymous = await call(method, path, 'anonymous', method === 'POST' ? {} : undefined);
          expect(anonymous.body, `${method} ${path}`).toEqual(FORBIDDEN(401));
        }
        const allowed: Record<string, Role[]> = {
          'GET /seo/v1/configurator': ['administrator'],
          'POST /seo/v1/configurator': ['administrator'],
          'GET /seo/v1/reindex_posts': ['administrator', 'editor', 'author'],
          'GET /seo/v1/statistics': ['administrator', 'editor', 'author', 'subscriber'],
          'GET /seo/v1/checker': ['administrator'],
        };
        for (const [method, path] of ROUTES) {
          for (const role of ['editor', 'author', 'subscriber'] as const) {
            const answer = await call(method, path, role, method === 'POST' ? {} : undefined);
            if (allowed[`${method} ${path}`]!.includes(role)) expect(answer.status, `${method} ${path} as ${role}`).toBe(200);
            else expect(answer.body, `${method} ${path} as ${role}`).toEqual(FORBIDDEN(403));
          }
        }
      });

      it('counts the SEO ranks of published posts exactly, per user when they cannot edit others\u2019 posts', async () => {
        const empty = await get('/seo/v1/statistics', 'administrator');
        expect(empty.body).toEqual({ header: "You don't have any published posts, your SEO scores will appear here once you make your first post!", seo_scores: [] });
        const library = content(site);
        const scored: Array<[number, string, boolean, number]> = [
          // score, focus keyphrase, noindex, author
          [82, 'a', false, users.author],
          [75, 'b', false, users.editor],
          [55, 'c', false, users.author],
          [30, 'd', false, users.editor],
          [0, '', true, users.editor],
          [91, '', false, users.author],
        ];
        for (const [i, [score, focusKeyphrase, noindex, authorId]] of scored.entries()) {
          await library.createArticle({ type: 'post', title: `Post ${i}`, authorId, seo: { score, focusKeyphrase, noindex } });
        }
        await library.createArticle({ type: 'post', title: 'Draft post', status: 'draft', seo: { score: 90, focusKeyphrase: 'x' } });
        const link = (rank: string, author?: number) => `http://127.0.0.1:8080/wp-admin/edit.php?post_status=publish&#038;post_type=post&#038;seo_filter=${rank}${author ? `&#038;author=${author}` : ''}`;
        const all = await get('/seo/v1/statistics', 'editor');
        expect(all.body).toEqual({
          header: "Below are your published posts' SEO scores. Now is as good a time as any to start improving some of your posts!",
          seo_scores: [
            { seo_rank: 'bad', label: 'Posts with the SEO score: <strong>Needs improvement</strong>', count: 1, link: link('bad') },
            { seo_rank: 'ok', label: 'Posts with the SEO score: <strong>OK</strong>', count: 1, link: link('ok') },
            { seo_rank: 'good', label: 'Posts with the SEO score: <strong>Good</strong>', count: 3, link: link('good') },
            { seo_rank: 'na', label: 'Posts <strong>without</strong> a focus keyphrase', count: 2, link: link('na') },
            { seo_rank: 'noindex', label: 'Posts that should not show up in search results', count: 1, link: link('noindex') },
          ],
        });
        const own = await get('/seo/v1/statistics', 'author');
        expect(own.body.seo_scores.map((s: { seo_rank: string; count: number; link: string }) => [s.seo_rank, s.count, s.link])).toEqual([
          ['ok', 1, link('ok', users.author)],
          ['good', 2, link('good', users.author)],
          ['na', 1, link('na', users.author)],
        ]);
        // 2 good of 4 counted: not more than 66%.
        expect(own.body.header).toBe("Below are your published posts' SEO scores. Now is as good a time as any to start improving some of your posts!");
        const subscriber = await get('/seo/v1/statistics', 'subscriber');
        expect(subscriber.body.seo_scores).toEqual([]);
        // Meta set through the library API counts at once: now 3 of the author's 4 counts are good (75%).
        const [ok] = (await library.list({ types: ['post'] })).items.filter((r) => r.seoScore === 55);
        await seo(site).setPostMeta(ok!.id, { score: 71 });
        expect((await get('/seo/v1/statistics', 'author')).body.header).toBe('Hey, your SEO is doing pretty well! Check out the stats:');
        expect(await seo(site).rankCounts(users.author)).toEqual({ bad: 0, ok: 0, good: 3, na: 1, noindex: 0 });
      });

      it('leaves the store\u2019s change version (what cached calendar answers key on) alone on every read and on reindexing', async () => {
        const before = await store.changeVersion?.();
        for (const path of ['/seo/v1/statistics', '/seo/v1/checker', '/seo/v1/configurator', '/rest/v1/articles', '/rest/v1/events', '/rest/v1/videos']) {
          expect((await get(path, 'administrator')).status, path).toBe(200);
        }
        await content(site).createArticle({ title: 'Quiet write', content: '<a href="/x/">x</a>' });
        expect((await get('/seo/v1/reindex_posts', 'administrator')).status).toBe(200);
        expect(await store.changeVersion?.()).toBe(before);
      });

      it('counts internal links of published records in batches and answers the number processed', async () => {
        await content(site).createArticle({ title: 'Fresh links', content: '<a href="/y/">y</a>' });
        const first = await get('/seo/v1/reindex_posts', 'author');
        expect(first.status).toBe(200);
        expect(first.raw.body).toMatch(/^\d+$/);
        const processed = Number(first.body);
        expect(processed).toBeGreaterThan(0);
        let more = processed;
        while (more > 0) more = Number((await get('/seo/v1/reindex_posts', 'administrator')).body);
        expect((await get('/seo/v1/reindex_posts', 'administrator')).raw.body).toBe('0');
        expect((await content(site).get(news[0]!.id))?.linkCount).toBe(1);
        expect((await content(site).get(hidden[0]!.id))?.linkCount).toBeNull();
        await content(site).update(news[0]!.id, { content: '<a href="http://127.0.0.1:8080/a/">1</a> <a href="//127.0.0.1:8080/b">2</a> <a href="#top">x</a> <a href="mailto:x@y.z">m</a> <a href="c/">3</a>' });
        expect((await get('/seo/v1/reindex_posts', 'administrator')).body).toBe(1);
        expect((await content(site).get(news[0]!.id))?.linkCount).toBe(3);
      });

      it('describes the configuration wizard and stores each field it is sent, answering per field', async () => {
        const shape = await get('/seo/v1/configurator', 'administrator');
        expect(Object.keys(shape.body)).toEqual(['fields', 'steps']);
        expect(shape.body.steps.intro).toEqual({ title: 'Welcome!', fields: ['configurationChoices'], navigation: false });
        expect(shape.body.fields.siteType).toMatchObject({ componentName: 'Choice', data: '' });
        expect(shape.body.fields.publishingEntityPersonName.requires).toEqual({ field: 'publishingEntityType', value: 'person' });
        for (const step of Object.values(shape.body.steps) as Array<{ fields: string[] }>) for (const field of step.fields) expect(shape.body.fields[field], field).toBeDefined();
        const saved = await call('POST', '/seo/v1/configurator', 'administrator', { siteType: 'blog', environment_type: 'nope', profileUrlFacebook: 'javascript:alert(1)', siteName: ' Harbour ', unknown: 1, ['__proto__']: { polluted: true } });
        expect(saved.body).toEqual({
          environment_type: { result: false, data: 'production' },
          siteType: { result: true, data: 'blog' },
          siteName: { result: true, data: 'Harbour' },
          profileUrlFacebook: { result: false, data: '' },
        });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        const after = await get('/seo/v1/configurator', 'administrator');
        expect(after.body.fields.siteType.data).toBe('blog');
        expect(after.body.fields.siteName.data).toBe('Harbour');
        expect((await seo(site).configuration()).siteType).toBe('blog');
        expect((await call('POST', '/seo/v1/configurator', 'administrator', [1, 2])).body).toEqual({});
      });

      it('checks the home page\u2019s indexability from the site\u2019s own settings, in the ryte shape', async () => {
        const good = { ryte: { score: 'good', label: 'Your homepage can be indexed by search engines.', can_fetch: false } };
        expect((await get('/seo/v1/checker', 'administrator')).body).toEqual(good);
        await seo(site).updateSettings({ robotsTxt: 'User-agent: *\nDisallow: /\n' });
        const bad = await get('/seo/v1/checker', 'administrator');
        expect(bad.body.ryte).toMatchObject({ score: 'bad', can_fetch: false });
        expect(bad.body.ryte.label).toContain('Your homepage cannot be indexed by search engines');
        await seo(site).updateSettings({ robotsTxt: 'User-agent: *\nDisallow: /\nAllow: /$\n' });
        expect((await get('/seo/v1/checker', 'administrator')).body).toEqual(good);
        await seo(site).updateSettings({ robotsTxt: 'User-agent: Googlebot\nDisallow: /\n', blogPublic: false });
        expect((await get('/seo/v1/checker', 'administrator')).body.ryte.score).toBe('bad');
        await seo(site).updateSettings({ blogPublic: true });
        expect((await get('/seo/v1/checker', 'administrator')).body).toEqual(good);
        await seo(site).updateSettings({ indexabilityCheck: false });
        expect((await get('/seo/v1/checker', 'administrator')).body).toEqual({ ryte: false });
        await seo(site).updateSettings({ indexabilityCheck: true });
      });
    });
  });
}
