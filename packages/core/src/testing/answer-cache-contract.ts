import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnswerCache, callerKey } from '../answer-cache.js';
import { manualClock, type ManualClock } from '../clock.js';
import { respond } from '../http/api-response.js';
import { silentLogger } from '../site-context.js';
import { createSite, type Site } from '../site.js';
import type { EventQuery } from '../store/queries.js';
import type { SiteStore } from '../store/repositories.js';
import { newEvent, renamedOutside } from './fixtures.js';
import { CATEGORY_TAXONOMY } from '../namespaces/calendar/constants.js';
import { basicAuth } from './http-client.js';

const header = (headers: Array<[string, string]>, name: string) => headers.find(([key]) => key === name)?.[1];

export interface AnswerCacheHarness {
  /** A store with no data (the same object may be returned each time, emptied). */
  create(): Promise<SiteStore>;
  /**
   * Makes the store's next advances of the calendar's change version fail while its reads go on working (a
   * database refusing one statement); returns how to undo it. Stores whose advances cannot fail omit it.
   */
  breakCalendarVersion?(store: SiteStore): Promise<() => Promise<void>>;
  /** Changes an event's title behind the store's back (SQL run by another tool). Omitted by the memory store. */
  writeOutside?(store: SiteStore, eventId: number, title: string): Promise<void>;
}

const START = '2026-11-21T16:41:37Z';
const LIST = { method: 'GET', path: '/cal/events/v1/events', headers: {} as Record<string, string> };

const event = (title: string, day: number, extra: Parameters<typeof newEvent>[0] = {}) => {
  const at = `2027-01-${String(day).padStart(2, '0')} 10:00:00`;
  return newEvent({ title, startDateUtc: at, startDate: at, ...extra });
};

/**
 * The list-answer cache's promises on a store: it never serves an answer computed for other rights, never keys
 * on unbounded input, stays within its bounds, computes concurrent misses once, is invalidated only by writes to
 * what answers depend on, and never trusts a version the store could not advance.
 */
