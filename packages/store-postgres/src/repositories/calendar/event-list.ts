import type { EventQuery, EventRecord, Page } from '@siterest/core';
import { Params } from '../../sql/params.js';
import { bindUtc } from '../columns.js';
import { literal, type Db } from '../db.js';
import { EVENT_TERMS, TERM_LISTS } from './event-terms.js';
import { countOf } from '../paging.js';
import { recordColumns, toRecord } from '../post-rows.js';
import { EVENT } from '../post-types.js';
import { eventSearchConditions, statusCondition } from '../search-sql.js';
import { needsAuthor, visibilityCondition } from './visibility-sql.js';

interface Filter {
  from: string;
  where: string;
  /** The event id and the order key, as the FROM names them. */
  id: string;
  key: string;
  /** Several terms of the driving list can match one event: its rows must be made distinct. */
  distinct: boolean;
  /** The placeholder of the driving list's term ids, when a term list drives. */
  driveTerms?: string;
}

/**
 * The FROM and WHERE of an event list. By default the list is read from `events e`, whose
 * (status, start_utc) index gives both the order and the total. Filtered by categories or tags (and ordered by
 * start), it is read from that list's `term_relationships d` rows instead, which carry the same keys: the
 * term's events in start order are one index range. A search is read from `event_search s` (migration 014),
 * which carries the keys too and the searched text with its trigram index; a term list still drives when
 * there is one. `posts p` is joined only for a searched phrase with a space, parent, publication-date order or
 * a read clause with the caller's own records; `events e` only when a filter needs one of its other columns.
 */
