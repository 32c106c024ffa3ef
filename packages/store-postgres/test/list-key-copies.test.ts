import { beforeAll, describe, expect, it } from 'vitest';
import { calendar, type EventQuery } from '@siterest/core';
import { newEvent } from '@siterest/core/testing';
import type { PostgresStore } from '../src/index.js';
import { DATABASE_URL, useSharedSchema, type TestDatabase } from './support/database.js';

/**
 * The list's copies of an event's keys (`events.status` of the post's status; status, start, end and hidden flag in
 * each of its `term_relationships` rows) follow every write, siterest's or not (migration 63): an SQL statement
 * that sets a post to draft or moves an event takes it out of the category and tag lists it no longer belongs to.
 */
// A thousand writers at once queue for each instance's ten connections behind the row locks of a few events: on a
// loaded machine the last of them wait longer than the store's 5 s for a connection, which these tests are not
// about (limits.test.ts tests that wait).
const shared = useSharedSchema('listkeys', { emptiedBeforeEach: true, connectionTimeout: 60_000 });
const { schema } = shared;
const s = `"${schema}"`;
let db: TestDatabase;
let store: PostgresStore;
let other: PostgresStore;
beforeAll(() => void ({ db, store, other } = shared));

const KEYS = `status, start_utc::text AS start_utc, end_utc::text AS end_utc, hide_from_listings AS hidden`;

/** Every copy next to what it copies, in one order: equal when the copies are current. */
async function copiesAndSources() {
  const statuses = await db.admin(`SELECT e.post_id::int AS id, e.status FROM ${s}.events e ORDER BY e.post_id`);
  const postStatuses = await db.admin(`SELECT p.id::int AS id, p.status FROM ${s}.posts p JOIN ${s}.events e ON e.post_id = p.id ORDER BY p.id`);
  // The rows of events (a row of another post copies nothing).
  const termRows = await db.admin(
    `SELECT object_id::int AS id, term_id::int AS term, ${KEYS} FROM ${s}.term_relationships WHERE object_id IN (SELECT post_id FROM ${s}.events) ORDER BY object_id, term_id`,
  );
  const eventKeys = await db.admin(
    `SELECT r.object_id::int AS id, r.term_id::int AS term, e.status, e.start_utc::text AS start_utc, e.end_utc::text AS end_utc, e.hide_from_listings AS hidden
       FROM ${s}.term_relationships r JOIN ${s}.events e ON e.post_id = r.object_id ORDER BY r.object_id, r.term_id`,
  );
  return { statuses, postStatuses, termRows, eventKeys };
}

async function expectCopiesCurrent() {
  const { statuses, postStatuses, termRows, eventKeys } = await copiesAndSources();
  expect(statuses).toEqual(postStatuses);
  expect(termRows).toEqual(eventKeys);
  return { statuses, termRows };
}

const at = (day: number, hour = 10) => `2027-03-${String(10 + day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`;

async function terms(target: PostgresStore) {
  const jazz = await target.terms.create({ taxonomy: calendar.CATEGORY_TAXONOMY, name: 'Jazz', slug: 'jazz', description: '', parentId: 0 });
  const free = await target.terms.create({ taxonomy: calendar.TAG_TAXONOMY, name: 'Free', slug: 'free', description: '', parentId: 0 });
  return { jazz: jazz.id, free: free.id };
}

const ids = async (query: Partial<EventQuery>) =>
  (await store.events.list({ statuses: ['publish'], excludeHidden: true, orderBy: 'start', offset: 0, limit: 50, ...query })).items.map((e) => e.id);