export function answerCacheContractSuite(name: string, harness: AnswerCacheHarness): void {
  describe(`answer cache: ${name}`, () => {
    let store: SiteStore;
    let clock: ManualClock;
    let site: Site;
    let listed = 0;
    let restore: (() => void) | null = null;

    beforeEach(async () => {
      store = await harness.create();
      clock = manualClock(START);
      listed = 0;
      const events = store.events;
      const list = events.list;
      events.list = (query: EventQuery) => {
        listed++;
        return list.call(events, query);
      };
      restore = () => {
        events.list = list;
      };
      // One user id, whatever role the request names: an app's hook may give a user other rights over time.
      site = createSite({
        store,
        clock,
        logger: silentLogger,
        authenticate: (request) => {
          const role = request.headers['x-role'];
          return typeof role === 'string' ? { id: 7, login: 'shared', roles: [role], credentials: 'header' } : null;
        },
      });
    });

    afterEach(() => {
      restore?.();
      restore = null;
    });

    it("never serves an answer computed for another caller's rights, though the user id is the same", async () => {
      await store.events.create(event('Open', 1));
      await store.events.create(event('Hidden plan', 2, { status: 'private', authorId: 1 }));
      await store.events.create(event('Locked', 3, { password: 'pw', content: 'SECRET CONTENT' }));
      const as = (role: string, query = '') => site.handle({ ...LIST, query, headers: { 'x-role': role } });
      const admin = await as('administrator', 'context=edit');
      expect(admin.body).toContain('Hidden plan');
      expect(admin.body).toContain('SECRET CONTENT');
      const subscriber = await as('subscriber', 'context=edit');
      expect(subscriber.status).toBe(200);
      expect(subscriber.body).not.toContain('Hidden plan');
      expect(subscriber.body).not.toContain('SECRET CONTENT');
      expect((await as('subscriber')).body).not.toContain('Hidden plan');
      // The same rights again are served from the cache.
      const before = listed;
      expect((await as('administrator', 'context=edit')).body).toBe(admin.body);
      expect(listed).toBe(before);
      // An author may read the content of their own protected event in the edit context; a contributor (who may
      // not edit published events) may not, though the visibility of the list is the same for both.
      await store.events.create(event('Own locked', 4, { password: 'pw', content: 'OWN SECRET', authorId: 7 }));
      expect((await as('author', 'context=edit')).body).toContain('OWN SECRET');
      const contributor = await as('contributor', 'context=edit');
      expect(contributor.body).toContain('Own locked');
      expect(contributor.body).not.toContain('OWN SECRET');
    });

    it('answers a repeated list request before planning it again, and only for the same second, rights and data', async () => {
      const jazz = await store.terms.create({ taxonomy: CATEGORY_TAXONOMY, name: 'Jazz', slug: 'jazz', description: '', parentId: 0 });
      await store.events.create(event('Jazz night', 1, { categoryIds: [jazz.id] }));
      // Planning this list looks the category up by its slug: a request answered as sent does not.
      const terms = store.terms;
      const findBySlug = terms.findBySlug;
      let lookups = 0;
      terms.findBySlug = (...args: Parameters<typeof findBySlug>) => {
        lookups++;
        return findBySlug.apply(terms, args);
      };
      try {
        const ask = (role?: string) => site.handle({ ...LIST, query: 'categories=jazz', headers: role ? { 'x-role': role } : {} });
        const first = await ask();
        expect(first.status).toBe(200);
        const planned = lookups;
        expect(planned).toBeGreaterThan(0);
        const again = await ask();
        expect(lookups).toBe(planned);
        expect(again.body).toBe(first.body);
        expect(again.headers).toEqual(first.headers);
        // Its bytes are kept too, and sent as they are.
        expect(again.bodyBytes && Buffer.from(again.bodyBytes).equals(Buffer.from(again.body))).toBe(true);
        // Another caller's rights are planned again (and get their own Allow header).
        const admin = await ask('administrator');
        expect(lookups).toBeGreaterThan(planned);
        expect(admin.headers.find(([name]) => name === 'Allow')?.[1]).toBe('GET, POST');
        expect(first.headers.find(([name]) => name === 'Allow')?.[1]).toBe('GET');
        // The next second is planned again (defaults follow the clock); the list itself still comes from the cache.
        const counted = lookups;
        const listedBefore = listed;
        clock.advance(1000);
        expect((await ask()).body).toBe(first.body);
        expect(lookups).toBeGreaterThan(counted);
        expect(listed).toBe(listedBefore);
        // A write is seen at once.
        await store.events.create(event('Second set', 2, { categoryIds: [jazz.id] }));
        expect((await ask()).body).toContain('Second set');
      } finally {
        terms.findBySlug = findBySlug;
      }
    });

    it('answers a repeated anonymous request as it was sent, before the pipeline, only while nothing but its URL decides it', async () => {
      const jazz = await store.terms.create({ taxonomy: CATEGORY_TAXONOMY, name: 'Jazz', slug: 'jazz', description: '', parentId: 0 });
      await store.events.create(event('Jazz night', 1, { categoryIds: [jazz.id] }));
      // A site without an authenticate hook: only then does nothing but a request's headers name its caller.
      const open = createSite({ store, clock, logger: silentLogger });
      const URL = '/cal/events/v1/events?categories=jazz';
      const ask = (headers: Record<string, string> = {}, method = 'GET') => open.handle({ method, path: LIST.path, query: 'categories=jazz', headers, basePath: '/api' });
      // Synchronous on a store that knows its version in-process, a promise where the store is asked: awaited alike.
      const sent = async (headers: Record<string, string> = {}, method = 'GET', url = URL, basePath = '/api') => open.sentAnswer(method, url, headers, basePath);
      expect(await sent()).toBeNull();
      const first = await ask();
      expect(first.status).toBe(200);
      const kept = await sent();
      expect(kept).not.toBeNull();
      expect(open.sentAnswer('GET', URL, {}, '/api') instanceof Promise).toBe(!store.knownChangeVersion);
      expect(kept!.status).toBe(first.status);
      expect(kept!.headers).toEqual(first.headers);
      expect(kept!.body).toBe(first.body);
      expect(Buffer.from(kept!.bodyBytes!).equals(Buffer.from(first.body))).toBe(true);
      // Whatever names a caller, an origin or a body, another method, mount point or URL: through the pipeline.
      const naming: Array<Record<string, string>> = [{ authorization: 'Basic eDp5' }, { 'x-wp-nonce': 'abc' }, { origin: 'https://elsewhere.example' }, { 'content-length': '2' }, { 'transfer-encoding': 'chunked' }];
      for (const headers of naming) {
        expect(await sent(headers)).toBeNull();
      }
      expect(await sent({}, 'HEAD')).toBeNull();
      expect(await sent({}, 'POST')).toBeNull();
      expect(await sent({}, 'GET', URL, '/other')).toBeNull();
      expect(await sent({}, 'GET', `${URL}&page=1`)).toBeNull();
      expect(await sent({ 'content-length': '0', 'user-agent': 'x' })).toBe(kept);
      // An answer given to a caller with rights, or to an in-process principal, is never kept under the URL.
      const other = '/cal/events/v1/events?categories=jazz&per_page=5';
      await open.handle({ method: 'GET', path: LIST.path, query: 'categories=jazz&per_page=5', headers: {}, basePath: '/api', principal: { id: 1, login: 'admin', roles: ['administrator'] } });
      expect(await sent({}, 'GET', other)).toBeNull();
      // JSONP and pretty-printed answers are not kept as bytes.
      await open.handle({ method: 'GET', path: LIST.path, query: 'categories=jazz&_jsonp=cb', headers: {}, basePath: '/api' });
      expect(await sent({}, 'GET', `${URL}&_jsonp=cb`)).toBeNull();
      // The next second asks the pipeline again (defaults follow the clock), and keeps that second's answer.
      clock.advance(1000);
      expect(await sent()).toBeNull();
      await ask();
      expect(await sent()).not.toBeNull();
      // A write to what the answer depends on is seen at once; one elsewhere keeps it.
      await open.createUser({ login: 'someone', roles: ['subscriber'] });
      expect(await sent()).not.toBeNull();
      await store.events.create(event('Second set', 2, { categoryIds: [jazz.id] }));
      expect(await sent()).toBeNull();
      expect((await ask()).body).toContain('Second set');
      expect((await sent())!.body).toContain('Second set');
      // New settings (the API root in its links) ask the pipeline again.
      await open.updateSettings({ url: 'https://moved.example' });
      expect(await sent()).toBeNull();
      expect(header((await ask()).headers, 'Link')).toContain('https://moved.example/api/');
      // A site with an authenticate hook keeps nothing under the URL: only the hook knows who sends a cookie.
      await site.handle({ ...LIST, query: 'categories=jazz', basePath: '/api' });
      await site.handle({ ...LIST, query: 'categories=jazz', basePath: '/api' });
      expect(await site.sentAnswer('GET', URL, {}, '/api')).toBeNull();
      // Unless the app says which headers its hook finds nobody in: then its anonymous requests are kept too.
      const hooked = createSite({
        store,
        clock,
        logger: silentLogger,
        authenticate: (request) => (request.headers['x-role'] === 'editor' ? { id: 7, login: 'shared', roles: ['editor'], credentials: 'header' } : null),
        // Wrong on purpose for `x-role: editor`: the hook finds a caller there, so nothing is kept for it.
        cache: { anonymous: (headers) => headers['x-session'] === undefined },
      });
      const askHooked = (headers: Record<string, string>) => hooked.handle({ method: 'GET', path: LIST.path, query: 'categories=jazz', headers, basePath: '/api' });
      const editor = await askHooked({ 'x-role': 'editor' });
      expect(header(editor.headers, 'Allow')).toBe('GET, POST');
      expect(await hooked.sentAnswer('GET', URL, { 'x-role': 'editor' }, '/api')).toBeNull();
      await askHooked({ 'x-session': 'abc' });
      expect(await hooked.sentAnswer('GET', URL, { 'x-session': 'abc' }, '/api')).toBeNull();
      const anonymous = await askHooked({});
      expect((await hooked.sentAnswer('GET', URL, {}, '/api'))?.body).toBe(anonymous.body);
      expect(header(anonymous.headers, 'Allow')).toBe('GET');
      // The kept answer is an anonymous caller's, never the editor's, and a header the app names is never served it.
      expect(await hooked.sentAnswer('GET', URL, { 'x-session': 'abc' }, '/api')).toBeNull();
      // A test that throws sends the request through the pipeline.
      const throwing = createSite({ store, clock, logger: silentLogger, authenticate: () => null, cache: { anonymous: () => { throw new Error('app bug'); } } });
      const answered = await throwing.handle({ method: 'GET', path: LIST.path, query: 'categories=jazz', headers: {}, basePath: '/api' });
      expect(answered.status).toBe(200);
      expect(await throwing.sentAnswer('GET', URL, {}, '/api')).toBeNull();
    });

    it('serves nothing computed with settings a change has since replaced, though the data version is the same', async () => {
      const created = await store.events.create(event('Jazz night', 1, { slug: 'jazz-night' }));
      // Both sites: one with an authenticate hook (the list-answer cache), one without (answers kept as sent too).
      const open = createSite({ store, clock, logger: silentLogger });
      const ask = async (target: Site) => {
        const answer = await target.handle({ ...LIST, query: '', basePath: '/api' });
        return (JSON.parse(answer.body) as { events: Array<{ url: string }> }).events[0]!.url;
      };
      const keptAsSent = async () => (await open.sentAnswer('GET', LIST.path, {}, '/api'))?.body;
      for (const target of [site, open]) expect(await ask(target)).toBe(`http://localhost/event/${created.slug}/`);
      // A settings change writes its options first (the data version moves on) and reads them back after: a request
      // in between is computed with the old settings at the new version.
      await store.options.set('single_event_slug', 'concerts');
      for (const target of [site, open]) expect(await ask(target)).toBe(`http://localhost/event/${created.slug}/`);
      for (const target of [site, open]) await target.reloadSettings();
      for (const target of [site, open]) expect(await ask(target)).toBe(`http://localhost/concerts/${created.slug}/`);

      // New settings may also arrive while a request waits for a data version (another instance's notice): at each
      // of its waits in turn, the answer kept as sent is never one the new settings contradict.
      const changeVersion = store.changeVersion!;
      try {
        for (let wait = 1; wait <= 4; wait++) {
          const slug = `slug-${wait}`;
          await store.options.set('single_event_slug', slug);
          expect(await ask(open)).not.toContain(slug);
          clock.advance(1000);
          let waits = 0;
          store.changeVersion = async (scopes) => {
            const version = await changeVersion.call(store, scopes);
            if (++waits === wait) await open.reloadSettings();
            return version;
          };
          await ask(open);
          store.changeVersion = changeVersion;
          // A request with fewer waits than this: the settings arrive after it.
          if (waits < wait) await open.reloadSettings();
          expect(open.settings.single_event_slug).toBe(slug);
          const kept = await keptAsSent();
          if (kept !== undefined) expect(kept).toContain(`/${slug}/`);
          expect(await ask(open)).toBe(`http://localhost/${slug}/${created.slug}/`);
        }
      } finally {
        store.changeVersion = changeVersion;
      }
    });

    it('keys on capability overrides too', () => {
      const base = { id: 7, login: 'shared', roles: ['subscriber'] };
      expect(callerKey(base)).toEqual(callerKey({ ...base, roles: ['subscriber'] }));
      expect(callerKey({ ...base, caps: { read_private_posts: true } })).not.toEqual(callerKey(base));
      expect(callerKey({ ...base, roles: ['administrator'] })).not.toEqual(callerKey(base));
      expect(callerKey(null)).not.toEqual(callerKey({ ...base, id: 0 }));
      // Every own override counts (capOverride honours them all), not only those a loop over the object sees;
      // and one that is no boolean is none, as for capOverride.
      const hidden = Object.defineProperty({}, 'read_private_posts', { value: true, enumerable: false });
      expect(callerKey({ ...base, caps: hidden })).toEqual(callerKey({ ...base, caps: { read_private_posts: true } }));
      expect(callerKey({ ...base, caps: { read_private_posts: 'yes' } as never })).toEqual(callerKey(base));
    });

    it('does not keep answers to requests whose key material is unbounded', async () => {
      const cache = new AnswerCache(store, clock);
      let computed = 0;
      const compute = async () => respond({ n: ++computed });
      await cache.remember(['x', 'a'.repeat(1_000_000)], ['calendar'], compute);
      await cache.remember(['x', 'a'.repeat(1_000_000)], ['calendar'], compute);
      expect(computed).toBe(2);
      expect(cache.size.entries).toBe(0);
      // A key of ordinary size is kept, and counted in the bytes bound.
      await cache.remember(['x', 'b'.repeat(2_000)], ['calendar'], compute);
      await cache.remember(['x', 'b'.repeat(2_000)], ['calendar'], compute);
      expect(computed).toBe(3);
      expect(cache.size.entries).toBe(1);
      expect(cache.size.bytes).toBeGreaterThan(2_000);
      expect(cache.size.bytes).toBeLessThan(3_000);
    });

    it('is bounded in bytes as well as in entries', async () => {
      const cache = new AnswerCache(store, clock, { maxBytes: 1_000_000, maxEntries: 1_000 });
      const big = 'x'.repeat(30_000);
      for (let i = 0; i < 40; i++) await cache.remember(['answer', i], ['calendar'], async () => respond({ i, big }));
      expect(cache.size.bytes).toBeLessThanOrEqual(1_000_000);
      expect(cache.size.entries).toBeLessThan(40);
      expect(cache.size.entries).toBeGreaterThan(0);
      // One answer larger than an eighth of the bound is not kept at all.
      await cache.remember(['huge'], ['calendar'], async () => respond({ huge: 'y'.repeat(200_000) }));
      let again = 0;
      await cache.remember(['huge'], ['calendar'], async () => respond({ again: ++again }));
      expect(again).toBe(1);
    });

    it('computes concurrent misses of one answer once', async () => {
      await store.events.create(event('Open', 1));
      const responses = await Promise.all(Array.from({ length: 50 }, () => site.handle(LIST)));
      expect(new Set(responses.map((r) => r.body)).size).toBe(1);
      expect(listed).toBe(1);
    });

    it('keeps calendar answers when only application passwords, users or unrelated data change', async () => {
      await store.events.create(event('Open', 1));
      const user = await site.createUser({ login: 'writer', roles: ['author'] });
      const { password } = await site.createApplicationPassword(user.id, 'laptop');
      const anonymous = await site.handle(LIST);
      expect(listed).toBe(1);
      // Signing in with an application password stamps its use (a write to application_passwords).
      const signedIn = await site.handle({ ...LIST, path: '/', headers: { authorization: basicAuth('writer', password) } });
      expect(signedIn.status).toBe(200);
      expect((await store.applicationPasswords.listForUser(user.id))[0]?.lastUsed).not.toBeNull();
      await site.createUser({ login: 'another', roles: ['subscriber'] });
      expect((await site.handle(LIST)).body).toBe(anonymous.body);
      expect(listed).toBe(1);
      // A calendar write is seen at once.
      await store.events.create(event('Second', 2));
      expect(JSON.parse((await site.handle(LIST)).body).total).toBe(2);
      expect(listed).toBe(2);
      // So is a settings change (formats and the zone shape the answers).
      await store.options.set('date_format', 'Y/m/d');
      await site.handle(LIST);
      expect(listed).toBe(3);
    });

    it('reuses an answer no longer than its age limit, so writes made outside siterest are seen', async () => {
      const open = await store.events.create(event('Open', 1));
      expect(await site.handle(LIST)).toBeTruthy();
      if (harness.writeOutside) await harness.writeOutside(store, open.id, 'Renamed elsewhere');
      clock.advance(10_000);
      await site.handle(LIST);
      expect(listed).toBe(1);
      clock.advance(25_000);
      const later = await site.handle(LIST);
      expect(listed).toBe(2);
      if (harness.writeOutside) expect(later.body).toContain('Renamed elsewhere');
    });

    // The store answers at the same version with other data, as after SQL run outside siterest: an answer put
    // together from kept event fragments, or a fragment found again under another key, is as old as the data it
    // was built from, and no answer shows data read longer ago than the age limit.
    it('serves nothing read longer ago than its age limit, though answers and fragments are put together again', async () => {
      const open = await store.events.create(event('Open', 1));
      await store.events.create(event('Second', 2));
      const outside = renamedOutside(store.events, open.id);
      try {
        const subscriber = { ...LIST, headers: { 'x-role': 'subscriber' } };
        expect((await site.handle(subscriber)).body).toContain('Open');
        outside.rename();
        clock.advance(20_000);
        // Another caller's list: no answer kept for it, the events' fragments found and kept for anonymous lists.
        expect((await site.handle(LIST)).body).toContain('Open');
        clock.advance(25_000);
        const pageOfOne = await site.handle({ ...LIST, query: 'per_page=1' });
        expect(pageOfOne.body).toContain('Renamed elsewhere');
        const whole = await site.handle(LIST);
        expect(whole.body).toContain('Renamed elsewhere');
        expect(whole.body).not.toContain('"Open"');
      } finally {
        outside.restore();
      }
    });

    // The same with an answer kept whole (no fragments): kept again under its request's key, or as sent, within a
    // second, it is as old as its data, not as that second.
    it('serves nothing read longer ago than its age limit, though kept again under the request or as sent within one second', async () => {
      const open = await store.events.create(event('Open', 1));
      const outside = renamedOutside(store.events, open.id);
      try {
        // Without an authenticate hook, so anonymous answers are kept as sent too.
        const whole = createSite({ store, clock, logger: silentLogger, fragments: false });
        const URL = '/cal/events/v1/events';
        const signedIn = { ...LIST, basePath: '/api', principal: { id: 3, login: 'member', roles: ['subscriber'] } };
        const anonymous = { ...LIST, basePath: '/api' };
        clock.advance(500);
        expect((await whole.handle(signedIn)).body).toContain('Open');
        expect((await whole.handle(anonymous)).body).toContain('Open');
        outside.rename();
        // 29.8 s on, in a new second: the routes' answers are still young enough, and kept again under this second.
        clock.advance(29_800);
        expect((await whole.handle(signedIn)).body).toContain('Open');
        expect((await whole.handle(anonymous)).body).toContain('Open');
        expect((await whole.sentAnswer('GET', URL, {}, '/api'))?.body).toContain('Open');
        // Half a second later, the same second: the data was read 30.3 s ago.
        clock.advance(500);
        expect(await whole.sentAnswer('GET', URL, {}, '/api')).toBeNull();
        expect((await whole.handle(signedIn)).body).toContain('Renamed elsewhere');
        expect((await whole.handle(anonymous)).body).toContain('Renamed elsewhere');
      } finally {
        outside.restore();
      }
    });

    it('ages an answer from before its computation read its data, however long that took', async () => {
      const open = await store.events.create(event('Open', 1));
      // A slow read: it returns five seconds after it read the rows.
      const outside = renamedOutside(store.events, open.id, () => clock.advance(5_000));
      try {
        expect((await site.handle(LIST)).body).toContain('Open');
        outside.rename();
        // 31 s after the rows were read, 26 s after the answer was complete.
        clock.advance(26_000);
        expect((await site.handle(LIST)).body).toContain('Renamed elsewhere');
      } finally {
        outside.restore();
      }
    });

    if (harness.breakCalendarVersion) {
      const breakVersion = harness.breakCalendarVersion;
      it('serves no cached answer after a write whose version advance failed', async () => {
        await store.events.create(event('First', 1));
        expect(JSON.parse((await site.handle(LIST)).body).total).toBe(1);
        const repair = await breakVersion(store);
        try {
          expect(JSON.parse((await site.handle(LIST)).body).total).toBe(1);
          // The write is saved; only its version advance fails.
          await store.events.create(event('Second', 2));
          expect(JSON.parse((await site.handle(LIST)).body).total).toBe(2);
        } finally {
          await repair();
        }
        expect(JSON.parse((await site.handle(LIST)).body).total).toBe(2);
      });
    }
  });
}
