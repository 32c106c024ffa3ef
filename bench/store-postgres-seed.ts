import type { PostgresStore } from '../packages/store-postgres/src/index.js';

/**
 * Bulk seed for the PostgreSQL store benchmark: venues, organizers, categories and tags through plain
 * INSERT … SELECT, then events in batches of one statement each (posts, events and term assignments
 * written together by a data-modifying CTE). Secondary indexes are dropped during the load and rebuilt
 * afterwards, as one would for an import.
 */
export interface SeedOptions {
  events: number;
  venues?: number;
  organizers?: number;
  batch?: number;
  log?: (line: string) => void;
}

export interface SeedFacts {
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
}

const WORDS = ['jazz', 'rock', 'yoga', 'market', 'festival', 'workshop', 'lecture', 'concert', 'theatre', 'cinema', 'poetry', 'dance',
  'garden', 'family', 'food', 'wine', 'beer', 'craft', 'science', 'history', 'museum', 'tour', 'run', 'cycling', 'swim', 'choir',
  'orchestra', 'opera', 'comedy', 'quiz', 'kids', 'coding', 'design', 'photo', 'film', 'book', 'art', 'music', 'night', 'morning'];

/** Tables whose secondary indexes are dropped during the load; event_search is filled by the triggers on events. */
const BIG_TABLES = ['posts', 'events', 'term_relationships', 'event_search'];

