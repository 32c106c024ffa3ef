import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isStoreError, type SiteStore } from '@siterest/core';
import { newAttachment, newEvent, newOrganizer, newVenue, taxonomies } from '@siterest/core/testing';
import { postgresStore, type PostgresStore } from '../src/index.js';
import { atomically, CONFLICT_ATTEMPTS } from '../src/repositories/db.js';
import { isRetryableConflict } from '../src/sql/errors.js';
import { tablesIn } from '../src/tables.js';
import { DATABASE_URL, dropSchema, emptySchema, openTestDatabase, uniqueSchema, type TestDatabase } from './support/database.js';

let db: TestDatabase;
let store: PostgresStore;
const schema = uniqueSchema('tx');

beforeAll(async () => {
  db = await openTestDatabase();
  store = postgresStore({ ...db.connection(), schema });
  await store.migrate();
});

beforeEach(() => emptySchema(db, schema));

afterAll(async () => {
  await store?.close();
  if (db) {
    await dropSchema(db, schema);
    await db.close();
  }
});

const term = (name: string, taxonomy: string = taxonomies.category) => ({ taxonomy, name, slug: name.toLowerCase(), description: '', parentId: 0 });

/** Row counts of every table: "nothing left behind" means these do not move. */
async function footprint(): Promise<Record<string, number>> {
  const tables = ['posts', 'events', 'venues', 'organizers', 'terms', 'term_relationships', 'users', 'options'];
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = Number((await db.admin(`SELECT count(*) AS n FROM "${schema}".${table}`))[0]!.n);
  return out;
}

