import { searchTerms, type EventQuery, type EventRecord, type Page } from '@siterest/core';
import { Params } from '../../sql/params.js';
import { bindUtc } from '../columns.js';
import { literal, type Db } from '../db.js';
import { countableSearch, type CountableSearch, type CountedSearches } from './counted-searches.js';
import { EVENT_TERMS, TERM_LISTS } from './event-terms.js';
import { countOf } from '../paging.js';
import { recordColumns, toRecord } from '../post-rows.js';
import { EVENT } from '../post-types.js';
import { eventSearchConditions, searchConditions, statusCondition } from '../search-sql.js';
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

/** The largest id: a row comparison on (start, id) up to it bounds the start alone. */
const MAX_BIGINT = '9223372036854775807::bigint';

/**
 * The FROM and WHERE of an event list. By default the list is read from `events e`, whose
 * (status, start_utc) index gives both the order and the total. Filtered by categories or tags (and ordered by
 * start), it is read from that list's `term_relationships d` rows instead, which carry the same keys: the
 * term's events in start order are one index range. A search is read from `event_search s` (migration 014),
 * which carries the keys too, the searched text and the event's category and tag ids (migration 70), all in one
 * index: a search within terms finds the events matching both in it, and so do categories and tags together
 * (readsSearchRows). `posts p` is joined only for a searched phrase with a space, parent, publication-date order or
 * a read clause with the caller's own records; `events e` only when a filter needs one of its other columns.
 */