function eventFilter(db: Db, q: EventQuery, params: Params): Filter {
  const byDate = q.orderBy === 'date';
  const drive = byDate ? undefined : TERM_LISTS.find(({ field }) => q[field] !== undefined);
  const searched = isSearch(q);
  const keys = drive ? 'd' : searched ? 's' : 'e';
  const id = `${keys}.${drive ? 'object_id' : 'post_id'}`;
  const where: string[] = [];
  let needsEvent = !drive && !searched;
  let needsPost = byDate;
  /** A condition on one of the columns only `events` has. */
  const onEvent = (condition: string) => {
    needsEvent = true;
    where.push(condition);
  };
  // Ordered by publication date the status is read from posts, where (type, status, post_date) is indexed.
  if (byDate) where.push(`p.type = ${params.add(EVENT.type, 'text')}`);
  const status = byDate ? 'p.status' : `${keys}.status`;
  where.push(statusCondition(params, status, q.statuses));
  // The read clause; the author (on posts) is read only when the caller's own records widen it.
  if (q.visibility) {
    if (needsAuthor(q.visibility)) needsPost = true;
    where.push(visibilityCondition(params, status, 'p.author_id', q.visibility));
  }
  if (q.include) where.push(`${id} = ANY(${params.add([...q.include], 'bigint[]')})`);
  const bound = (instant: string | undefined) => (instant === undefined ? undefined : bindUtc(params, instant));
  const startsAfter = bound(q.startsAfter);
  const startsBefore = bound(q.startsBefore);
  const endsAfter = bound(q.endsAfter);
  const endsBefore = bound(q.endsBefore);
  /** The window and the hidden flag on the list keys of `alias` (events, or term rows, which copy them). */
  const windowOn = (alias: string) =>
    [
      startsAfter && `${alias}.start_utc >= ${startsAfter}`,
      startsBefore && `${alias}.start_utc <= ${startsBefore}`,
      endsAfter && `${alias}.end_utc >= ${endsAfter}`,
      endsBefore && `${alias}.end_utc <= ${endsBefore}`,
      q.excludeHidden && `NOT ${alias}.hide_from_listings`,
    ].filter((condition): condition is string => typeof condition === 'string');
  where.push(...windowOn(keys));
  // Literal booleans, so the planner can match the partial index on featured events.
  if (q.featured !== undefined) onEvent(q.featured ? 'e.featured' : 'NOT e.featured');
  if (q.parentId !== undefined) {
    needsPost = true;
    where.push(`p.parent_id = ${params.add(q.parentId, 'bigint')}`);
  }
  let driveTerms: string | undefined;
  for (const list of TERM_LISTS) {
    const ids = q[list.field];
    if (!ids) continue;
    if (list === drive) {
      // One term is an equality, so its rows come in start order from the index (term, taxonomy, type, status,
      // start): the page reads its first rows and stops. PostgreSQL before 17 gives rows found by `= ANY` in no
      // order, even for one element, so the page sorted every row of the term in the window (1M events, a
      // category of 7,000: 4.4 ms of a 8.5 ms list).
      let term: string;
      if (ids.length === 1) {
        term = `d.term_id = ${params.add(ids[0], 'bigint')}`;
      } else {
        driveTerms = params.add([...ids], 'bigint[]');
        term = `d.term_id = ANY(${driveTerms})`;
      }
      where.push(`${term} AND d.taxonomy = ${literal(list.taxonomy)} AND d.object_type = ${literal(EVENT.type)}`);
    } else {
      const terms = params.add([...ids], 'bigint[]');
      // Under a driving term list the other list's rows carry the same copied keys: bounding them as well changes
      // nothing found, and lets the planner read only the other terms' rows within the window (and start from
      // them when they are fewer).
      const copies = drive ? [`r.object_type = ${literal(EVENT.type)}`, statusCondition(params, 'r.status', q.statuses), ...windowOn('r')] : [];
      where.push(
        `EXISTS (SELECT 1 FROM ${db.t.termRelationships} r WHERE ${[`r.object_id = ${id}`, `r.taxonomy = ${literal(list.taxonomy)}`, `r.term_id = ANY(${terms})`, ...copies].join(' AND ')})`,
      );
    }
  }
  if (q.venueIds) onEvent(`e.venue_ids && ${params.add([...q.venueIds], 'bigint[]')}`);
  if (q.organizerIds) onEvent(`e.organizer_ids && ${params.add([...q.organizerIds], 'bigint[]')}`);
  const search = eventSearchConditions(params, q.search, 's.body', ['p.title', 'p.content', 'p.excerpt']);
  if (search.needsColumns) needsPost = true;
  where.push(...search.conditions);
  if (searched) where.push(`s.bucket IN (${searchBuckets(q).join(', ')})`);
  if (q.geo) onEvent(geoCondition(db, params, q.geo.near));
  const from = [
    drive ? `${db.t.termRelationships} d` : searched ? `${db.t.eventSearch} s` : `${db.t.events} e`,
    drive && searched ? `JOIN ${db.t.eventSearch} s ON s.post_id = d.object_id` : '',
    (drive || searched) && needsEvent ? `JOIN ${db.t.events} e ON e.post_id = ${id}` : '',
    needsPost ? `JOIN ${db.t.posts} p ON p.id = ${id}` : '',
  ];
  return {
    from: from.filter(Boolean).join(' '),
    where: where.join(' AND '),
    id,
    key: byDate ? 'p.post_date' : `${keys}.start_utc`,
    distinct: drive !== undefined && (q[drive.field]?.length ?? 0) > 1,
    driveTerms,
  };
}

/** Whether the list searches: read from event_search, the page and the total from one set of matches (eventListSql). */
function isSearch(q: EventQuery): boolean {
  return q.search !== undefined && q.search !== '';
}

/** The quarters event_search is partitioned into (migrations 14 and 67): a start's bucket is (year * 4 + quarter) modulo this. */
const SEARCH_BUCKETS = 32;

/**
 * The buckets of event_search a search in the list's window has to read: the quarters from the start's lower bound
 * to its upper bound, and bucket -1 (events ending before they start, or starting at ±infinity). An end bound
 * bounds the start of every other event too, since it starts by its end. Written as literal numbers, so the planner
 * leaves the other partitions out when it plans; they are the store's own small integers, a bounded set of
 * statement texts.
 */
