import { beforeAll, describe, expect, it } from 'vitest';
import { createSite, isStoreError, silentLogger, ZERO_DATE, type EventQuery } from '@siterest/core';
import { newEvent, taxonomies } from '@siterest/core/testing';
import { postgresStore, type PostgresStore } from '../src/index.js';
import { migrateSchema } from '../src/migrate.js';
import { MIGRATIONS } from '../src/migrations/index.js';
import { eventListSql } from '../src/repositories/calendar/event-list.js';
import { tablesIn } from '../src/tables.js';
import { dropSchema, uniqueSchema, useSharedSchema, type TestDatabase } from './support/database.js';
import { at, DAY, STATUSES } from './support/windows.js';

/**
 * term_day_counts (migration 071) against the term rows themselves: the table equals a recount after any writes,
 * concurrent ones and other tools' included, and a category or tag list's total taken from it equals a plain count of
 * the events (event-list.test.ts and list-equivalence.test.ts compare the totals over random events and windows).
 */
// A thousand writers at once queue for each instance's ten connections behind the row locks of a few events (see
// event-day-counts.test.ts).
const shared = useSharedSchema('termdaycounts', { emptiedBeforeEach: true, connectionTimeout: 60_000 });
const { schema } = shared;
const s = `"${schema}"`;
let db: TestDatabase;
let store: PostgresStore;
/** A second instance on the same schema, as another process of the app would be. */
let other: PostgresStore;
beforeAll(() => void ({ db, store, other } = shared));

const KEY = `term_id::int AS term, taxonomy, status, hide_from_listings AS hidden, start_day::text AS start_day, end_day::text AS end_day`;

/** The counts table without its emptied rows, and the same grouping counted from the term rows a list can read, in one order. */
async function countsAndRecount(schemaName = s) {
  const counts = await db.admin(`SELECT ${KEY}, n::int AS n FROM ${schemaName}.term_day_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5, 6`);
  const recount = await db.admin(
    `SELECT ${KEY}, n::int AS n FROM (
       SELECT term_id, taxonomy, status, hide_from_listings, start_utc::date AS start_day, end_utc::date AS end_day, count(*) AS n
         FROM ${schemaName}.term_relationships
        WHERE object_type = 'cal_events' AND taxonomy IN ('${taxonomies.category}', '${taxonomies.tag}') AND start_utc IS NOT NULL AND end_utc IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5, 6) r ORDER BY 1, 2, 3, 4, 5, 6`,
  );
  return { counts, recount };
}

/** A term of `taxonomy` made by `instance`, its id. */
const termId = async (instance: PostgresStore, taxonomy: string, slug: string) =>
  (await instance.terms.create({ taxonomy, name: slug, slug, description: '', parentId: 0 })).id;

/** The list's total, and the plain count of its events: those in any of the categories, in its window. */
async function totalAndPlainCount(q: EventQuery) {
  const { total } = await store.events.list(q);
  const [plain] = await db.admin(
    `SELECT count(*)::int AS n FROM ${s}.events e
      WHERE e.status = ANY($1::text[]) AND e.start_utc >= $2 AND e.end_utc <= $3
        AND EXISTS (SELECT 1 FROM ${s}.term_relationships r WHERE r.object_id = e.post_id AND r.taxonomy = '${taxonomies.category}' AND r.term_id = ANY($4::bigint[]))`,
    [q.statuses, q.startsAfter, q.endsBefore, q.categoryIds],
  );
  return { total, plain: plain!.n as number };
}