describe('multi-record writes', () => {
  it('an event with inline venue, organizer and terms that fails midway leaves nothing behind', async () => {
    const music = await store.terms.create(term('Music'));
    await store.users.create({ login: 'taken', email: 't@example.com', displayName: 'T', nicename: 't', url: '', registered: '2026-01-01 00:00:00', roles: [] });
    const before = await footprint();
    const failure = store.transaction(async (tx: SiteStore) => {
      const venue = await tx.venues.create(newVenue({ title: 'Inline hall' }));
      const organizer = await tx.organizers.create(newOrganizer({ title: 'Inline org' }));
      await tx.events.create(newEvent({ venueIds: [venue.id], organizerIds: [organizer.id], categoryIds: [music.id] }));
      await tx.options.set('touched', true);
      // A database-side failure (unique login) after four records were written.
      await tx.users.create({ login: 'TAKEN', email: 'x@example.com', displayName: 'X', nicename: 'x', url: '', registered: '2026-01-01 00:00:00', roles: [] });
    });
    await expect(failure).rejects.toSatisfy((e) => isStoreError(e, 'conflict'));
    expect(await footprint()).toEqual(before);
    expect((await store.terms.get(music.id))?.count).toBe(0);
  });

  it("a failure inside the store's own event transaction (after the post row) rolls the post back too", async () => {
    const music = await store.terms.create(term('Music'));
    const before = await footprint();
    // A trigger refuses the term assignment: the post and event rows are written, then that statement fails.
    await db.admin(`CREATE FUNCTION "${schema}".refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'assignment refused'; END $$`);
    await db.admin(`CREATE TRIGGER refuse BEFORE INSERT ON "${schema}".term_relationships FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse()`);
    try {
      await expect(store.events.create(newEvent({ categoryIds: [music.id] }))).rejects.toThrow(/assignment refused/);
    } finally {
      await db.admin(`DROP FUNCTION "${schema}".refuse() CASCADE`);
    }
    expect(await footprint()).toEqual(before);
    expect((await store.terms.get(music.id))?.count).toBe(0);
  });

  it('nested transactions join the outer one: an inner failure rolls back everything', async () => {
    const before = await footprint();
    await expect(
      store.transaction(async (outer) => {
        await outer.venues.create(newVenue({ title: 'Outer' }));
        await outer.transaction(async (inner) => {
          await inner.venues.create(newVenue({ title: 'Inner' }));
          throw new Error('inner failed');
        });
      }),
    ).rejects.toThrow('inner failed');
    expect(await footprint()).toEqual(before);
  });

  it('answers a conflict still there after every attempt with "unavailable" (a 503), not the driver\'s error (a 500)', async () => {
    let attempts = 0;
    const outcome = await atomically({ sql: store.sql, t: tablesIn(schema) }, async (tx) => {
      attempts++;
      await tx.sql.query('SELECT 1');
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    }).catch((error: unknown) => error);
    expect(attempts).toBe(CONFLICT_ATTEMPTS);
    expect(isStoreError(outcome, 'unavailable')).toBe(true);
    expect(isRetryableConflict(outcome)).toBe(true);
  });

  it.skipIf(!DATABASE_URL)('turns a deadlock into "unavailable" and gives the connection back whole (PostgreSQL server; PGlite runs one transaction at a time)', async () => {
    const [a, b] = await Promise.all([store.venues.create(newVenue({ title: 'A' })), store.venues.create(newVenue({ title: 'B' }))]);
    const table = `"${schema}".venues`;
    let bothLocked!: () => void;
    const locked = new Promise<void>((resolve) => (bothLocked = resolve));
    let count = 0;
    const sessions: number[] = [];
    // Each locks its own row, then waits for the other's: PostgreSQL picks one of them as the victim.
    const crossing = (first: number, second: number) =>
      store.sql.transaction(async (tx) => {
        sessions.push(Number((await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid));
        await tx.query(`UPDATE ${table} SET city = 'first' WHERE post_id = $1`, [first]);
        if (++count === 2) bothLocked();
        await locked;
        await tx.query(`UPDATE ${table} SET city = 'second' WHERE post_id = $1`, [second]);
      });
    const outcomes = await Promise.allSettled([crossing(a.id, b.id), crossing(b.id, a.id)]);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as unknown);
    expect(refused).toHaveLength(1);
    expect(isStoreError(refused[0], 'unavailable')).toBe(true);
    expect(isRetryableConflict(refused[0])).toBe(true);
    // Rolled back, not destroyed: both sessions are still there (a destroyed connection ends its session), and the store goes on.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const alive = await db.admin('SELECT pid FROM pg_stat_activity WHERE pid = ANY($1::int[])', [sessions]);
    expect(alive).toHaveLength(2);
    expect((await store.venues.get(a.id))?.title).toBe('A');
  });

  it('advances the change version after a single write that failed, which may have committed with its answer lost', async () => {
    /** Runs `write` with the answer of each statement whose text has `marker` lost after it ran and committed. */
    const answerLost = async (marker: string, write: () => Promise<unknown>) => {
      const sql = store.sql;
      const query = sql.query;
      sql.query = (async (text: string, ...rest: unknown[]) => {
        const rows = await (query as (...a: unknown[]) => Promise<unknown[]>).call(sql, text, ...rest);
        if (text.includes(marker)) throw new Error('Connection terminated unexpectedly');
        return rows;
      }) as typeof query;
      try {
        await expect(write()).rejects.toThrow('Connection terminated');
      } finally {
        sql.query = query;
      }
    };
    // A tracked repository's write (an option).
    const options = await store.changeVersion(['options']);
    await answerLost('.options (name, value)', () => store.options.set('single_event_slug', 'concerts'));
    expect(await store.options.get('single_event_slug')).toBe('concerts');
    // Without waiting for the failure: the advance comes soon after, and the caches read the new version.
    await expect.poll(() => store.changeVersion(['options']), { timeout: 5_000 }).toBeGreaterThan(options);
    // An attachment's delete, which advances the calendar's version itself (a list shows its image).
    const image = await store.attachments.create(newAttachment());
    const calendar = await store.changeVersion(['calendar']);
    await answerLost("type = 'attachment'", () => store.attachments.delete(image.id));
    expect(await store.attachments.get(image.id)).toBeNull();
    await expect.poll(() => store.changeVersion(['calendar']), { timeout: 5_000 }).toBeGreaterThan(calendar);
  });

  it('keeps term counts exact under concurrent writers (atomic increments)', async () => {
    const music = await store.terms.create(term('Music'));
    const free = await store.terms.create(term('Free', taxonomies.tag));
    const events = await Promise.all(
      Array.from({ length: 24 }, (_, i) => store.events.create(newEvent({ title: `E${i}`, categoryIds: [music.id], tagIds: [free.id] }))),
    );
    expect((await store.terms.getMany([music.id, free.id])).map((t) => t.count)).toEqual([24, 24]);
    await Promise.all(events.slice(0, 10).map((e) => store.events.update(e.id, { status: 'draft' })));
    await Promise.all(events.slice(10, 14).map((e) => store.events.update(e.id, { tagIds: [] })));
    expect((await store.terms.getMany([music.id, free.id])).map((t) => t.count)).toEqual([14, 10]);
    const stored = await db.admin(
      `SELECT t.id, t.count, (SELECT count(*) FROM "${schema}".term_relationships r JOIN "${schema}".events e ON e.post_id = r.object_id
                               WHERE r.term_id = t.id AND e.status = 'publish') AS actual
         FROM "${schema}".terms t ORDER BY t.id`,
    );
    for (const row of stored) expect(Number(row.count)).toBe(Number(row.actual));
  });

  it('keeps the event copy of the status in step with its post', async () => {
    const event = await store.events.create(newEvent({ status: 'draft' }));
    await store.events.update(event.id, { status: 'publish' });
    const [row] = await db.admin(`SELECT p.status AS post, e.status AS event FROM "${schema}".posts p JOIN "${schema}".events e ON e.post_id = p.id`);
    expect(row).toEqual({ post: 'publish', event: 'publish' });
  });

  it('round-trips the zero date and odd characters', async () => {
    const event = await store.events.create(
      newEvent({ title: `100% "quoted" it's_ok \\ ü`, dateGmt: '0000-00-00 00:00:00', startDateUtc: '0000-00-00 00:00:00', endDateUtc: '2027-01-01 00:00:00' }),
    );
    const read = await store.events.get(event.id);
    expect(read).toMatchObject({ title: `100% "quoted" it's_ok \\ ü`, dateGmt: '0000-00-00 00:00:00', startDateUtc: '0000-00-00 00:00:00' });
    const list = (search: string) => store.events.list({ statuses: ['publish'], orderBy: 'start', offset: 0, limit: 10, search });
    expect((await list('100%')).total).toBe(1);
    expect((await list('it_s')).total).toBe(0);
    expect((await list('"s_ok \\"')).total).toBe(1);
  });
});