function searchBuckets(q: EventQuery): number[] {
  const plain = (bound: string | undefined) => (bound !== undefined && PLAIN_INSTANT.test(bound) ? bound : undefined);
  const from = plain(q.startsAfter);
  const to = [plain(q.startsBefore), plain(q.endsBefore)].filter((bound): bound is string => bound !== undefined).sort()[0];
  const quarter = (instant: string) => Number(instant.slice(0, 4)) * 4 + Math.floor((Number(instant.slice(5, 7)) - 1) / 3);
  const first = from === undefined ? 0 : quarter(from);
  const last = to === undefined ? Infinity : quarter(to);
  const buckets = [-1];
  if (last - first + 1 >= SEARCH_BUCKETS) for (let b = 0; b < SEARCH_BUCKETS; b++) buckets.push(b);
  else for (let at = first; at <= last; at++) buckets.push(at % SEARCH_BUCKETS);
  return buckets;
}

/**
 * A venue with coordinates, within the radius when given (haversine, as the memory store computes it). Any venue
 * with coordinates is the event's own flag, kept by triggers (migration 65), and counted by day: tested event by
 * event against the venues, the total read every event of the window (1M events: 330–410 ms). Near a point, the
 * venues within the radius are found first (a few among thousands) and their events through the venue index:
 * tested event by event, a search near a place with no venue read every event of the window, for the page and
 * again for the total (1M events: 1.1 s).
 */
function geoCondition(db: Db, params: Params, near?: { lat: number; lng: number; radiusKm: number }): string {
  if (!near) return 'e.located';
  const located = 'v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL';
  const lat = params.add(near.lat, 'double precision');
  const lng = params.add(near.lng, 'double precision');
  const a = `power(sin(radians(v.geo_lat - ${lat}) / 2), 2) + cos(radians(${lat})) * cos(radians(v.geo_lat)) * power(sin(radians(v.geo_lng - ${lng}) / 2), 2)`;
  // Held within [0, 1] as distanceKm holds it: at a venue's antipode rounding gives 1.0000000000000002, whose
  // complement's square root was an error (a 500 for any caller naming that point).
  const distance = `6371 * 2 * asin(sqrt(LEAST(1, GREATEST(0, ${a})))) <= ${params.add(near.radiusKm, 'double precision')}`;
  return `e.venue_ids && ARRAY(SELECT v.post_id FROM ${db.t.venues} v WHERE ${located} AND ${distance})`;
}

/** The query fields a total from the day counts can honour; any other filter is counted plainly. */
const DAY_COUNTED_FIELDS: ReadonlySet<string> = new Set([
  'statuses', 'visibility', 'excludeHidden', 'startsAfter', 'startsBefore', 'endsAfter', 'endsBefore', 'orderBy', 'offset', 'limit',
]);

/**
 * A finite UTC instant as the API sends it. The zero date and instants out of PostgreSQL's range are bound as
 * ±infinity (columns.ts), which have no day to split at: such a window is counted plainly.
 */
const PLAIN_INSTANT = /^(?!0000)\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * Whether the total can come from the day counts: the list filters only on status, the read clause's status
 * part (its own-records part needs the author, which the counts do not have), the hidden flag, a venue with
 * coordinates (not near a point) and start or end bounds, and every bound is a plain instant.
 */
function countsByDay(q: EventQuery): boolean {
  if (q.orderBy !== 'start') return false;
  if (q.visibility && needsAuthor(q.visibility)) return false;
  for (const [field, value] of Object.entries(q)) {
    if (value === undefined || (field === 'search' && !value) || (field === 'geo' && q.geo?.near === undefined)) continue;
    if (!DAY_COUNTED_FIELDS.has(field)) return false;
  }
  return [q.startsAfter, q.startsBefore, q.endsAfter, q.endsBefore].every((bound) => bound === undefined || PLAIN_INSTANT.test(bound));
}

