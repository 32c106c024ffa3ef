import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, createSite, manualClock, silentLogger, type Site, type SiteStore } from '@siterest/core';
import { basicAuth, rawRequest, type RunningServer } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { postgresStore, type PostgresStore } from '@siterest/store-postgres';
import { serveWithExpress } from '../packages/adapter-express/test/serve.js';
import { dropSchema, openTestDatabase, patientConnection, uniqueSchema, type TestDatabase } from '../packages/store-postgres/test/support/database.js';

/**
 * Many requests at once, over real HTTP, against one instance and against two instances sharing one store (one
 * PostgreSQL schema): counts, unique slugs and names, duplicate avoidance and deletes end exactly as they do
 * when the same requests come one after another, as WordPress's model has them.
 *
 * The stores get generous limits (patientConnection): these tests are about integrity, and a loaded test machine
 * must not turn a slow request into a 503.
 */
/** Opening PGlite alone can take most of a minute on a busy machine. */
const SLOW = 180_000;

interface Setup {
  label: string;
  /** One or two stores on the same data (memory: the same store twice). */
  open(instances: 1 | 2): Promise<SiteStore[]>;
  close(): Promise<void>;
}

function setups(): Setup[] {
  let db: TestDatabase | null = null;
  let schema = '';
  let stores: PostgresStore[] = [];
  return [
    {
      label: 'memory store',
      open: async (instances) => {
        const store = memoryStore();
        return instances === 1 ? [store] : [store, store];
      },
      close: async () => {},
    },
    {
      label: process.env.DATABASE_URL ? 'PostgreSQL store' : 'PostgreSQL store (PGlite)',
      open: async (instances) => {
        db = await openTestDatabase();
        schema = uniqueSchema('race');
        stores = [];
        for (let i = 0; i < instances; i++) {
          const store = postgresStore({ ...patientConnection(db, `siterest-race-${i}`), schema });
          if (i === 0) await store.migrate();
          else await store.init();
          stores.push(store);
        }
        return stores;
      },
      close: async () => {
        for (const store of stores) await store.close();
        if (db) {
          await dropSchema(db, schema);
          await db.close();
        }
        db = null;
      },
    },
  ];
}

interface Answer {
  status: number;
  body: any;
}

