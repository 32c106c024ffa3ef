import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isStoreError, searchTerms, ZERO_DATE, type EventQuery } from '@siterest/core';
import { newEvent, taxonomies } from '@siterest/core/testing';
import { postgresStore, type PostgresStore } from '../src/index.js';
import { migrateSchema } from '../src/migrate.js';
import { MIGRATIONS } from '../src/migrations/index.js';
import { containsPattern } from '../src/sql/like.js';
import { tablesIn } from '../src/tables.js';
import { DATABASE_URL, dropSchema, uniqueSchema, useSharedSchema, type TestDatabase } from './support/database.js';

/**
 * event_search (migration 014) against the events and posts themselves: the table equals a recomputation after any
 * writes, concurrent ones included, and a searched list's total and page equal a plain query with ILIKE on each
 * searched column of `posts`, as the search was written before the table existed.
 */
// A thousand writers at once queue for each instance's ten connections behind the row locks of a few events: on a
// loaded machine the last of them wait longer than the store's 5 s for a connection, which these tests are not
// about (limits.test.ts tests that wait).
const shared = useSharedSchema('eventsearch', { emptiedBeforeEach: true, connectionTimeout: 60_000 });
const { schema } = shared;
const s = `"${schema}"`;
let db: TestDatabase;
let store: PostgresStore;
/** A second instance on the same schema, as another process of the app would be. */
let other: PostgresStore;
beforeAll(() => void ({ db, store, other } = shared));


const COLUMNS = `post_id::int AS id, status, hide_from_listings AS hidden, start_utc::text AS start_utc, end_utc::text AS end_utc, body`;
/** The category and tag ids (migration 70), as text. */
const LISTS = `category_ids::text AS categories, tag_ids::text AS tags`;
/**
 * The same, of terms that exist: a deleted term's id stays in its events' lists (migration 70), where no list asks
 * for it.
 */
const listsOfTerms = (schema: string) => {
  const existing = (column: string) => `ARRAY(SELECT x FROM unnest(${column}) x WHERE EXISTS (SELECT 1 FROM ${schema}.terms t WHERE t.id = x) ORDER BY x)::text`;
  return `${existing('category_ids')} AS categories, ${existing('tag_ids')} AS tags`;
};

/** The table, and the same rows computed from `events`, `posts` and `term_relationships`, in one order. */
async function rowsAndRecomputed(schema = s, withLists = true) {
  const columns = withLists ? `${COLUMNS}, ${LISTS}` : COLUMNS;
  const ids = (taxonomy: string) =>
    `ARRAY(SELECT t.term_id FROM ${schema}.term_relationships t WHERE t.object_id = e.post_id AND t.taxonomy = '${taxonomy}' ORDER BY t.term_id)`;
  const rows = await db.admin(`SELECT ${withLists ? `${COLUMNS}, ${listsOfTerms(schema)}` : COLUMNS} FROM ${schema}.event_search ORDER BY post_id`);
  const recomputed = await db.admin(
    `SELECT ${columns} FROM (SELECT e.post_id, e.status, e.hide_from_listings, e.start_utc, e.end_utc,
            lower(p.title) || ' ' || lower(p.content) || ' ' || lower(p.excerpt) AS body,
            ${ids(taxonomies.category)} AS category_ids, ${ids(taxonomies.tag)} AS tag_ids
       FROM ${schema}.events e JOIN ${schema}.posts p ON p.id = e.post_id) r ORDER BY post_id`,
  );
  return { rows, recomputed };
}

/**
 * Each row's partition (migration 67) and the one its start's quarter names: the quarter modulo 32, as computed
 * here from the start, or "other" for an event ending before it starts or starting at ±infinity.
 */