function eventFilter(db: Db, q: EventQuery, params: Params, searchPosts = false, startsBy?: string): Filter {
  const byDate = q.orderBy === 'date';
  const searchRows = !searchPosts && readsSearchRows(q);
  const drive = byDate || searchRows ? undefined : TERM_LISTS.find(({ field }) => q[field] !== undefined);
  const keys = drive ? 'd' : searchRows ? 's' : 'e';
  const id = `${keys}.${drive ? 'object_id' : 'post_id'}`;
  const where: string[] = [];
  let needsEvent = !drive && !searchRows;
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
  const startsByBound = bound(startsBy);
  /** The window and the hidden flag on the list keys of `alias` (events, or term rows, which copy them). */
  const windowOn = (alias: string) =>
    [
      startsAfter && `${alias}.start_utc >= ${startsAfter}`,
      startsBefore && `${alias}.start_utc <= ${startsBefore}`,
      // Written as a row comparison, which PostgreSQL estimates from its first column alone, and reads as one index
      // range all the same: as `start_utc <= $n` beside the lower bound, the generic plan of a prepared statement takes
      // the two for a narrow range (0.5 % of the rows), an estimate from which it once probed a join row by row (a
      // category and a tag joined, before migration 70: 94 ms).
      startsByBound && `(${alias}.start_utc, ${alias}.${alias === 'd' ? 'object_id' : 'post_id'}) <= (${startsByBound}, ${MAX_BIGINT})`,
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
    if (searchRows) {
      // Only ids of terms that exist: a deleted term's id stays in the lists of its events (migration 70).
      where.push(`s.${list.searchColumn} && ARRAY(SELECT t.id FROM ${db.t.terms} t WHERE t.id = ANY(${params.add([...ids], 'bigint[]')}))`);
    } else if (list === drive) {
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
      // Ordered by publication date (a list in start order with both lists is read from event_search).
      const terms = params.add([...ids], 'bigint[]');
      where.push(`EXISTS (SELECT 1 FROM ${db.t.termRelationships} r WHERE r.object_id = ${id} AND r.taxonomy = ${literal(list.taxonomy)} AND r.term_id = ANY(${terms}))`);
    }
  }
  if (q.venueIds) onEvent(`e.venue_ids && ${params.add([...q.venueIds], 'bigint[]')}`);
  if (q.organizerIds) onEvent(`e.organizer_ids && ${params.add([...q.organizerIds], 'bigint[]')}`);
  if (searchPosts && isSearch(q)) {
    needsPost = true;
    where.push(...searchConditions(params, q.search, ['p.title', 'p.content', 'p.excerpt'], { joinedIndex: false }));
  } else {
    const search = eventSearchConditions(params, q.search, 's.body', ['p.title', 'p.content', 'p.excerpt']);
    if (search.needsColumns) needsPost = true;
    where.push(...search.conditions);
  }
  if (searchRows) where.push(`s.bucket IN (${searchBuckets(q).join(', ')})`);
  if (q.geo) onEvent(geoCondition(db, params, q.geo.near));
  const from = [
    drive ? `${db.t.termRelationships} d` : searchRows ? `${db.t.eventSearch} s` : `${db.t.events} e`,
    (drive || searchRows) && needsEvent ? `JOIN ${db.t.events} e ON e.post_id = ${id}` : '',
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

/**
 * Whether the list is read from event_search (eventFilter): a search, or categories and tags together in start order.
 * event_search's one GIN index per quarter holds each event's category and tag ids (migration 70), and finds the
 * events in both lists by walking their posting lists together. Joined instead, the category's rows and the tag's
 * were each read in the window (1M events, a category of 12,125 events in the window and a tag of 1,503, 87 events
 * in both: 11 ms with planning, against 3 from the index). Not for one list alone: its term rows are one range of an
 * index read alone, while two categories read from event_search fetched their 15,196 rows from all over the table
 * (31 ms against 11).
 */
function readsSearchRows(q: EventQuery): boolean {
  return isSearch(q) || (q.orderBy !== 'date' && TERM_LISTS.every(({ field }) => q[field] !== undefined));
}

/** The quarters event_search is partitioned into (migrations 14 and 67): a start's bucket is (year * 4 + quarter) modulo this. */
const SEARCH_BUCKETS = 32;

/**
 * The buckets of event_search a list in its window has to read: the quarters from the start's lower bound
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
 * The exact total of a list `countsByDay` accepts, without counting the whole window: the events whose days lie
 * within the window's days are summed from event_day_counts (migration 012); the events of the window on a day the
 * sum leaves out are counted from `events` with the list's own condition (the edges), and the counted events the
 * window leaves out on a day the sum takes in whole are counted and taken off (dayCountParts).
 */
function dayCountSql(db: Db, q: EventQuery, params: Params, filter: () => Filter): string {
  const { counted, edges, outside } = dayCountParts(q, params, 'e');
  const parts = [`(SELECT COALESCE(sum(c.n), 0) FROM ${db.t.eventDayCounts} c WHERE ${counted.join(' AND ')})`];
  // The list's condition is bound only when an edge day reads it: a statement must use every parameter it binds.
  if (edges.length) {
    const f = filter();
    for (const edge of edges) parts.push(`(SELECT count(*) FROM ${f.from} WHERE ${f.where} AND ${edge})`);
  }
  let total = parts.join(' + ');
  if (outside) {
    const f = eventFilter(db, withoutWindow(q), params);
    total = `${total} - (SELECT count(*) FROM ${f.from} WHERE ${f.where} AND ${outside})`;
  }
  return `SELECT (${total})::bigint AS n`;
}

/** The list's query without its date window. */
function withoutWindow(q: EventQuery): EventQuery {
  return { ...q, startsAfter: undefined, startsBefore: undefined, endsAfter: undefined, endsBefore: undefined };
}

/** Seconds in a UTC day. */
const DAY_SECONDS = 86_400;

/**
 * An exact total by days in three parts, for a window of plain instants. Each bound falls on a day; the counts take
 * that day in whole or leave it out, whichever leaves less of the day to read from `events`:
 *
 * - left out (the bound's day is mostly inside the window), the window's events on that day are an edge: counted
 *   with the list's own condition, one index range of the day's part inside the window. Each edge also keeps to the
 *   days earlier edges left out, so no event is counted twice;
 * - taken in whole (mostly outside: a lower bound before noon, an upper one after), the counted events on the day's
 *   part outside the window are taken off: `outside`, one condition on an event (without the window) that holds for
 *   a counted event outside the window. A bound at a day's first second (the API's start of a day) has no such part,
 *   and one at its last (the API's end of a day) only the instants within that second.
 *
 * `counted` are the conditions on a counts row `c`, `edges` disjoint conditions added to the list's condition on
 * `alias`. Before, every bound's day was an edge: the API's default window (from today, to a day two years on) read
 * both whole days, 290 events each at a million events, about 2.5 ms each for a search.
 */
function dayCountParts(q: EventQuery, params: Params, alias: string): { counted: string[]; edges: string[]; outside: string | undefined } {
  const counted = countsKeyConditions(q, params, 'c');
  const bounds = [
    { instant: q.startsAfter, column: 'start', lower: true },
    { instant: q.startsBefore, column: 'start', lower: false },
    { instant: q.endsAfter, column: 'end', lower: true },
    { instant: q.endsBefore, column: 'end', lower: false },
  ];
  const edges: string[] = [];
  /** The counted days as conditions on the event's own instants, and the counted parts of bound days outside the window. */
  const within: string[] = [];
  const beyond: string[] = [];
  /** The days earlier edges left out, as conditions on the event: later edges keep to them. */
  const earlier: string[] = [];
  const edgeDays = new Set<string>();
  for (const { instant, column, lower } of bounds) {
    if (instant === undefined) continue;
    const day = params.add(instant.slice(0, 10), 'date');
    const dayStart = `${day}::timestamp`;
    const nextDay = `(${day} + 1)::timestamp`;
    const at = `${alias}.${column}_utc`;
    const [hours, minutes, seconds] = instant.slice(11).split(':').map(Number) as [number, number, number];
    const second = hours * 3600 + minutes * 60 + seconds;
    const outsideSeconds = lower ? second : DAY_SECONDS - 1 - second;
    if (outsideSeconds <= DAY_SECONDS / 2) {
      counted.push(`c.${column}_day ${lower ? '>=' : '<='} ${day}`);
      within.push(lower ? `${at} >= ${dayStart}` : `${at} < ${nextDay}`);
      if (!lower || second > 0) {
        const bound = bindUtc(params, instant);
        beyond.push(lower ? `(${at} >= ${dayStart} AND ${at} < ${bound})` : `(${at} > ${bound} AND ${at} < ${nextDay})`);
      }
    } else {
      counted.push(`c.${column}_day ${lower ? '>' : '<'} ${day}`);
      const leftOut = `${column} ${instant.slice(0, 10)}`;
      // A second edge on the same day would keep to the first's days, which leave nothing of it.
      if (!edgeDays.has(leftOut)) edges.push([`${at} >= ${dayStart} AND ${at} < ${nextDay}`, ...earlier].join(' AND '));
      edgeDays.add(leftOut);
      const strict = lower ? `${at} >= ${nextDay}` : `${at} < ${dayStart}`;
      within.push(strict);
      earlier.push(strict);
    }
  }
  return { counted, edges, outside: beyond.length ? [...within, `(${beyond.join(' OR ')})`].join(' AND ') : undefined };
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
  const endBound = startIndex ? startsByEndBound(q) : undefined;
  if (endBound === undefined) return `${select} ORDER BY k, id LIMIT ${limit} OFFSET ${offset}`;
  const end = bindUtc(params, endBound);
  const upTo = `${limit} + ${offset}`;
  return `SELECT id, k FROM (
        (${select} AND e.start_utc <= ${end} ORDER BY k, id LIMIT ${upTo})
        UNION ALL
        (${select} AND e.start_utc > ${end} AND e.end_utc < e.start_utc ORDER BY k, id LIMIT ${upTo})
      ) bounded ORDER BY k, id LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The end bound a read in start order can stop at, reading the events ending before they start apart: every other
 * event ending by the bound starts by it too. Undefined when there is no plain end bound, or the start is bounded as
 * tightly.
 */
function startsByEndBound(q: EventQuery): string | undefined {
  const end = q.endsBefore;
  if (end === undefined || !PLAIN_INSTANT.test(end)) return undefined;
  return q.startsBefore === undefined || !PLAIN_INSTANT.test(q.startsBefore) || q.startsBefore > end ? end : undefined;
}

/**
 * The rows of a list driven by a category or tag list, in two parts, when the end bounds it more tightly than the
 * start: those starting by the end bound (`byEnd`, the list's condition with that upper start bound on its term rows:
 * one range of the listing index), and those starting after it and ending before they start (`after`, added to the
 * list's condition: their own partial index, migration 69). An event's rows all copy its start and end, so no event
 * is in both parts. Read in one part, the range ran on to the term's last row (a million events in the API's default
 * window: two categories read 24,288 rows for 15,323 events). Undefined when the list is read in one part.
 */
function termRowParts(db: Db, q: EventQuery, f: Filter, params: Params): { byEnd: Filter; after: string } | undefined {
  const endBound = f.key === 'd.start_utc' ? startsByEndBound(q) : undefined;
  if (endBound === undefined) return undefined;
  const byEnd = eventFilter(db, q, params, false, endBound);
  return { byEnd, after: `d.start_utc > ${bindUtc(params, endBound)} AND d.end_utc < d.start_utc` };
}

/** A total counted from the rows the list's condition finds, in two parts when termRowParts splits them. */
function plainTotal(db: Db, q: EventQuery, f: Filter, params: Params): string {
  const counted = `count(${f.distinct ? `DISTINCT ${f.id}` : '*'})`;
  const parts = termRowParts(db, q, f, params);
  if (!parts) return `SELECT ${counted} AS n FROM ${f.from} WHERE ${f.where}`;
  return `SELECT (SELECT ${counted} FROM ${parts.byEnd.from} WHERE ${parts.byEnd.where})
               + (SELECT ${counted} FROM ${f.from} WHERE ${f.where} AND ${parts.after}) AS n`;
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
 * thousands for a word in 1% of events). Categories and tags together (read from event_search, readsSearchRows) were
 * found twice when joined, for the page and again for the total (1M events, a category of 12,000 events in the window
 * and a tag of 1,400: two joins of 4.4 ms each). A venue or organizer filter is an array overlap whose share of the window the planner can only
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
 * not find them twice. An event with several rows among them (several terms of one list, with a venue or organizer)
 * is one match: its rows copy the same start.
 */
function foundOncePage(f: Filter, parts: ReturnType<typeof termRowParts>, records: (ids: string, total: string) => string, limit: string, offset: string): string {
  const rows = (from: string, where: string) => `SELECT ${f.distinct ? 'DISTINCT ' : ''}${f.id} AS id, ${f.key} AS k FROM ${from} WHERE ${where}`;
  const found = parts ? `${rows(parts.byEnd.from, parts.byEnd.where)} UNION ALL ${rows(f.from, `${f.where} AND ${parts.after}`)}` : rows(f.from, f.where);
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
  const byDay = countsByDay(q);
  // On its own the total binds only what it reads: without an edge day the day counts never read the list's condition.
  const own = new Params();
  const count = byDay ? dayCountSql(db, q, own, () => eventFilter(db, q, own)) : plainTotal(db, q, eventFilter(db, q, own), own);
  const records = (ids: string, totalSql: string) => recordsSql(db, ids, totalSql);
  let page: string;
  if (findsOnce(q)) {
    page = foundOncePage(f, termRowParts(db, q, f, params), records, params.count(q.limit), params.count(q.offset));
  } else {
    const total = byDay ? dayCountSql(db, q, params, () => f) : plainTotal(db, q, f, params);
    page = records(pageIds(db, q, f, params, params.count(q.limit), params.count(q.offset)), total);
  }
  // Statement texts are a bounded set (one per combination of filters, search words and quarters read): kept prepared.
  // Not those filtering on venues, organizers or the venues near a point: after five runs PostgreSQL may settle on a
  // generic plan, which cannot tell a venue with a hundred events from one with a hundred thousand and walks the start
  // index (1M events: 27 ms instead of 1.6 at the median; near a point with one venue in range, 35 ms instead of 1.5).
  // Nor searches with a word without trigrams or with a phrase (preparesSearch).
  return { page, pageParams: params.values, count, countParams: own.values, prepare: preparesSearch(q.search) && !q.venueIds && !q.organizerIds && q.geo?.near === undefined };
}

/** Three letters or digits in a row: pg_trgm takes trigrams from them in a LIKE pattern. */
const TRIGRAM_RUN = /[a-z0-9]{3}/;

/**
 * Whether a list's statement may be kept prepared as far as its search goes: no search, or one whose every word
 * looked for (excluded ones aside) has trigrams for event_search's index, and no phrase with a space. A prepared
 * statement may be given a generic plan after five runs, planned once for any words. With trigrams in every word,
 * that plan reads the trigram index as each search's own plan does, and the planning of the window's quarters is
 * saved: a category + "concert" at a million events went from 6.94 to 4.94 ms at the median (p95 9.86 → 6.72).
 * - A word without trigrams ("ab", "a.b") gives the index nothing to look up, so it reads every entry: planned for
 *   its own words, PostgreSQL reads the partitions instead (103 ms at a million events), where the generic plan took
 *   363.
 * - A phrase with a space is also tested on `posts`' columns, whose own trigram indexes hold every post of all time:
 *   a plan that cannot tell a rare phrase from a common one could choose them.
 * Such searches are planned each time, as every search was before.
 */
function preparesSearch(search: string | undefined): boolean {
  if (search === undefined || search === '') return true;
  return searchTerms(search).every((term) => !term.text.includes(' ') && (term.exclude || TRIGRAM_RUN.test(term.text)));
}

/**
 * The page's records in the order of `ids` (id, order key k), each row with the total: only the page's ids are found
 * by the ordered scan, the records (with their term subqueries) are read for those alone.
 */
function recordsSql(db: Db, ids: string, totalSql: string): string {
  return `SELECT ${recordColumns(db, EVENT, EVENT_TERMS)}, (${totalSql}) AS ${TOTAL}
      FROM (${ids}) page
      JOIN ${db.t.posts} p ON p.id = page.id
      JOIN ${db.t.events} x ON x.post_id = page.id
     ORDER BY page.k, page.id`;
}

/**
 * The search of a list that can be read from the counts of its search (migration 068): a search of words
 * (countableSearch) in a window the day counts can split (countsByDay, the search aside), without the venues with
 * coordinates, which the search's counts do not hold.
 */
export function countedSearchOf(q: EventQuery): CountableSearch | undefined {
  if (!isSearch(q) || q.geo !== undefined || !countsByDay({ ...q, search: undefined })) return undefined;
  return countableSearch(q.search!);
}

/**
 * The statement that reads, from the counts of search `searchId`, the list's exact total and the start days its page
 * lies in. Per start day, the window's matches are the counted rows within it, plus the matching events on the
 * days the counts leave out, less the counted ones the window leaves out (dayCountParts, as for a total of all
 * events); their running sum by day gives the first day that reaches past `offset` (with the matches before it)
 * and the last day needed to reach `offset + limit`. Two sums say what reading the page each way would cost
 * (countedSearchPageSql): the events starting on the page's days (event_day_counts), and the search's matches in
 * those days' quarters, which a trigram scan of their partitions rechecks. It also says whether the counts are still
 * ready and still those of the list's search (a search may have been dropped since the instance read the list, and
 * its id given to another after the tables were emptied).
 */
export function countedSearchBoundsSql(db: Db, q: EventQuery, searchId: number, key: string): { text: string; params: unknown[] } {
  const params = new Params();
  const id = params.add(searchId, 'bigint');
  const named = params.add(key, 'text');
  const { counted, edges, outside } = dayCountParts(q, params, 'e');
  // Grouped by day on its own, so the rows come in start-day order from the key, with no sort of them all.
  const days = [`SELECT c.start_day AS day, sum(c.n) AS n FROM ${db.t.eventSearchCounts} c WHERE c.search_id = ${id} AND ${counted.join(' AND ')} GROUP BY c.start_day`];
  if (edges.length) {
    const f = eventFilter(db, q, params, true);
    for (const edge of edges) days.push(`SELECT ${f.key}::date, 1 FROM ${f.from} WHERE ${f.where} AND ${edge}`);
  }
  if (outside) {
    const f = eventFilter(db, withoutWindow(q), params, true);
    days.push(`SELECT ${f.key}::date, -1 FROM ${f.from} WHERE ${f.where} AND ${outside}`);
  }
  const offset = params.count(q.offset);
  const through = params.count(q.offset + q.limit);
  const dayEvents = countsKeyConditions(q, params, 'd');
  // The list's own statuses and hidden flag, though the trigram scan rechecks every match: a measure of the page's
  // cost, read through the counts' key (all of a common word's rows were 2 ms more).
  const quarterMatches = countsKeyConditions(q, params, 'm');
  // One pass over the days in order: the running sum never falls, so the first day past `offset` is the least day
  // whose sum is past it, and the matches before it the least (sum − the day's own) among those days.
  const text = `SELECT b.ready, b.total, b.first_day::text AS first_day, b.before_first, (b.last_day + 1)::text AS after_last,
           COALESCE(b.last_upto, b.total) AS last_upto,
           (SELECT COALESCE(sum(d.n), 0) FROM ${db.t.eventDayCounts} d
             WHERE ${dayEvents.join(' AND ')} AND d.start_day >= b.first_day AND d.start_day <= COALESCE(b.last_day, 'infinity')) AS day_events,
           (SELECT COALESCE(sum(m.n), 0) FROM ${db.t.eventSearchCounts} m
             WHERE m.search_id = ${id} AND ${quarterMatches.join(' AND ')} AND m.start_day >= date_trunc('quarter', b.first_day)::date
               AND m.start_day < (date_trunc('quarter', COALESCE(b.last_day, 'infinity')) + interval '3 months')::date) AS quarter_matches
      FROM (SELECT EXISTS (SELECT 1 FROM ${db.t.eventCountedSearches} w WHERE w.id = ${id} AND w.key = ${named} AND w.ready) AS ready,
                   COALESCE(sum(n), 0)::bigint AS total,
                   min(day) FILTER (WHERE upto > ${offset}) AS first_day,
                   min(upto - n) FILTER (WHERE upto > ${offset}) AS before_first,
                   min(day) FILTER (WHERE upto >= ${through}) AS last_day,
                   min(upto) FILTER (WHERE upto >= ${through}) AS last_upto
              FROM (SELECT day, n, sum(n) OVER (ORDER BY day) AS upto
                      FROM (SELECT day, sum(n) AS n FROM (${days.join(' UNION ALL ')}) days GROUP BY day) per_day) running) b`;
  return { text, params: params.values };
}

/** The conditions on a counts row (`alias`) that every counted event meets: status, the read clause's status part, hidden flag, coordinates. */
function countsKeyConditions(q: EventQuery, params: Params, alias: string): string[] {
  const conditions = [statusCondition(params, `${alias}.status`, q.statuses)];
  if (q.visibility) conditions.push(visibilityCondition(params, `${alias}.status`, '', q.visibility));
  if (q.excludeHidden) conditions.push(`NOT ${alias}.hide_from_listings`);
  if (q.geo) conditions.push(`${alias}.located`);
  return conditions;
}

/** What countedSearchBoundsSql reads, as numbers and day texts. */
export interface CountedSearchBounds {
  readonly ready: boolean;
  readonly total: number;
  /** The page's first start day, null when the page is past the end; the matches before it. */
  readonly firstDay: string | null;
  readonly before: number;
  /** The day after the page's last start day, null when the page runs to the last match; the matches up to it. */
  readonly afterLast: string | null;
  readonly upToLast: number;
  readonly dayEvents: number;
  readonly quarterMatches: number;
}

export function countedSearchBounds(row: Record<string, unknown>): CountedSearchBounds {
  return {
    ready: row.ready === true,
    total: Number(row.total),
    firstDay: (row.first_day as string | null) ?? null,
    before: Number(row.before_first ?? 0),
    afterLast: (row.after_last as string | null) ?? null,
    upToLast: Number(row.last_upto),
    dayEvents: Number(row.day_events),
    quarterMatches: Number(row.quarter_matches),
  };
}

/** A day as PostgreSQL writes a date of years 1 to 9999: one that can bound a window (PLAIN_INSTANT). */
const PLAIN_DAY = /^(?!0000)\d{4}-\d{2}-\d{2}$/;

/**
 * How much more an event read along the start index costs than a match rechecked by a trigram scan: the first is an
 * index entry and a post's row looked up for its text (about 8 µs at a million events), the second a row of a
 * partition the trigram index points to (about 1.2 µs).
 */
const WALK_COST = 7;

/**
 * The page statement of a list read from its search's counts: the list's own condition with its start narrowed to
 * the days the page lies in (from `firstDay`, whose earlier matches are `before`, to before `afterLast`), read the
 * cheaper of two ways. Along `events`' (status, start) index, testing each event's text on `posts`, for about as
 * many events as the page's share of its days' matches needs (a common word: a few dozen); or through the trigram
 * indexes of the partitions of those days' quarters, rechecking the search's every match there (a rarer pair of
 * words, found once in a hundred events, needed 1,400 events read for ten matches, 12 ms, against 2 ms). A bound
 * PostgreSQL gave as a day no instant can name (±infinity, years past 9999 or before 1) is left off: the page is
 * then read as without the counts on that side.
 */
export function countedSearchPageSql(
  db: Db,
  q: EventQuery,
  bounds: CountedSearchBounds,
  via: 'events' | 'search' = cheaperPageRead(q, bounds),
): { text: string; params: unknown[] } {
  const narrowed: EventQuery = { ...q };
  let offset = q.offset;
  if (bounds.firstDay !== null && PLAIN_DAY.test(bounds.firstDay)) {
    const from = `${bounds.firstDay} 00:00:00`;
    if (q.startsAfter === undefined || q.startsAfter < from) narrowed.startsAfter = from;
    offset = q.offset - bounds.before;
  }
  if (bounds.afterLast !== null && PLAIN_DAY.test(bounds.afterLast)) {
    // Inclusive, as the API's bound is: an event at midnight of the day after comes after every event of the page's
    // last day, which already fill the page, so it is never on it.
    const to = `${bounds.afterLast} 00:00:00`;
    if (q.startsBefore === undefined || q.startsBefore > to) narrowed.startsBefore = to;
  }
  const params = new Params();
  const f = eventFilter(db, narrowed, params, via === 'events');
  const ids = `SELECT ${f.id} AS id, ${f.key} AS k FROM ${f.from} WHERE ${f.where} ORDER BY k, id LIMIT ${params.count(q.limit)} OFFSET ${params.count(offset)}`;
  return { text: recordsSql(db, ids, params.count(bounds.total)), params: params.values };
}

/**
 * Which read of a counted search's page costs less (countedSearchPageSql): along `events`, about the page's share of
 * the events of its days (as many as its share of those days' matches needs); through event_search, every match of
 * those days' quarters.
 */
function cheaperPageRead(q: EventQuery, bounds: CountedSearchBounds): 'events' | 'search' {
  const matches = Math.max(1, bounds.upToLast - bounds.before);
  const walked = bounds.dayEvents * Math.min(1, (q.offset - bounds.before + q.limit) / matches);
  return walked * WALK_COST <= bounds.quarterMatches ? 'events' : 'search';
}

/**
 * The list read from the counts of its search, or undefined when they are no longer ready (the caller then reads it
 * plainly): two statements, the total and the page's days from the counts, then the page's days.
 */
async function listCountedSearch(db: Db, q: EventQuery, searchId: number, key: string): Promise<Page<EventRecord> | undefined> {
  const statement = countedSearchBoundsSql(db, q, searchId, key);
  const [row] = await db.sql.query(statement.text, statement.params);
  const bounds = countedSearchBounds(row ?? {});
  if (!bounds.ready) return undefined;
  if (bounds.firstDay === null) return { items: [], total: bounds.total };
  const page = countedSearchPageSql(db, q, bounds);
  const rows = await db.sql.query(page.text, page.params);
  return { items: rows.map((record) => toRecord<EventRecord>(record, EVENT, EVENT_TERMS)), total: bounds.total };
}

export async function listEvents(db: Db, q: EventQuery, counted?: CountedSearches): Promise<Page<EventRecord>> {
  const search = counted && countedSearchOf(q);
  const searchId = search && counted.idOf(search);
  if (search && searchId !== undefined) {
    const page = await listCountedSearch(db, q, searchId, search.key);
    if (page) {
      counted!.used(searchId);
      return page;
    }
  }
  const sql = eventListSql(db, q);
  const options = { prepare: sql.prepare };
  const rows = await db.sql.query(sql.page, sql.pageParams, options);
  const items = rows.map((row) => toRecord<EventRecord>(row, EVENT, EVENT_TERMS));
  const total = rows.length ? Number(rows[0]![TOTAL]) : await countOf(db.sql.query<{ n: unknown }>(sql.count, sql.countParams, options));
  if (search) counted!.noteTotal(search, total);
  return { items, total };
}