describe('the list keys copied from posts and events', () => {
  it('follow SQL statements made outside siterest, and the category and tag lists with them', async () => {
    const { jazz, free } = await terms(store);
    const [a, b, c] = await Promise.all(
      [1, 2, 3].map((day) => store.events.create(newEvent({ title: `Event ${day}`, startDateUtc: at(day), endDateUtc: at(day, 12), categoryIds: [jazz], tagIds: [free] }))),
    );
    const march = { startsAfter: at(0, 0), endsBefore: at(20, 0) };
    expect(await ids({ categoryIds: [jazz], ...march })).toEqual([a!.id, b!.id, c!.id]);

    // What a WordPress tool or an import does: the post's status in posts alone, an event's dates and flag in events.
    await db.admin(`UPDATE ${s}.posts SET status = 'draft' WHERE id = $1`, [a!.id]);
    await db.admin(`UPDATE ${s}.events SET start_utc = start_utc + interval '40 days', end_utc = end_utc + interval '40 days' WHERE post_id = $1`, [b!.id]);
    await db.admin(`UPDATE ${s}.events SET hide_from_listings = true WHERE post_id = $1`, [c!.id]);
    const { statuses, termRows } = await expectCopiesCurrent();
    expect(statuses.find((row) => row.id === a!.id)?.status).toBe('draft');
    expect(termRows.filter((row) => row.id === b!.id).map((row) => row.start_utc)).toEqual(['2027-04-21 10:00:00', '2027-04-21 10:00:00']);

    expect(await ids({ categoryIds: [jazz], ...march })).toEqual([]);
    expect(await ids({ tagIds: [free], ...march })).toEqual([]);
    expect(await ids({ tagIds: [free], startsAfter: at(0, 0) })).toEqual([b!.id]);
    // The lists without a term filter read `events` itself: they agree.
    expect(await ids({ startsAfter: at(0, 0) })).toEqual([b!.id]);

    // Statements of many rows, and siterest's own writes after them.
    await db.admin(`UPDATE ${s}.posts SET status = 'publish'`);
    await db.admin(`UPDATE ${s}.events SET hide_from_listings = false, start_utc = start_utc - interval '1 hour'`);
    await other.events.update(b!.id, { startDateUtc: at(4), endDateUtc: at(4, 12) });
    await store.events.update(c!.id, { status: 'private' });
    await expectCopiesCurrent();
    expect(await ids({ categoryIds: [jazz], ...march })).toEqual([a!.id, b!.id]);
  });

  it('are taken from the event when a row is added outside siterest, whatever the insert wrote (migration 64)', async () => {
    const { jazz, free } = await terms(store);
    const draft = await store.events.create(newEvent({ title: 'Draft', status: 'draft', startDateUtc: at(1), endDateUtc: at(1, 12) }));
    const moved = await store.events.create(newEvent({ title: 'Moved', startDateUtc: at(2), endDateUtc: at(2, 12) }));
    const post = await db.admin(
      `INSERT INTO ${s}.posts (type, status, title, slug, post_date, post_date_gmt, post_modified, post_modified_gmt)
       VALUES ('post', 'publish', 'A post', 'a-post', '2027-01-01 00:00:00', '2027-01-01 00:00:00', '2027-01-01 00:00:00', '2027-01-01 00:00:00') RETURNING id::int AS id`,
    );
    const postId = post[0]!.id as number;
    const march = { startsAfter: at(0, 0), endsBefore: at(20, 0) };
    // An import filing events under terms, with keys of its own: a draft as published, no dates at all, the wrong
    // type; and one statement of several rows, with a post that is not an event among them.
    await db.admin(
      `INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status, start_utc, end_utc, hide_from_listings)
       VALUES ($1, $3, '${calendar.CATEGORY_TAXONOMY}', 'cal_events', 'publish', NULL, NULL, false),
              ($2, $3, '${calendar.CATEGORY_TAXONOMY}', 'post', 'draft', NULL, NULL, true),
              ($5, $4, '${calendar.TAG_TAXONOMY}', 'anything', 'whatever', NULL, NULL, true)`,
      [draft.id, moved.id, jazz, free, postId],
    );
    await db.admin(`INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status) VALUES ($1, $2, '${calendar.TAG_TAXONOMY}', 'cal_events', 'trash')`, [moved.id, free]);
    await expectCopiesCurrent();
    const types = await db.admin(`SELECT object_id::int AS id, object_type, status FROM ${s}.term_relationships ORDER BY object_id, taxonomy`);
    expect(types).toEqual([
      { id: draft.id, object_type: 'cal_events', status: 'draft' },
      { id: moved.id, object_type: 'cal_events', status: 'publish' },
      { id: moved.id, object_type: 'cal_events', status: 'publish' },
      // Not an event: left as the insert wrote it.
      { id: postId, object_type: 'anything', status: 'whatever' },
    ]);
    expect(await ids({ categoryIds: [jazz], ...march })).toEqual([moved.id]);
    expect(await ids({ tagIds: [free], ...march })).toEqual([moved.id]);
  });

  it.skipIf(!DATABASE_URL)(
    'are read after an event update in flight when a row is added beside it (needs DATABASE_URL: PGlite runs one statement at a time)',
    async () => {
      const { jazz } = await terms(store);
      const event = await store.events.create(newEvent({ startDateUtc: at(1), endDateUtc: at(1, 12) }));
      let inserted: Promise<unknown> | undefined;
      await other.sql.transaction(async (tx) => {
        await tx.query(`UPDATE ${s}.events SET start_utc = $2::timestamp, end_utc = $2::timestamp + interval '2 hours' WHERE post_id = $1`, [event.id, at(5)]);
        // The outside insert starts while the update is not committed: its keys must be the update's, not the ones
        // before it (the update's trigger cannot see the inserted row).
        inserted = db.admin(
          `INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status) VALUES ($1, $2, '${calendar.CATEGORY_TAXONOMY}', 'cal_events', 'publish')`,
          [event.id, jazz],
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      await inserted;
      const { termRows } = await expectCopiesCurrent();
      expect(termRows).toEqual([{ id: event.id, term: jazz, status: 'publish', start_utc: '2027-03-15 10:00:00', end_utc: '2027-03-15 12:00:00', hidden: false }]);
    },
  );

  it('stay current under 1,000 concurrent siterest updates and outside statements on two instances (150 on PGlite)', async () => {
    const { jazz, free } = await terms(store);
    const imported = (await store.terms.create({ taxonomy: calendar.CATEGORY_TAXONOMY, name: 'Imported', slug: 'imported', description: '', parentId: 0 })).id;
    const events: number[] = [];
    for (let i = 0; i < 6; i++) events.push((await store.events.create(newEvent({ startDateUtc: at(i), endDateUtc: at(i, 12), categoryIds: [jazz], tagIds: i % 2 ? [free] : [] }))).id);
    const total = db.kind === 'postgres' ? 1000 : 150;
    const STATUSES = ['publish', 'draft', 'private', 'pending'];
    await Promise.all(
      Array.from({ length: total }, (_, i) => {
        const id = events[i % events.length]!;
        const instance = i % 2 ? other : store;
        switch (i % 5) {
          case 0:
            return instance.events.update(id, { status: STATUSES[i % 4]! });
          case 1:
            return instance.events.update(id, { startDateUtc: at(i % 9), endDateUtc: at(i % 9, 14), hideFromListings: i % 3 === 0 });
          case 2:
            return db.admin(`UPDATE ${s}.posts SET status = $2 WHERE id = $1`, [id, STATUSES[(i + 1) % 4]]);
          case 3:
            return i % 2
              ? db.admin(`UPDATE ${s}.events SET start_utc = $2::timestamp, end_utc = $2::timestamp + interval '1 hour' WHERE post_id = $1`, [id, at(i % 7, 8)])
              : // An outside tool filing the event under a term of its own, with keys it made up, or taking it away.
                db.admin(
                  i % 4
                    ? `INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status) VALUES ($1, $2, '${calendar.CATEGORY_TAXONOMY}', 'cal_events', 'publish') ON CONFLICT DO NOTHING`
                    : `DELETE FROM ${s}.term_relationships WHERE object_id = $1 AND term_id = $2`,
                  [id, imported],
                );
          default:
            return instance.events.update(id, { categoryIds: i % 2 ? [jazz] : [], tagIds: [free] });
        }
      }),
    );
    const { statuses } = await expectCopiesCurrent();
    expect(statuses).toHaveLength(6);
  });

  it('are put right by the migration where outside writes made before it left them behind', async () => {
    const { jazz } = await terms(store);
    const event = await store.events.create(newEvent({ startDateUtc: at(1), endDateUtc: at(1, 12), categoryIds: [jazz] }));
    // The schema as it was before migration 63, with copies an outside write left behind.
    await db.admin(`DROP TRIGGER list_keys_from_posts ON ${s}.posts`);
    await db.admin(`DROP TRIGGER list_keys_to_terms ON ${s}.events`);
    await db.admin(`DROP FUNCTION ${s}.list_keys_from_posts(), ${s}.list_keys_to_terms()`);
    await db.admin(`DELETE FROM ${s}.siterest_migrations WHERE version = 63`);
    await db.admin(`UPDATE ${s}.posts SET status = 'trash' WHERE id = $1`, [event.id]);
    await db.admin(`UPDATE ${s}.events SET end_utc = end_utc + interval '1 day' WHERE post_id = $1`, [event.id]);
    const before = await copiesAndSources();
    expect(before.statuses).not.toEqual(before.postStatuses);
    expect(before.termRows).not.toEqual(before.eventKeys);

    expect(await store.migrate()).toMatchObject({ applied: ['063_list_key_copies'] });
    const { statuses, termRows } = await expectCopiesCurrent();
    expect(statuses).toEqual([{ id: event.id, status: 'trash' }]);
    expect(termRows).toEqual([{ id: event.id, term: jazz, status: 'trash', start_utc: '2027-03-11 10:00:00', end_utc: '2027-03-12 12:00:00', hidden: false }]);
  });
});