/**
 * The exact total of a list `countsByDay` accepts, without counting the whole window: the events whose start
 * and end days both lie strictly inside the window's bound days are summed from event_day_counts (migration
 * 012): any such event meets every bound, and every event that meets them and is not on a bound day is such an
 * event. The events on a bound day (start on the day of `startsAfter` or `startsBefore`, end on the day of
 * `endsAfter` or `endsBefore`) are counted from `events` with the list's own condition, one index range of a
 * day each; each range leaves out the days an earlier one counted, so no event is counted twice.
 */
function dayCountSql(db: Db, q: EventQuery, params: Params, filter: () => Filter): string {
  const day = (instant: string | undefined) => (instant === undefined ? undefined : { text: instant.slice(0, 10), sql: params.add(instant.slice(0, 10), 'date') });
  const startsAfter = day(q.startsAfter);
  const startsBefore = day(q.startsBefore);
  const endsAfter = day(q.endsAfter);
  const endsBefore = day(q.endsBefore);
  const onDay = (column: string, d: { sql: string }) => `e.${column} >= ${d.sql}::timestamp AND e.${column} < (${d.sql} + 1)::timestamp`;

  const buckets = [statusCondition(params, 'c.status', q.statuses)];
  if (q.visibility) buckets.push(visibilityCondition(params, 'c.status', '', q.visibility));
  if (q.excludeHidden) buckets.push('NOT c.hide_from_listings');
  if (q.geo) buckets.push('c.located');
  if (startsAfter) buckets.push(`c.start_day > ${startsAfter.sql}`);
  if (startsBefore) buckets.push(`c.start_day < ${startsBefore.sql}`);
  if (endsAfter) buckets.push(`c.end_day > ${endsAfter.sql}`);
  if (endsBefore) buckets.push(`c.end_day < ${endsBefore.sql}`);
  const parts = [`(SELECT COALESCE(sum(c.n), 0) FROM ${db.t.eventDayCounts} c WHERE ${buckets.join(' AND ')})`];

  const edges: string[] = [];
  if (startsAfter) edges.push(onDay('start_utc', startsAfter));
  if (startsBefore && startsBefore.text !== startsAfter?.text) edges.push(onDay('start_utc', startsBefore));
  // Counted by end: not on a start bound day (the condition already keeps the start within its bounds).
  const offStartDays = [startsAfter ? `e.start_utc >= (${startsAfter.sql} + 1)::timestamp` : '', startsBefore ? `e.start_utc < ${startsBefore.sql}::timestamp` : ''];
  if (endsAfter) edges.push([onDay('end_utc', endsAfter), ...offStartDays].filter(Boolean).join(' AND '));
  if (endsBefore && endsBefore.text !== endsAfter?.text) edges.push([onDay('end_utc', endsBefore), ...offStartDays].filter(Boolean).join(' AND '));
  // The list's condition is bound only when an edge day reads it: a statement must use every parameter it binds.
  if (edges.length) {
    const f = filter();
    for (const edge of edges) parts.push(`(SELECT count(*) FROM ${f.from} WHERE ${f.where} AND ${edge})`);
  }
  return `SELECT (${parts.join(' + ')})::bigint AS n`;
}

/**
 * Whether the page is found by walking a start-ordered index of `events`: the list filters only on what such an
 * index carries. A search or a venue, organizer, parent or id filter is found through its own index instead, and
 * splitting that page would run it twice.
 */
function readsStartIndex(q: EventQuery): boolean {
  return Object.entries(q).every(([field, value]) => value === undefined || (field === 'search' && !value) || field === 'featured' || DAY_COUNTED_FIELDS.has(field));
}

/**
 * The page's ids and order keys. A list read from `events` in start order whose end is bounded and whose start is
 * not bounded as tightly would scan the start index past the end bound to the last event, since an event may end
 * before it starts. Such a page is the merge of two bounded scans: events starting by the end bound, and the few
 * ending before they start (their own partial index, migration 12), each cut at offset + limit. A lower end bound
 * also gives the scan a start bound (earliestStart).
 */