export async function seedEvents(store: PostgresStore, options: SeedOptions): Promise<SeedFacts> {
  const log = options.log ?? (() => undefined);
  const sql = store.sql;
  const s = `"${store.schema}"`;
  const ids = (rows: Array<{ id: unknown }>) => rows.map((r) => Number(r.id));

  const venueIds = ids(
    await sql.query(
      `WITH p AS (
         INSERT INTO ${s}.posts (type, status, title, slug, post_date, post_date_gmt, post_modified, post_modified_gmt)
         SELECT 'cal_venue', 'publish', 'Venue ' || g, 'venue-' || g, '2021-06-01 10:00:00', '2021-06-01 10:00:00', '2021-06-01 10:00:00', '2021-06-01 10:00:00'
           FROM generate_series(1, $1::integer) g RETURNING id
       )
       INSERT INTO ${s}.venues (post_id, city, country, geo_lat, geo_lng)
       SELECT id, 'City ' || (id % 97), 'Country ' || (id % 7),
              CASE WHEN id % 2 = 0 THEN 35 + random() * 20 END, CASE WHEN id % 2 = 0 THEN -10 + random() * 40 END
         FROM p RETURNING post_id AS id`,
      [options.venues ?? 2000],
    ),
  );
  const organizerIds = ids(
    await sql.query(
      `WITH p AS (
         INSERT INTO ${s}.posts (type, status, title, slug, post_date, post_date_gmt, post_modified, post_modified_gmt)
         SELECT 'cal_organizer', 'publish', 'Organizer ' || g, 'organizer-' || g, '2021-06-01 10:00:00', '2021-06-01 10:00:00', '2021-06-01 10:00:00', '2021-06-01 10:00:00'
           FROM generate_series(1, $1::integer) g RETURNING id
       )
       INSERT INTO ${s}.organizers (post_id, email) SELECT id, 'org' || id || '@example.com' FROM p RETURNING post_id AS id`,
      [options.organizers ?? 1000],
    ),
  );
  const topCategories = ids(
    await sql.query(
      `INSERT INTO ${s}.terms (taxonomy, name, slug) SELECT 'cal_events_cat', 'Category ' || g, 'category-' || g FROM generate_series(1, 10) g RETURNING id`,
    ),
  );
  const childCategories = ids(
    await sql.query(
      `INSERT INTO ${s}.terms (taxonomy, name, slug, parent_id)
       SELECT 'cal_events_cat', 'Subcategory ' || g, 'subcategory-' || g, ($1::bigint[])[1 + g % 10] FROM generate_series(1, 20) g RETURNING id`,
      [topCategories],
    ),
  );
  const categoryIds = [...topCategories, ...childCategories];
  const tagIds = ids(
    await sql.query(`INSERT INTO ${s}.terms (taxonomy, name, slug) SELECT 'post_tag', 'Tag ' || g, 'tag-' || g FROM generate_series(1, 200) g RETURNING id`),
  );

  const indexes = await sql.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE schemaname = $1 AND tablename = ANY($2::text[])
        AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE connamespace = $1::regnamespace)`,
    [store.schema, BIG_TABLES],
  );
  for (const index of indexes) await sql.query(`DROP INDEX ${s}."${index.name}"`);
  // A partitioned table's index (event_search's, migration 67) is shown ON ONLY the parent; built again as it was
  // made, on the parent, it builds every partition's too.
  for (const index of indexes) index.def = index.def.replace(' ON ONLY ', ' ON ');

  const [{ base }] = (await sql.query<{ base: unknown }>(`SELECT COALESCE(max(id), 0) + 1 AS base FROM ${s}.posts`)) as [{ base: unknown }];
  const first = Number(base);
  const batch = options.batch ?? 100_000;
  const started = Date.now();
  for (let from = 0; from < options.events; from += batch) {
    const to = Math.min(options.events, from + batch);
    await sql.query(eventBatchSql(s), [first + from, first + to - 1, venueIds, organizerIds, categoryIds, tagIds, WORDS]);
    log(`  seeded ${to.toLocaleString('en')} events (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  await sql.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT max(id) FROM ${s}.posts))`, [`${s}.posts`]);
  // The store keeps counts by increments; a bulk load sets them once, the way the store would have left them.
  await sql.query(
    `UPDATE ${s}.terms t SET count = c.n
       FROM (SELECT r.term_id, count(*) AS n FROM ${s}.term_relationships r JOIN ${s}.events e ON e.post_id = r.object_id
              WHERE e.status = 'publish' GROUP BY r.term_id) c
      WHERE t.id = c.term_id`,
  );

  log(`  rebuilding ${indexes.length} indexes…`);
  const rebuildStarted = Date.now();
  const queue = [...indexes];
  const worker = async () => {
    for (let index = queue.shift(); index; index = queue.shift()) {
      await sql.transaction(async (tx) => {
        await tx.query(`SET LOCAL maintenance_work_mem = '256MB'`);
        await tx.query(index.def);
      });
    }
  };
  await Promise.all([worker(), worker()]);
  log(`  indexes rebuilt (${((Date.now() - rebuildStarted) / 1000).toFixed(0)} s)`);
  for (const table of [...BIG_TABLES, 'terms', 'venues', 'organizers', 'event_day_counts']) await sql.query(`VACUUM (ANALYZE) ${s}.${table}`);
  return { venueIds, organizerIds, categoryIds, tagIds };
}

/**
 * One batch of events: random draws per row, then posts, events and term assignments from the same draws.
 * Statuses ~85% publish; starts spread over 2022–2029 in 15-minute steps; 2% hidden, 3% featured; most
 * events have a venue and an organizer, one or two categories (skewed), zero to two tags (skewed);
 * "saxophone" appears in 0.3% of contents.
 */
function eventBatchSql(s: string): string {
  return `
    WITH raw AS MATERIALIZED (
      SELECT g AS id, random() AS st, random() AS t, random() AS d, random() AS h, random() AS f, random() AS v, random() AS o,
             random() AS c1, random() AS c2, random() AS t1, random() AS t2, random() AS x,
             1 + floor(random() * 40)::int AS w1, 1 + floor(random() * 40)::int AS w2, 1 + floor(random() * 40)::int AS w3, 1 + floor(random() * 40)::int AS w4
        FROM generate_series($1::bigint, $2::bigint) g
    ),
    src AS MATERIALIZED (
      SELECT id, w1, w2, w3, w4, x,
             CASE WHEN st < 0.85 THEN 'publish' WHEN st < 0.92 THEN 'draft' WHEN st < 0.95 THEN 'private' WHEN st < 0.97 THEN 'pending' ELSE 'trash' END AS status,
             timestamp '2022-01-01 00:00:00' + floor(t * 280512) * interval '15 minutes' AS start_utc,
             CASE WHEN d < 0.9 THEN (1 + floor(d * 50)::int % 5) * interval '1 hour' ELSE (1 + floor(d * 100)::int % 3) * interval '1 day' END AS duration,
             h < 0.02 AS hidden,
             f < 0.03 AS featured,
             CASE WHEN v < 0.9 THEN ARRAY[($3::bigint[])[1 + floor(v / 0.9 * cardinality($3::bigint[]))::int]] ELSE '{}'::bigint[] END AS venue_ids,
             CASE WHEN o < 0.8 THEN ARRAY[($4::bigint[])[1 + floor(o / 0.8 * cardinality($4::bigint[]))::int]] ELSE '{}'::bigint[] END AS organizer_ids,
             ($5::bigint[])[1 + floor(power(c1, 2) * cardinality($5::bigint[]))::int] AS cat1,
             CASE WHEN c2 < 0.3 THEN ($5::bigint[])[1 + floor(c2 / 0.3 * cardinality($5::bigint[]))::int] END AS cat2,
             CASE WHEN t1 < 0.7 THEN ($6::bigint[])[1 + floor(power(t1 / 0.7, 2) * cardinality($6::bigint[]))::int] END AS tag1,
             CASE WHEN t2 < 0.3 THEN ($6::bigint[])[1 + floor(t2 / 0.3 * cardinality($6::bigint[]))::int] END AS tag2
        FROM raw
    ),
    p AS (
      INSERT INTO ${s}.posts (id, type, status, author_id, title, content, excerpt, slug, post_date, post_date_gmt, post_modified, post_modified_gmt)
      SELECT id, 'cal_events', status, 1,
             initcap(($7::text[])[w1]) || ' ' || initcap(($7::text[])[w2]) || ' #' || id,
             'An evening of ' || ($7::text[])[w1] || ' and ' || ($7::text[])[w3] || ' with friends. Join us for ' || ($7::text[])[w2] || ', '
               || ($7::text[])[w4] || ' and more at the venue; doors open an hour before.' || CASE WHEN x < 0.003 THEN ' Featuring a saxophone quartet.' ELSE '' END,
             'A ' || ($7::text[])[w4] || ' event',
             'event-' || id,
             to_char(start_utc - interval '60 days', 'YYYY-MM-DD HH24:MI:SS'), to_char(start_utc - interval '60 days', 'YYYY-MM-DD HH24:MI:SS'),
             to_char(start_utc - interval '30 days', 'YYYY-MM-DD HH24:MI:SS'), to_char(start_utc - interval '30 days', 'YYYY-MM-DD HH24:MI:SS')
        FROM src
    ),
    e AS (
      INSERT INTO ${s}.events (post_id, status, start_local, end_local, start_utc, end_utc, timezone, hide_from_listings, featured, venue_ids, organizer_ids)
      SELECT id, status, to_char(start_utc, 'YYYY-MM-DD HH24:MI:SS'), to_char(start_utc + duration, 'YYYY-MM-DD HH24:MI:SS'),
             start_utc, start_utc + duration, 'UTC', hidden, featured, venue_ids, organizer_ids
        FROM src
    )
    INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, term_order, object_type, status, start_utc, end_utc, hide_from_listings)
    SELECT DISTINCT ON (src.id, a.taxonomy, a.term_id) src.id, a.term_id, a.taxonomy, a.ord, 'cal_events', src.status, src.start_utc, src.start_utc + src.duration, src.hidden
      FROM src, LATERAL (VALUES (cat1, 'cal_events_cat', 0), (cat2, 'cal_events_cat', 1), (tag1, 'post_tag', 0), (tag2, 'post_tag', 1)) AS a(term_id, taxonomy, ord)
     WHERE a.term_id IS NOT NULL`;
}