async function partitions(schema = s) {
  const rows = await db.admin(
    `SELECT post_id::int AS id, tableoid::regclass::text AS actual,
            CASE WHEN end_utc < start_utc OR NOT isfinite(start_utc) THEN 'other'
                 ELSE 'q' || (((extract(year FROM start_utc)::int * 4 + (extract(month FROM start_utc)::int - 1) / 3) % 32 + 32) % 32) END AS quarter
       FROM ${schema}.event_search ORDER BY post_id`,
  );
  return rows.map((row) => ({ id: row.id, partition: String(row.actual).replace(/^.*\./, '').replace(/"/g, ''), expected: `event_search_${String(row.quarter)}` }));
}

const STATUSES = ['publish', 'draft', 'private', 'trash'] as const;
/** A term of `taxonomy` made by `instance`, its id. */
const termId = async (instance: PostgresStore, taxonomy: string, slug: string) =>
  (await instance.terms.create({ taxonomy, name: slug, slug, description: '', parentId: 0 })).id;
/** Days (and hours) from 2026-01-01 00:00 UTC as a WordPress UTC instant. */
const inDays = (days: number, hours = 0) => new Date(Date.UTC(2026, 0, 1) + (days * 24 + hours) * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
const at = (day: number, hour = 10) => `2027-03-${String(10 + day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`;

describe('event_search', () => {
  it('equals a recomputation after creates, updates of every key, of the text and of the terms, deletes and TRUNCATE', async () => {
    const [c1, c2, t1] = [await termId(store, taxonomies.category, 'c1'), await termId(store, taxonomies.category, 'c2'), await termId(store, taxonomies.tag, 't1')];
    const a = await store.events.create(newEvent({ title: 'Jazz Night', startDateUtc: at(1), endDateUtc: at(1, 12), categoryIds: [c2, c1], tagIds: [t1] }));
    const b = await other.events.create(newEvent({ title: 'Rock', content: 'Loud <b>MUSIC</b>', excerpt: 'Ünïcode', status: 'draft', startDateUtc: at(2) }));
    expect(await db.admin(`SELECT ${LISTS} FROM ${s}.event_search WHERE post_id = $1`, [a.id])).toEqual([{ categories: `{${Math.min(c1, c2)},${Math.max(c1, c2)}}`, tags: `{${t1}}` }]);
    await store.events.update(a.id, { status: 'private', hideFromListings: true });
    await other.events.update(a.id, { startDateUtc: at(5), endDateUtc: at(4), tagIds: [] });
    await store.events.update(b.id, { title: 'Rock Night', content: 'Quiet', excerpt: '', categoryIds: [c1] });
    await store.events.update(b.id, { featured: true });
    let { rows, recomputed } = await rowsAndRecomputed();
    expect(rows).toEqual(recomputed);
    expect(rows).toHaveLength(2);

    // Term rows written by another tool: added, moved to another term or object, removed with their term.
    await db.admin(
      `INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status) VALUES ($1, $2, $3, 'cal_events', 'draft'), ($1, $4, $5, 'cal_events', 'draft')`,
      [b.id, t1, taxonomies.tag, c2, taxonomies.category],
    );
    await db.admin(`UPDATE ${s}.term_relationships SET term_id = $1, taxonomy = $2 WHERE object_id = $3 AND term_id = $4`, [t1, taxonomies.tag, a.id, c1]);
    await db.admin(`UPDATE ${s}.term_relationships SET object_id = $1 WHERE object_id = $2 AND term_id = $3`, [a.id, b.id, c1]);
    ({ rows, recomputed } = await rowsAndRecomputed());
    expect(rows).toEqual(recomputed);
    expect(rows.map((row) => [row.categories, row.tags])).toEqual([[`{${c1},${c2}}`, `{${t1}}`], [`{${c2}}`, `{${t1}}`]]);
    // A term deleted leaves its id in its events' rows, which it does not rewrite: no list asks for the id any more, and
    // a term given it again has the rows read again.
    const before = await db.admin(`SELECT post_id::int AS id, ctid::text AS at, ${LISTS} FROM ${s}.event_search ORDER BY post_id`);
    await store.terms.delete(c2);
    expect(await db.admin(`SELECT post_id::int AS id, ctid::text AS at, ${LISTS} FROM ${s}.event_search ORDER BY post_id`)).toEqual(before);
    ({ rows, recomputed } = await rowsAndRecomputed());
    expect(rows).toEqual(recomputed);
    expect(rows.map((row) => row.categories)).toEqual([`{${c1}}`, '{}']);
    const inC2 = { statuses: 'any', search: 'night', categoryIds: [c2], orderBy: 'start', offset: 0, limit: 10 } as const;
    expect(await store.events.list(inC2)).toEqual({ items: [], total: 0 });
    expect(await store.events.list({ ...inC2, search: undefined, tagIds: [t1] })).toEqual({ items: [], total: 0 });
    await db.admin(`INSERT INTO ${s}.terms (id, taxonomy, name, slug) VALUES ($1, $2, 'again', 'again')`, [c2, taxonomies.category]);
    expect((await db.admin(`SELECT ${LISTS} FROM ${s}.event_search ORDER BY post_id`)).map((row) => row.categories)).toEqual([`{${c1}}`, '{}']);
    expect(await store.events.list(inC2)).toEqual({ items: [], total: 0 });
    await db.admin(`TRUNCATE ${s}.term_relationships`);
    ({ rows, recomputed } = await rowsAndRecomputed());
    expect(rows).toEqual(recomputed);
    expect(rows.map((row) => [row.categories, row.tags])).toEqual([['{}', '{}'], ['{}', '{}']]);
    await store.events.update(a.id, { categoryIds: [c1] });

    // Statements of many rows, written as a migration or an import would.
    await db.admin(`UPDATE ${s}.events SET start_utc = start_utc + interval '1 day', status = 'publish'`);
    await db.admin(`UPDATE ${s}.posts SET title = upper(title) || ' Extra', slug = slug || '-x'`);
    await store.events.create(newEvent({ title: 'Third' }));
    await db.admin(`DELETE FROM ${s}.posts WHERE id = $1`, [b.id]);
    ({ rows, recomputed } = await rowsAndRecomputed());
    expect(rows).toEqual(recomputed);
    expect(rows).toHaveLength(2);
    for (const row of await partitions()) expect(row.partition).toBe(row.expected);
    await db.admin(`TRUNCATE ${s}.events`);
    ({ rows, recomputed } = await rowsAndRecomputed());
    expect(rows).toEqual([]);
  });

  it('stays equal to a recomputation under 1,000 concurrent text, key, status and term changes, creates and deletes on two instances (150 on PGlite)', async () => {
    const instances = [store, other];
    const categories = [await termId(store, taxonomies.category, 'c1'), await termId(store, taxonomies.category, 'c2'), await termId(store, taxonomies.category, 'c3')];
    const tag = await termId(store, taxonomies.tag, 't1');
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await instances[i % 2]!.events.create(newEvent({ title: `Event ${i}`, startDateUtc: at(i % 5) }))).id);
    // Few events, so writers of the text and of the keys keep meeting on the same rows.
    const total = db.kind === 'postgres' ? 1000 : 150;
    const work = Array.from({ length: total }, (_, i) => {
      const instance = instances[i % 2]!;
      const id = ids[i % ids.length]!;
      switch (i % 8) {
        case 0:
          return instance.events.update(id, { title: `Title ${i}`, content: `Content ${i % 7}` });
        case 1:
          return instance.events.update(id, { status: STATUSES[(i >> 1) % 4], startDateUtc: at(i % 9), endDateUtc: at(i % 9, 14) });
        case 2:
          return instance.events.update(id, { excerpt: `Excerpt ${i}`, hideFromListings: i % 4 === 2 });
        case 3:
          return instance.events.create(newEvent({ title: `New ${i}`, startDateUtc: at(i % 7) }));
        case 4:
          return instance.sql.query(`UPDATE ${s}.posts SET content = content || ' more' WHERE id = ANY($1::bigint[])`, [[id]]);
        case 5:
          return instance.events.update(id, { categoryIds: categories.slice(i % 3, 1 + ((i >> 3) % 3)), tagIds: i % 16 === 5 ? [tag] : [] });
        case 6:
          // Another tool filing the event under a category, or taking it out of one, beside siterest's own writes.
          return i % 16 === 6
            ? instance.sql.query(
                `INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status) VALUES ($1, $2, $3, 'cal_events', 'publish') ON CONFLICT DO NOTHING`,
                [id, categories[(i >> 4) % 3], taxonomies.category],
              )
            : instance.sql.query(`DELETE FROM ${s}.term_relationships WHERE object_id = $1 AND term_id = $2`, [id, categories[(i >> 4) % 3]]);
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
    const { rows, recomputed } = await rowsAndRecomputed();
    expect(rows).toEqual(recomputed);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of await partitions()) expect(row.partition).toBe(row.expected);
  });

  it.skipIf(!DATABASE_URL)(
    'keeps both categories of two transactions filing one event at once, the second started while the first is open (needs a PostgreSQL server: PGlite runs one transaction at a time)',
    async () => {
      const [c1, c2] = [await termId(store, taxonomies.category, 'c1'), await termId(store, taxonomies.category, 'c2')];
      const event = await store.events.create(newEvent({ title: 'Filed twice' }));
      const file = (category: number) => (tx: unknown) =>
        (tx as PostgresStore).sql.query(
          `INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status) VALUES ($1, $2, $3, 'cal_events', 'publish')`,
          [event.id, category, taxonomies.category],
        );
      let commit!: () => void;
      const committing = new Promise<void>((resolve) => (commit = resolve));
      let filed!: () => void;
      const wasFiled = new Promise<void>((resolve) => (filed = resolve));
      // The first holds its transaction open once its row and its trigger's write are in.
      const first = store.transaction(async (tx) => {
        await file(c1)(tx);
        filed();
        await committing;
      });
      await wasFiled;
      const second = other.transaction(file(c2));
      // The second waits on a lock the first holds (the event's post, or its event_search row without that lock).
      for (let waited = 0; ; waited += 20) {
        const waiting = await db.admin(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%term_relationships%'`);
        if (waiting.length) break;
        if (waited > 10_000) throw new Error('The second transaction never waited for the first.');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      commit();
      await Promise.all([first, second]);
      expect(await db.admin(`SELECT ${LISTS} FROM ${s}.event_search WHERE post_id = $1`, [event.id])).toEqual([
        { categories: `{${Math.min(c1, c2)},${Math.max(c1, c2)}}`, tags: '{}' },
      ]);
      const { rows, recomputed } = await rowsAndRecomputed();
      expect(rows).toEqual(recomputed);
    },
  );

  it('moves rows between quarter partitions under 1,000 concurrent writers of the same events on two instances (150 on PGlite), losing none', async () => {
    const instances = [store, other];
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await store.events.create(newEvent({ title: `Moving ${i}`, startDateUtc: at(i) }))).id);
    // Starts in three quarters in turn, with text and status changes of the same rows between them: a row another
    // writer just moved to another partition is found again (PostgreSQL's serialization failure, run again).
    const starts = ['2027-02-10 10:00:00', '2027-08-10 10:00:00', '2028-11-10 10:00:00'];
    const total = db.kind === 'postgres' ? 1000 : 150;
    const outcomes = await Promise.allSettled(
      Array.from({ length: total }, (_, i) => {
        const instance = instances[i % 2]!;
        const id = ids[i % ids.length]!;
        if (i % 3 === 2) return instance.events.update(id, { title: `Moved ${i}`, status: STATUSES[i % 4] });
        const start = starts[(i >> 1) % starts.length]!;
        return instance.events.update(id, { startDateUtc: start, endDateUtc: start.replace('10:00', '12:00') });
      }),
    );
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused.filter((o) => !isStoreError(o.reason, 'unavailable'))).toEqual([]);
    expect(refused.length).toBeLessThan(total / 2);
    const { rows, recomputed } = await rowsAndRecomputed();
    expect(rows).toEqual(recomputed);
    expect(rows).toHaveLength(6);
    const placed = await partitions();
    for (const row of placed) expect(row.partition).toBe(row.expected);
    // The rows ended up spread over the quarters, not all in one.
    expect(new Set(placed.map((row) => row.partition)).size).toBeGreaterThan(1);
  });

  it('keeps every row through the change to one partition per quarter (migration 67), each in its own, and moves it with its start', async () => {
    const schema = uniqueSchema('eventsearch_upgrade');
    const quoted = `"${schema}"`;
    const older = postgresStore({ ...db.connection(), schema });
    try {
      // The schema as version 66 left it, with events in several quarters, one ending before it starts, one at the zero date.
      await migrateSchema(older.sql, tablesIn(schema), {}, MIGRATIONS.filter((m) => m.version < 67));
      expect(await db.admin(`SELECT relkind::text AS kind FROM pg_class WHERE oid = '${quoted}.event_search'::regclass`)).toEqual([{ kind: 'r' }]);
      const created = [];
      for (const [startDateUtc, endDateUtc] of [
        [at(1), at(1, 12)],
        ['2027-07-01 00:00:00', '2027-07-01 02:00:00'],
        ['2031-12-31 23:00:00', '2032-01-01 01:00:00'],
        ['2030-01-01 10:00:00', '2029-01-01 10:00:00'],
        [ZERO_DATE, ZERO_DATE],
      ] as const) {
        created.push(await older.events.create(newEvent({ title: `Jazz ${startDateUtc}`, content: 'Night <b>MUSIC</b>', startDateUtc, endDateUtc })));
      }
      const before = await rowsAndRecomputed(quoted, false);
      expect(before.rows).toHaveLength(5);

      expect(await migrateSchema(older.sql, tablesIn(schema), {}, MIGRATIONS.filter((m) => m.version <= 67))).toEqual({ version: 67, applied: ['067_event_search_by_quarter'] });
      expect(await db.admin(`SELECT relkind::text AS kind FROM pg_class WHERE oid = '${quoted}.event_search'::regclass`)).toEqual([{ kind: 'p' }]);
      const after = await rowsAndRecomputed(quoted, false);
      expect(after.rows).toEqual(before.rows);
      expect(after.rows).toEqual(after.recomputed);
      const placed = await partitions(quoted);
      // 2027 Q1 and Q3: (2027 * 4 + 0) % 32 = 12 and 14; 2031 Q4: 31.
      expect(placed.map((row) => row.partition)).toEqual(['event_search_q12', 'event_search_q14', 'event_search_q31', 'event_search_other', 'event_search_other']);
      for (const row of placed) expect(row.partition).toBe(row.expected);

      // A new start in another quarter moves the row to that quarter's partition; the searches find it there.
      await older.events.update(created[0]!.id, { startDateUtc: '2028-10-05 10:00:00', endDateUtc: '2028-10-05 12:00:00' });
      expect((await partitions(quoted))[0]).toEqual({ id: created[0]!.id, partition: 'event_search_q19', expected: 'event_search_q19' });
      const moved = await rowsAndRecomputed(quoted, false);
      expect(moved.rows).toHaveLength(5);
      expect(moved.rows).toEqual(moved.recomputed);
      const found = await older.events.list({ statuses: ['publish'], search: 'jazz', orderBy: 'start', offset: 0, limit: 10, startsAfter: '2028-10-01 00:00:00', startsBefore: '2028-12-31 00:00:00' });
      expect({ total: found.total, ids: found.items.map((e) => e.id) }).toEqual({ total: 1, ids: [created[0]!.id] });
      // A bucket set by hand to another quarter is refused: every row stays in the partition its start names.
      await expect(db.admin(`UPDATE ${quoted}.event_search SET bucket = 3 WHERE post_id = $1`, [created[1]!.id])).rejects.toThrow(/check constraint/);
    } finally {
      await older.close();
      await dropSchema(db, schema);
    }
  });

  it('fills the category and tag lists from the term rows in the change that adds them (migration 70), keeping the search counts and their triggers', async () => {
    const schema = uniqueSchema('eventsearch_terms');
    const quoted = `"${schema}"`;
    const older = postgresStore({ ...db.connection(), schema });
    try {
      await migrateSchema(older.sql, tablesIn(schema), {}, MIGRATIONS.filter((m) => m.version < 70));
      // A counted search from the start, so the counts triggers hold every event's match.
      await db.admin(`INSERT INTO ${quoted}.event_counted_searches (key, patterns, excluded, ready) VALUES ('+jazz', '{%jazz%}', '{}', true)`);
      const [c1, c2, t1] = [await termId(older, taxonomies.category, 'c1'), await termId(older, taxonomies.category, 'c2'), await termId(older, taxonomies.tag, 't1')];
      const filed = [
        { categoryIds: [c2, c1], tagIds: [t1] },
        { categoryIds: [c1], tagIds: [] },
        { categoryIds: [], tagIds: [t1] },
        { categoryIds: [], tagIds: [] },
      ];
      for (const [i, lists] of filed.entries()) {
        await older.events.create(newEvent({ title: `Jazz ${i}`, startDateUtc: at(i), endDateUtc: i === 3 ? at(0) : at(i, 12), ...lists }));
      }
      const counts = () => db.admin(`SELECT status, start_day::text AS day, end_day::text AS end, n FROM ${quoted}.event_search_counts WHERE n <> 0 ORDER BY 1, 2, 3`);
      const countsBefore = await counts();
      expect(countsBefore.reduce((sum, row) => sum + Number(row.n), 0)).toBe(4);
      const before = await rowsAndRecomputed(quoted, false);

      expect(await migrateSchema(older.sql, tablesIn(schema), {}, MIGRATIONS.filter((m) => m.version <= 70))).toEqual({ version: 70, applied: ['070_event_search_terms'] });
      const after = await rowsAndRecomputed(quoted);
      expect(after.rows).toEqual(after.recomputed);
      expect(after.rows.map(({ categories, tags, ...rest }) => rest)).toEqual(before.rows);
      const low = Math.min(c1, c2);
      expect(after.rows.map((row) => [row.categories, row.tags])).toEqual([[`{${low},${low === c1 ? c2 : c1}}`, `{${t1}}`], [`{${c1}}`, '{}'], ['{}', `{${t1}}`], ['{}', '{}']]);
      // The counts were neither lost nor counted twice, and their triggers count again.
      expect(await counts()).toEqual(countsBefore);
      await older.events.create(newEvent({ title: 'Jazz again', startDateUtc: at(1), endDateUtc: at(1, 12), categoryIds: [c1] }));
      expect((await counts()).reduce((sum, row) => sum + Number(row.n), 0)).toBe(5);
      // A search within a category and a tag reads the lists, from the one index over text and lists.
      const found = await older.events.list({ statuses: ['publish'], search: 'jazz', categoryIds: [c1], tagIds: [t1], orderBy: 'start', offset: 0, limit: 10 });
      expect(found.items.map((e) => e.title)).toEqual(['Jazz 0']);
      const indexes = await db.admin(`SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'event_search' AND indexname = 'event_search_match'`, [schema]);
      expect(indexes.map((row) => String(row.indexdef).replace(/\S+\.gin_trgm_ops/, 'gin_trgm_ops'))).toEqual([
        `CREATE INDEX event_search_match ON ONLY ${schema}.event_search USING gin (body gin_trgm_ops, category_ids, tag_ids) WITH (fastupdate=off)`,
      ]);
    } finally {
      await older.close();
      await dropSchema(db, schema);
    }
  });

  it('finds a phrase with a space only within one column, never across the spaces that join them', async () => {
    const a = await store.events.create(newEvent({ title: 'Late jazz', content: 'Night music', excerpt: 'x' }));
    const b = await store.events.create(newEvent({ title: 'Jazz night', content: '', excerpt: '' }));
    // No space in any column: only the joining spaces could match a search for one.
    await store.events.create(newEvent({ title: 'Solo', content: 'Word', excerpt: '' }));
    const list = async (search: string) => (await store.events.list({ statuses: ['publish'], search, orderBy: 'start', offset: 0, limit: 10 })).items.map((e) => e.id).sort();
    expect(await list('"jazz night"')).toEqual([b.id]);
    expect(await list('jazz night')).toEqual([a.id, b.id].sort());
    expect(await list('"music x"')).toEqual([]);
    expect(await list('night -late')).toEqual([b.id]);
    expect(await list(' ')).toEqual([a.id, b.id].sort());
  });

  it('reads every quarter of the window, its edges and the events that end before they start', async () => {
    const jazz = (startDateUtc: string, endDateUtc = startDateUtc) => store.events.create(newEvent({ title: 'Jazz', startDateUtc, endDateUtc }));
    const first = await jazz('2027-02-15 00:00:00');
    const last = await jazz('2029-05-20 22:00:00', '2029-05-20 23:00:00');
    const reversed = await jazz('2031-01-01 10:00:00', '2029-01-01 10:00:00');
    await jazz('2027-02-14 23:59:59');
    // Eight years later: the same quarter bucket as the first, outside the window.
    await jazz('2035-02-15 00:00:00');
    await jazz(ZERO_DATE);
    const list = async (q: Partial<EventQuery>) => {
      const page = await store.events.list({ statuses: ['publish'], search: 'jazz', orderBy: 'start', offset: 0, limit: 10, startsAfter: '2027-02-15 00:00:00', ...q });
      return { total: page.total, ids: page.items.map((e) => e.id) };
    };
    expect(await list({ endsBefore: '2029-05-20 23:59:59' })).toEqual({ total: 3, ids: [first.id, last.id, reversed.id] });
    expect(await list({ startsBefore: '2029-05-20 22:00:00' })).toEqual({ total: 2, ids: [first.id, last.id] });
    expect(await list({ startsBefore: '2031-01-01 10:00:00', endsBefore: '2029-05-20 23:00:00' })).toEqual({ total: 3, ids: [first.id, last.id, reversed.id] });
    expect((await list({ startsAfter: undefined })).total).toBe(6);
  });

  it('gives searched lists the total and page of a plain ILIKE on each column, over random texts, searches and terms', async () => {
    // Texts of a few pieces, so random searches find something: upper case, the joining space, LIKE's wildcards and
    // escape, letters beyond ASCII. A phrase with a space is the one kind of term the joined text alone cannot decide.
    const piece = fc.constantFrom('Jazz', 'night', ' ', 'é%', 'a_b', 'x\\y', 'É');
    const text = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''));
    const word = fc.constantFrom('jazz', 'NIGHT', 'zz', 'é%', '%', 'a_b', '_', 'x\\', 'é', 'ght');
    const search = fc.oneof(
      { arbitrary: fc.array(word, { minLength: 1, maxLength: 2 }).map((words) => words.join(' ')), weight: 3 },
      { arbitrary: fc.tuple(word, word).map(([x, y]) => `"${x} ${y}"`), weight: 2 },
      fc.tuple(word, word).map(([x, y]) => `${x} -${y}`),
      text,
    );
    // Starts over eleven years (more than the table's eight-year cycle of quarter buckets), some at the zero date, some
    // ending before they start; days near the quarters' edges, where bounds and starts meet in one quarter.
    const day = fc.tuple(fc.integer({ min: 0, max: 43 }), fc.constantFrom(0, 1, 45, 89, 90)).map(([quarter, days]) => quarter * 91 + days);
    const event = fc.record({
      title: text,
      content: text,
      excerpt: text,
      start: fc.option(day, { nil: null, freq: 8 }),
      duration: fc.integer({ min: -200, max: 200 }),
      status: fc.constantFrom('publish', 'publish', ...STATUSES),
      hidden: fc.constantFrom(false, false, false, true),
      // Indexes into the three categories and two tags made below.
      categories: fc.subarray([0, 1, 2]),
      tags: fc.subarray([0, 1]),
    });
    /** A window from a start bound (or none), closed by the start, the end or both, up to twelve quarters later. */
    const span = fc.option(fc.integer({ min: -10, max: 12 * 91 }), { nil: undefined, freq: 3 });
    const window = fc.record({ from: fc.option(day, { nil: undefined, freq: 4 }), starts: span, ends: span, endsAfter: span }).map(({ from, starts, ends, endsAfter }) => {
      const base = from ?? 20 * 91;
      const later = (days: number | undefined, hours: number) => (days === undefined ? undefined : inDays(base + days, hours));
      return { startsAfter: later(from === undefined ? undefined : 0, 0), startsBefore: later(starts, 23), endsAfter: later(endsAfter === undefined ? undefined : endsAfter - 100, 0), endsBefore: later(ends, 23) };
    });
    const query = fc.record({
      window,
      search,
      statuses: fc.constantFrom<EventQuery['statuses']>(['publish'], ['publish', 'private'], 'any'),
      excludeHidden: fc.boolean(),
      orderBy: fc.constantFrom<EventQuery['orderBy']>('start', 'date'),
      offset: fc.integer({ min: 0, max: 4 }),
      limit: fc.integer({ min: 1, max: 5 }),
      categories: fc.option(fc.subarray([0, 1, 2], { minLength: 1 }), { nil: undefined }),
      tags: fc.option(fc.subarray([0, 1], { minLength: 1 }), { nil: undefined }),
    });
    const categories = [await termId(store, taxonomies.category, 'c0'), await termId(store, taxonomies.category, 'c1'), await termId(store, taxonomies.category, 'c2')];
    const tags = [await termId(store, taxonomies.tag, 't0'), await termId(store, taxonomies.tag, 't1')];
    await fc.assert(
      fc.asyncProperty(fc.array(event, { minLength: 10, maxLength: 40 }), fc.array(query, { minLength: 1, maxLength: 10 }), async (events, queries) => {
        await db.admin(`DELETE FROM ${s}.posts`);
        for (const e of events) {
          const start = e.start === null ? ZERO_DATE : inDays(e.start);
          const end = e.start === null ? ZERO_DATE : inDays(e.start + e.duration);
          const created = await store.events.create(
            newEvent({ title: e.title, content: e.content, excerpt: e.excerpt, startDateUtc: start, endDateUtc: end, status: e.status, hideFromListings: e.hidden }),
          );
          // Given after the event, as an update of its terms: the lists reach event_search by the term rows' trigger.
          await store.events.update(created.id, { categoryIds: e.categories.map((i) => categories[i]!), tagIds: e.tags.map((i) => tags[i]!) });
        }
        for (const { window: bounds, categories: inCategories, tags: inTags, ...rest } of queries) {
          const q: EventQuery = { ...rest, ...bounds, categoryIds: inCategories?.map((i) => categories[i]!), tagIds: inTags?.map((i) => tags[i]!) };
          const { total, items } = await store.events.list(q);
          // Each term in one of the columns (or, excluded, in none), as ILIKE on the columns themselves decides.
          const terms = searchTerms(q.search!).filter((term) => !term.text.includes('\u0000'));
          const conditions = terms.map((term, i) => `${term.exclude ? 'NOT ' : ''}(p.title ILIKE $${i + 11} OR p.content ILIKE $${i + 11} OR p.excerpt ILIKE $${i + 11})`);
          const inTerms = (list: string, taxonomy: string) =>
            `AND (${list}::bigint[] IS NULL OR EXISTS (SELECT 1 FROM ${s}.term_relationships r WHERE r.object_id = e.post_id AND r.taxonomy = '${taxonomy}' AND r.term_id = ANY(${list}::bigint[])))`;
          const key = q.orderBy === 'date' ? 'p.post_date' : 'e.start_utc';
          const matching = `(SELECT e.post_id::int AS id, ${key} AS k FROM ${s}.events e JOIN ${s}.posts p ON p.id = e.post_id
              WHERE CASE WHEN $1::text[] IS NULL THEN e.status NOT IN ('trash', 'auto-draft') ELSE e.status = ANY($1::text[]) END
                AND NOT ($2::boolean AND e.hide_from_listings) AND ($3::timestamp IS NULL OR e.start_utc >= $3)
                AND ($6::timestamp IS NULL OR e.start_utc <= $6) AND ($7::timestamp IS NULL OR e.end_utc >= $7) AND ($8::timestamp IS NULL OR e.end_utc <= $8)
                ${inTerms('$9', taxonomies.category)} ${inTerms('$10', taxonomies.tag)}
                ${conditions.map((c) => `AND ${c}`).join(' ')}) m`;
          const [plain] = await db.admin(
            `SELECT count(*)::int AS n, COALESCE((SELECT array_agg(id ORDER BY k, id) FROM (SELECT id, k FROM ${matching} ORDER BY k, id LIMIT $5 OFFSET $4) page), '{}') AS ids
               FROM ${matching}`,
            [
              q.statuses === 'any' ? null : q.statuses, q.excludeHidden, q.startsAfter ?? null, q.offset, q.limit,
              q.startsBefore ?? null, q.endsAfter ?? null, q.endsBefore ?? null, q.categoryIds ?? null, q.tagIds ?? null,
              ...terms.map((term) => containsPattern(term.text)),
            ],
          );
          expect({ q, total, ids: items.map((item) => item.id) }).toEqual({ q, total: plain!.n, ids: plain!.ids });
        }
      }),
      { numRuns: db.kind === 'postgres' ? 60 : 15 },
    );
  });
});