describe('term_day_counts', () => {
  it('equals a recount after siterest\'s writes and other tools\' inserts, updates and deletes of term rows, events and posts, term deletes and TRUNCATE', async () => {
    const [c1, c2, t1] = [await termId(store, taxonomies.category, 'c1'), await termId(store, taxonomies.category, 'c2'), await termId(other, taxonomies.tag, 't1')];
    const a = await store.events.create(newEvent({ startDateUtc: at(60), endDateUtc: at(120), categoryIds: [c1, c2], tagIds: [t1] }));
    const b = await other.events.create(newEvent({ startDateUtc: at(DAY - 1), endDateUtc: at(3 * DAY), status: 'draft', categoryIds: [c2] }));
    // At ±infinity: days PostgreSQL can still name.
    const c = await store.events.create(newEvent({ startDateUtc: ZERO_DATE, endDateUtc: ZERO_DATE, hideFromListings: true, categoryIds: [c1], tagIds: [t1] }));
    await store.events.update(a.id, { status: 'private', categoryIds: [c2] });
    await other.events.update(b.id, { hideFromListings: true, tagIds: [t1] });
    await store.events.update(c.id, { startDateUtc: at(2 * DAY), endDateUtc: at(2 * DAY - 30) });
    await store.events.update(a.id, { title: 'Only the title' });
    let { counts, recount } = await countsAndRecount();
    expect(counts).toEqual(recount);
    expect(recount.length).toBeGreaterThan(3);

    // Another tool: a row filed by hand (its keys copied from the event, migration 64), a row moved to another term,
    // taxonomy and object, an event moved and a post's status set by SQL (their copies follow, migration 63).
    await db.admin(`INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status) VALUES ($1, $2, $3, 'cal_events', 'publish')`, [
      b.id,
      c1,
      taxonomies.category,
    ]);
    await db.admin(`UPDATE ${s}.term_relationships SET term_id = $1 WHERE object_id = $2 AND term_id = $3`, [c1, a.id, c2]);
    await db.admin(`UPDATE ${s}.term_relationships SET taxonomy = 'other' WHERE object_id = $1 AND term_id = $2`, [b.id, t1]);
    await db.admin(`UPDATE ${s}.term_relationships SET object_id = $1 WHERE object_id = $2 AND term_id = $3`, [b.id, c.id, t1]);
    await db.admin(`UPDATE ${s}.events SET start_utc = start_utc + interval '1 day', end_utc = end_utc + interval '2 days'`);
    await db.admin(`UPDATE ${s}.posts SET status = 'publish' WHERE id = $1`, [b.id]);
    ({ counts, recount } = await countsAndRecount());
    expect(counts).toEqual(recount);
    // A term deleted (its rows by the foreign key's cascade), a post deleted, rows deleted by hand.
    await store.terms.delete(c2);
    await db.admin(`DELETE FROM ${s}.posts WHERE id = $1`, [c.id]);
    await db.admin(`DELETE FROM ${s}.term_relationships WHERE object_id = $1 AND taxonomy = 'other'`, [b.id]);
    ({ counts, recount } = await countsAndRecount());
    expect(counts).toEqual(recount);
    expect(counts.filter((row) => row.term === c2)).toEqual([]);
    await db.admin(`TRUNCATE ${s}.term_relationships`);
    ({ counts, recount } = await countsAndRecount());
    expect(counts).toEqual([]);
  });

  it('stays equal to a recount under 1,000 concurrent term, date, status and hidden-flag writes, creates and deletes on two instances (150 on PGlite)', async () => {
    const instances = [store, other];
    const categories = [await termId(store, taxonomies.category, 'c1'), await termId(store, taxonomies.category, 'c2'), await termId(store, taxonomies.category, 'c3')];
    const tag = await termId(store, taxonomies.tag, 't1');
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await instances[i % 2]!.events.create(newEvent({ startDateUtc: at(i * 90), endDateUtc: at(i * 90 + 60), categoryIds: [categories[i % 3]!] }))).id);
    // Few events over two days, so writers keep meeting on the same counter rows.
    const total = db.kind === 'postgres' ? 1000 : 150;
    const work = Array.from({ length: total }, (_, i) => {
      const instance = instances[i % 2]!;
      const id = ids[i % ids.length]!;
      const minutes = (i * 37) % (2 * DAY);
      switch (i % 7) {
        case 0:
          return instance.events.create(newEvent({ startDateUtc: at(minutes), endDateUtc: at(minutes + 60), status: STATUSES[i % 4], categoryIds: categories.slice(i % 3) }));
        case 1:
          return instance.events.update(id, { categoryIds: categories.slice(i % 3, 1 + ((i >> 3) % 3)), tagIds: i % 14 === 1 ? [tag] : [] });
        case 2:
          return instance.events.update(id, { startDateUtc: at(minutes), endDateUtc: at(minutes + (i % 3) * DAY), status: STATUSES[(i >> 1) % 4] });
        case 3:
          return instance.events.update(id, { hideFromListings: i % 2 === 1 });
        case 4:
          // Another tool filing the event under a category, or taking it out of one, beside siterest's own writes.
          return i % 14 === 4
            ? instance.sql.query(
                `INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status) VALUES ($1, $2, $3, 'cal_events', 'publish') ON CONFLICT DO NOTHING`,
                [id, categories[(i >> 4) % 3], taxonomies.category],
              )
            : instance.sql.query(`DELETE FROM ${s}.term_relationships WHERE object_id = $1 AND term_id = $2`, [id, categories[(i >> 4) % 3]]);
        case 5:
          return instance.sql.query(`UPDATE ${s}.posts SET status = $1 WHERE id = $2`, [STATUSES[(i >> 2) % 4], id]);
        default:
          return instance.sql.query(
            `DELETE FROM ${s}.posts WHERE id IN (SELECT post_id FROM ${s}.events WHERE post_id <> ALL($1::bigint[]) ORDER BY post_id DESC LIMIT 1)`,
            [ids],
          );
      }
    });
    const outcomes = await Promise.allSettled(work);
    // The only refusal allowed is the pool's, when a connection cannot be had in time.
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused.filter((o) => !isStoreError(o.reason, 'unavailable'))).toEqual([]);
    expect(refused.length).toBeLessThan(total / 2);
    const { counts, recount } = await countsAndRecount();
    expect(counts).toEqual(recount);
    expect(recount.length).toBeGreaterThan(3);
  });

  it('counts an event in several of the listed categories once, a deleted category\'s id left in its lists included', async () => {
    const [c1, c2, c3] = [
      await termId(store, taxonomies.category, 'c1'),
      await termId(store, taxonomies.category, 'c2'),
      await termId(store, taxonomies.category, 'c3'),
    ];
    const filed = [[c1], [c1, c2], [c1, c2, c3], [c2, c3], [c3], []];
    for (const [i, categoryIds] of filed.entries()) await store.events.create(newEvent({ startDateUtc: at(i * 60 + 600), endDateUtc: at(i * 60 + 660), categoryIds }));
    const q: EventQuery = {
      statuses: ['publish'],
      excludeHidden: true,
      startsAfter: at(0),
      endsBefore: `${at(DAY).slice(0, 10)} 23:59:59`,
      orderBy: 'start',
      offset: 0,
      limit: 2,
    };
    for (const categoryIds of [[c1, c2], [c1, c2, c3], [c3, c1], [c2, c2, c3]]) {
      const query = { ...q, categoryIds };
      expect(eventListSql({ sql: store.sql, t: tablesIn(schema) }, query).page).toContain('term_day_counts');
      const { total, plain } = await totalAndPlainCount(query);
      expect({ categoryIds, total }).toEqual({ categoryIds, total: plain });
    }
    expect((await totalAndPlainCount({ ...q, categoryIds: [c1, c2, c3] })).total).toBe(5);
    // c2's id stays in its events' lists (migration 70), and its rows leave the counts: the events in c1 and c2 alone
    // are counted once, those in c1, c2 and c3 once.
    await store.terms.delete(c2);
    for (const categoryIds of [[c1, c2], [c1, c2, c3], [c2, c3]]) {
      const { total, plain } = await totalAndPlainCount({ ...q, categoryIds });
      expect({ categoryIds, total }).toEqual({ categoryIds, total: plain });
    }
    expect((await totalAndPlainCount({ ...q, categoryIds: [c2, c3] })).total).toBe(3);
  });

  it('serves the totals of the API\'s own category and tag lists from the term counts, and longer lists plainly', async () => {
    const categories = [];
    for (let i = 0; i < 5; i++) categories.push(await termId(store, taxonomies.category, `c${i}`));
    const tag = await termId(store, taxonomies.tag, 't1');
    const site = createSite({ store, cache: false, logger: silentLogger });
    const list = store.events.list;
    const recorded: EventQuery[] = [];
    store.events.list = async (query: EventQuery) => {
      recorded.push(query);
      return list(query);
    };
    const editor = { id: 1, login: 'editor', roles: ['editor'] };
    const requests = [
      [`categories=${categories[0]}`, undefined],
      [`categories=${categories.slice(0, 2).join(',')}&page=2`, undefined],
      [`tags=${tag}&status=publish,private`, editor],
      [`categories=${categories.slice(0, 4).join(',')}`, undefined],
      [`categories=${categories.join(',')}`, undefined],
    ] as const;
    try {
      for (const [query, principal] of requests) await site.handle({ method: 'GET', path: '/cal/events/v1/events', query, headers: {}, principal });
    } finally {
      store.events.list = list;
    }
    expect(recorded).toHaveLength(requests.length);
    const fromCounts = recorded.map((query) => eventListSql({ sql: store.sql, t: tablesIn(schema) }, query).count.includes('term_day_counts'));
    expect(fromCounts).toEqual([true, true, true, true, false]);
  });

  it('is filled from the term rows in the change that adds it (migration 71), and kept from then on', async () => {
    const schemaName = uniqueSchema('termdaycounts_upgrade');
    const quoted = `"${schemaName}"`;
    const older = postgresStore({ ...db.connection(), schema: schemaName });
    try {
      await migrateSchema(older.sql, tablesIn(schemaName), {}, MIGRATIONS.filter((m) => m.version < 71));
      const [c1, c2, t1] = [await termId(older, taxonomies.category, 'c1'), await termId(older, taxonomies.category, 'c2'), await termId(older, taxonomies.tag, 't1')];
      for (const [i, lists] of [{ categoryIds: [c1, c2], tagIds: [t1] }, { categoryIds: [c1], tagIds: [] }, { categoryIds: [], tagIds: [t1] }].entries()) {
        await older.events.create(newEvent({ startDateUtc: at(i * DAY + 60), endDateUtc: at(i * DAY + 120), ...lists }));
      }
      expect(await migrateSchema(older.sql, tablesIn(schemaName), {}, MIGRATIONS.filter((m) => m.version <= 71))).toEqual({ version: 71, applied: ['071_term_day_counts'] });
      let { counts, recount } = await countsAndRecount(quoted);
      expect(counts).toEqual(recount);
      expect(counts.reduce((sum, row) => sum + Number(row.n), 0)).toBe(5);
      await older.events.create(newEvent({ startDateUtc: at(60), endDateUtc: at(120), categoryIds: [c2] }));
      ({ counts, recount } = await countsAndRecount(quoted));
      expect(counts).toEqual(recount);
      expect(counts.reduce((sum, row) => sum + Number(row.n), 0)).toBe(6);
      const page = await older.events.list({
        statuses: ['publish'],
        categoryIds: [c1, c2],
        startsAfter: at(0),
        endsBefore: `${at(3 * DAY).slice(0, 10)} 23:59:59`,
        orderBy: 'start',
        offset: 0,
        limit: 1,
      });
      expect(page.total).toBe(3);
    } finally {
      await older.close();
      await dropSchema(db, schemaName);
    }
  });
});