const NS = '/cal/events/v1';
const when = { start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 22:00:00' };

describe.each(setups())('concurrent requests ($label)', (setup) => {
  describe.each([1, 2] as const)('on %i instance(s)', (instances) => {
    const servers: RunningServer[] = [];
    let auth = '';
    let site: Site;
    let sites: Site[] = [];
    let calls = 0;

    beforeAll(async () => {
      const stores = await setup.open(instances);
      const clock = manualClock('2026-11-21T16:41:37Z');
      sites = stores.map((store, i) => createSite({ store, clock, logger: silentLogger, settings: { url: `http://instance-${i}.example` } }));
      site = sites[0]!;
      await site.createUser({ login: 'admin', roles: ['administrator'] });
      auth = basicAuth('admin', (await site.createApplicationPassword('admin', 'race')).password);
      for (const each of sites) {
        await each.ready();
        servers.push(await serveWithExpress(each));
      }
    }, SLOW);

    afterAll(async () => {
      for (const server of servers) await server.close();
      servers.length = 0;
      await setup.close();
    }, SLOW);

    /** One request, sent to the instances in turn. */
    const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
      const server = servers[calls++ % servers.length]!;
      const headers: Record<string, string> = { Authorization: auth };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await rawRequest(server.url + NS + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: response.body ? JSON.parse(response.body) : null };
    };
    const all = <T>(n: number, request: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => request(i)));
    const statuses = (answers: Answer[]) => answers.map((a) => `${a.status} ${a.body?.code ?? ''}`.trim());

    it('keeps term counts exact while 100 requests change one event’s category', async () => {
      const a = (await call('POST', '/categories', { name: `Jazz ${instances}` })).body;
      const b = (await call('POST', '/categories', { name: `Blues ${instances}` })).body;
      const event = (await call('POST', '/events', { title: 'Changing', ...when, categories: [a.id] })).body;
      const answers = await all(100, (i) => call('POST', `/events/${event.id}`, { categories: [i % 2 ? a.id : b.id] }));
      expect(new Set(statuses(answers))).toEqual(new Set(['200']));
      const final = (await call('GET', `/events/${event.id}`)).body.categories.map((c: { id: number }) => c.id);
      expect(final).toHaveLength(1);
      const counts = await site.store.terms.getMany([a.id, b.id]);
      expect(counts.map((t) => t.count)).toEqual([final[0] === a.id ? 1 : 0, final[0] === b.id ? 1 : 0]);
    }, SLOW);

    it('gives concurrent library creates of one title distinct slugs and makes one category of one name', async () => {
      // 400 at once on a PostgreSQL server and in memory, 100 on PGlite. With 1,000, each of the two PostgreSQL
      // runs took 100–120 s of a slower CI machine (every create of one title meets most of the others' slugs).
      const n = setup.label === 'PostgreSQL store (PGlite)' ? 100 : 400;
      const title = `Same Title ${instances}`;
      const settled = await Promise.allSettled(
        Array.from({ length: n }, (_, i) => content(sites[i % sites.length]!).createArticle({ title, categories: [`Town ${instances}`] })),
      );
      // A store may refuse what its pool cannot serve in time (`unavailable`, a 503 over HTTP); what it writes stays
      // unique.
      const refused = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as { kind?: string }).kind] : []));
      expect(new Set(refused).size <= 1 && (refused[0] ?? 'unavailable') === 'unavailable').toBe(true);
      const created = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      expect(created.length).toBeGreaterThan(n / 10);
      const slugs = new Set(created.map((record) => record.slug));
      expect(slugs.size).toBe(created.length);
      const stored = await site.store.content.list({ types: ['news'], statuses: 'any', offset: 0, limit: n + 10 });
      expect(stored.items.filter((record) => record.title === title)).toHaveLength(created.length);
      expect(new Set(created.flatMap((record) => record.categoryIds)).size).toBe(1);
    }, SLOW);

    it('creates one tag when 50 requests create the same name; the others get term_exists with its id', async () => {
      const name = `Open air ${instances}`;
      const answers = await all(50, () => call('POST', '/tags', { name }));
      const created = answers.filter((a) => a.status === 201);
      expect(created).toHaveLength(1);
      const id = created[0]!.body.id;
      for (const answer of answers.filter((a) => a.status !== 201)) {
        expect(answer).toEqual({ status: 400, body: expect.objectContaining({ code: 'term_exists', data: { status: 400, term_id: id } }) });
      }
      const tags = (await call('GET', `/tags?hide_empty=false&per_page=50&search=${encodeURIComponent(name)}`)).body.tags;
      expect(tags.map((t: { id: number; slug: string }) => [t.id, t.slug])).toEqual([[id, `open-air-${instances}`]]);
    }, SLOW);

    it('gives 30 events created at once with one title 30 different slugs, as one after another would', async () => {
      const title = `Jazz night ${instances}`;
      const answers = await all(30, () => call('POST', '/events', { title, ...when }));
      expect(new Set(statuses(answers))).toEqual(new Set(['201']));
      const base = `jazz-night-${instances}`;
      const expected = [base, ...Array.from({ length: 29 }, (_, i) => `${base}-${i + 2}`)];
      expect(answers.map((a) => a.body.slug).sort()).toEqual([...expected].sort());
    }, SLOW);

    it('gives 30 events taken out of the trash at once, all wanting one slug, 30 different slugs', async () => {
      const title = `Reunion ${instances}`;
      const created: Array<{ id: number }> = [];
      for (let i = 0; i < 30; i++) created.push((await call('POST', '/events', { title, ...when })).body as { id: number });
      for (const event of created) await call('DELETE', `/events/${event.id}`);
      const answers = await all(30, (i) => call('POST', `/events/${created[i]!.id}`, { status: 'publish' }));
      expect(new Set(statuses(answers))).toEqual(new Set(['200']));
      const base = `reunion-${instances}`;
      const expected = [base, ...Array.from({ length: 29 }, (_, i) => `${base}-${i + 2}`)];
      expect(answers.map((a) => a.body.slug).sort()).toEqual([...expected].sort());
    }, SLOW);

    it('makes one venue for 30 events created at once with the same inline venue', async () => {
      const venue = { venue: `Main hall ${instances}`, city: 'Berlin', address: 'Am Platz 1' };
      const answers = await all(30, (i) => call('POST', '/events', { title: `Concert ${i}`, ...when, venue }));
      expect(new Set(statuses(answers))).toEqual(new Set(['201']));
      const venueIds = new Set(answers.map((a) => a.body.venue.id));
      expect(venueIds.size).toBe(1);
      const venues = (await call('GET', `/venues?per_page=50&search=${encodeURIComponent(venue.venue)}`)).body;
      expect(venues.total).toBe(1);
      expect(venues.venues[0].slug).toBe(`main-hall-${instances}`);
    }, SLOW);

    it('deletes a term once when 50 requests delete it at once; the others get what a later request gets', async () => {
      const term = (await call('POST', '/categories', { name: `Doomed ${instances}` })).body;
      const answers = await all(50, () => call('DELETE', `/categories/${term.id}`));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      const later = await call('DELETE', `/categories/${term.id}`);
      expect(later).toEqual({ status: 400, body: expect.objectContaining({ code: 'rest_invalid_param', data: expect.objectContaining({ params: { id: 'Invalid parameter.' } }) }) });
      for (const answer of answers.filter((a) => a.status !== 200)) expect(answer).toEqual(later);
      expect(await site.store.terms.get(term.id)).toBeNull();
    }, SLOW);
  });
});