function pageIds(db: Db, q: EventQuery, f: Filter, params: Params, limit: string, offset: string): string {
  if (f.distinct && f.driveTerms) return severalTermsPageIds(f, f.driveTerms, limit, offset);
  const startIndex = f.key === 'e.start_utc' && readsStartIndex(q);
  const where = startIndex && q.endsAfter !== undefined && PLAIN_INSTANT.test(q.endsAfter) ? `${f.where} AND ${earliestStart(db, q, q.endsAfter, params)}` : f.where;
  const select = `SELECT ${f.distinct ? 'DISTINCT ' : ''}${f.id} AS id, ${f.key} AS k FROM ${f.from} WHERE ${where}`;
  const endBound = q.endsBefore;
  const splits =
    startIndex &&
    endBound !== undefined &&
    PLAIN_INSTANT.test(endBound) &&
    (q.startsBefore === undefined || !PLAIN_INSTANT.test(q.startsBefore) || q.startsBefore > endBound);
  if (!splits) return `${select} ORDER BY k, id LIMIT ${limit} OFFSET ${offset}`;
  const end = bindUtc(params, endBound);
  const upTo = `${limit} + ${offset}`;
  return `SELECT id, k FROM (
        (${select} AND e.start_utc <= ${end} ORDER BY k, id LIMIT ${upTo})
        UNION ALL
        (${select} AND e.start_utc > ${end} AND e.end_utc < e.start_utc ORDER BY k, id LIMIT ${upTo})
      ) bounded ORDER BY k, id LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * A start bound implied by an end bound, for a page read in start order: no event ending at or after `endsAfter`
 * (and by `endsBefore`) starts before the first start day the day counts hold for such end days, since every
 * event is counted in its own (start day, end day) row. Without it a window bounded only by the end (events going
 * on this week) walks the start index from the first event ever.
 */
function earliestStart(db: Db, q: EventQuery, endsAfter: string, params: Params): string {
  const ends = [`c.end_day >= ${params.add(endsAfter.slice(0, 10), 'date')}`];
  if (q.endsBefore !== undefined && PLAIN_INSTANT.test(q.endsBefore)) ends.push(`c.end_day <= ${params.add(q.endsBefore.slice(0, 10), 'date')}`);
  return `e.start_utc >= (SELECT COALESCE(min(c.start_day), 'infinity') FROM ${db.t.eventDayCounts} c
                          WHERE ${ends.join(' AND ')} AND c.n > 0 AND ${statusCondition(params, 'c.status', q.statuses)})::timestamp`;
}

/**
 * The page of a list driven by several terms. Their rows together are not in start order, so one scan would read
 * and sort every row of every term; each term's rows alone are. The first offset + limit rows of each term, merged
 * and made distinct, hold the page: the events before an event in its own term's order are all before it in the
 * list too, so its place in its term is no later than its place in the list.
 */
function severalTermsPageIds(f: Filter, terms: string, limit: string, offset: string): string {
  return `SELECT DISTINCT one_term.id, one_term.k FROM unnest(${terms}) AS term(term_id)
        CROSS JOIN LATERAL (SELECT ${f.id} AS id, ${f.key} AS k FROM ${f.from} WHERE ${f.where} AND d.term_id = term.term_id
                             ORDER BY k, id LIMIT ${limit} + ${offset}) one_term
      ORDER BY one_term.k, one_term.id LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * Whether the list's matches are found once and both the page and the total taken from them (foundOncePage): a
 * search, or categories and tags together. Every match has to be found for an exact total anyway. A search's page
 * walked along the start index instead would recheck the text of every event before its tenth match (hundreds to
 * thousands for a word in 1% of events). Categories and tags together join the two terms' rows, for the page and
 * again for the total (1M events, a category of 12,000 events in the window and a tag of 1,400: two joins of
 * 4.4 ms each). A venue or organizer filter is an array overlap whose share of the window the planner can only
 * guess: guessing it common, it walked the start index for the page and read every event before the linked post's
 * first (1M events, an organizer of 158 events in the window: 18–31 ms instead of about 2). Found once, the page
 * costs about what the total's own scan of the linked post's events costs. So with the events near a point, found
 * through their venues (geoCondition).
 */
function findsOnce(q: EventQuery): boolean {
  return (
    isSearch(q) ||
    q.venueIds !== undefined ||
    q.organizerIds !== undefined ||
    q.geo?.near !== undefined ||
    (q.orderBy !== 'date' && TERM_LISTS.every(({ field }) => q[field] !== undefined))
  );
}

/**
 * The page of a list whose matches are found once (findsOnce): `found` is kept (MATERIALIZED) so the planner does
 * not find them twice. An event with several rows among them (several terms of one list) is one match: its rows
 * copy the same start.
 */
function foundOncePage(f: Filter, records: (ids: string, total: string) => string, limit: string, offset: string): string {
  const found = `SELECT ${f.distinct ? 'DISTINCT ' : ''}${f.id} AS id, ${f.key} AS k FROM ${f.from} WHERE ${f.where}`;
  return `WITH found AS MATERIALIZED (${found})
    ${records(`SELECT id, k FROM found ORDER BY k, id LIMIT ${limit} OFFSET ${offset}`, 'SELECT count(*) FROM found')}`;
}

/** Name of the total the page statement carries on each of its rows. */
const TOTAL = 'siterest_total';

/**
 * The statements a list runs: the page (ids in order, then whole records) with the total on each row, so a
 * list is one round trip; and the total alone, for a page past the end (no rows to carry it).
 */
export function eventListSql(db: Db, q: EventQuery): { page: string; pageParams: unknown[]; count: string; countParams: unknown[]; prepare: boolean } {
  const params = new Params();
  const f = eventFilter(db, q, params);
  const plain = `SELECT count(${f.distinct ? `DISTINCT ${f.id}` : '*'}) AS n FROM ${f.from} WHERE ${f.where}`;
  const byDay = countsByDay(q);
  const total = byDay ? dayCountSql(db, q, params, () => f) : plain;
  // On its own the total binds only what it reads: without an edge day the day counts never read the list's condition.
  const own = new Params();
  const count = byDay ? dayCountSql(db, q, own, () => eventFilter(db, q, own)) : plain;
  const countParams = byDay ? own.values : [...params.values];
  const limit = params.count(q.limit);
  const offset = params.count(q.offset);
  // Only the page's ids are found by the ordered scan; the records (with their term subqueries) are read for those alone.
  const records = (ids: string, totalSql: string) => `SELECT ${recordColumns(db, EVENT, EVENT_TERMS)}, (${totalSql}) AS ${TOTAL}
      FROM (${ids}) page
      JOIN ${db.t.posts} p ON p.id = page.id
      JOIN ${db.t.events} x ON x.post_id = page.id
     ORDER BY page.k, page.id`;
  const page = findsOnce(q) ? foundOncePage(f, records, limit, offset) : records(pageIds(db, q, f, params, limit, offset), total);
  // Statement texts without a search are a bounded set (one per combination of filters): kept prepared. Not those
  // filtering on venues, organizers or the venues near a point: after five runs PostgreSQL may settle on a generic
  // plan, which cannot tell a venue with a hundred events from one with a hundred thousand and walks the start
  // index (1M events: 27 ms instead of 1.6 at the median; near a point with one venue in range, 35 ms instead of 1.5).
  return { page, pageParams: params.values, count, countParams, prepare: q.search === undefined && !q.venueIds && !q.organizerIds && q.geo?.near === undefined };
}

export async function listEvents(db: Db, q: EventQuery): Promise<Page<EventRecord>> {
  const sql = eventListSql(db, q);
  const options = { prepare: sql.prepare };
  const rows = await db.sql.query(sql.page, sql.pageParams, options);
  const items = rows.map((row) => toRecord<EventRecord>(row, EVENT, EVENT_TERMS));
  const total = rows.length ? Number(rows[0]![TOTAL]) : await countOf(db.sql.query<{ n: unknown }>(sql.count, sql.countParams, options));
  return { items, total };
}
