import {
  distanceKm,
  matchesSearch,
  passesVisibility,
  searchTerms,
  statusMatches,
  type EventQuery,
  type EventRecord,
  type EventRepository,
  type NewEvent,
  type Page,
  type Patch,
} from '@siterest/core';
import { many, pageOf, type MemoryContext, type MemoryDb } from '../db.js';
import type { Journal } from '../journal.js';
import { insertPost, patchPost } from './posts.js';

/** Term counts follow the published events that use them. */
function adjustCounts(db: MemoryDb, before: EventRecord | undefined, after: EventRecord | undefined, journal: Journal): void {
  const delta = new Map<number, number>();
  if (before?.status === 'publish') for (const id of [...before.categoryIds, ...before.tagIds]) delta.set(id, (delta.get(id) ?? 0) - 1);
  if (after?.status === 'publish') for (const id of [...after.categoryIds, ...after.tagIds]) delta.set(id, (delta.get(id) ?? 0) + 1);
  for (const [id, change] of delta) {
    if (change !== 0 && db.terms.has(id)) db.termCounts.set(id, (db.termCounts.get(id) ?? 0) + change, journal);
  }
}

/** Keeps the start-ordered index in step, undoably: after every write of an event record. */
export function reindex(db: MemoryDb, before: EventRecord | undefined, after: EventRecord, journal: Journal): void {
  const index = db.eventsByStart;
  if (before && before.startDateUtc === after.startDateUtc) {
    index.replace(after);
    journal.record(() => index.replace(before));
    return;
  }
  if (before) index.remove(before);
  index.add(after);
  journal.record(() => {
    index.remove(after);
    if (before) index.add(before);
  });
}

function existingTerms(db: MemoryDb, ids: readonly number[]): number[] {
  return [...new Set(ids)].filter((id) => db.terms.has(id));
}

export function eventRepository(context: MemoryContext): EventRepository {
  const { db, write } = context;
  return {
    get: async (id: number) => db.events.get(id) ?? null,
    // Reads that need no waiting answer at once (see Maybe in @siterest/core).
    getMany: (ids: readonly number[]) => many(db.events, ids),
    create: (input: NewEvent) =>
      write((j) => {
        const record = insertPost(db, db.events, {
          ...input,
          cost: [...input.cost],
          categoryIds: existingTerms(db, input.categoryIds),
          tagIds: existingTerms(db, input.tagIds),
          venueIds: [...input.venueIds],
          organizerIds: [...input.organizerIds],
        }, j);
        adjustCounts(db, undefined, record, j);
        reindex(db, undefined, record, j);
        return record;
      }),
    update: (id: number, patch: Patch<EventRecord>) =>
      write((j) => {
        const before = db.events.get(id);
        const cleaned = { ...patch };
        if (cleaned.categoryIds) cleaned.categoryIds = existingTerms(db, cleaned.categoryIds);
        if (cleaned.tagIds) cleaned.tagIds = existingTerms(db, cleaned.tagIds);
        const after = patchPost(db.events, id, cleaned, j);
        adjustCounts(db, before, after, j);
        reindex(db, before, after, j);
        return after;
      }),
    list: (query: EventQuery) => listEvents(context, query),
  };
}

/** Whether an event meets a query's conditions (all but its order and page). */
function eventFilter(db: MemoryDb, query: EventQuery): (event: EventRecord) => boolean {
  const terms = query.search ? searchTerms(query.search) : [];
  const statuses = query.statuses;
  const anyOf = (wanted: readonly number[] | undefined, have: readonly number[]) => !wanted || wanted.some((id) => have.includes(id));
  return (event) =>
    statusMatches(statuses, event.status) &&
    passesVisibility(query.visibility, event) &&
    (query.startsAfter === undefined || event.startDateUtc >= query.startsAfter) &&
    (query.startsBefore === undefined || event.startDateUtc <= query.startsBefore) &&
    (query.endsAfter === undefined || event.endDateUtc >= query.endsAfter) &&
    (query.endsBefore === undefined || event.endDateUtc <= query.endsBefore) &&
    !(query.excludeHidden && event.hideFromListings) &&
    (query.featured === undefined || event.featured === query.featured) &&
    (query.parentId === undefined || event.parentId === query.parentId) &&
    anyOf(query.categoryIds, event.categoryIds) &&
    anyOf(query.tagIds, event.tagIds) &&
    anyOf(query.venueIds, event.venueIds) &&
    anyOf(query.organizerIds, event.organizerIds) &&
    (terms.length === 0 || matchesSearch(terms, [event.title, event.content, event.excerpt])) &&
    (!query.geo || eventHasGeo(db, event, query.geo.near));
}

function listEvents({ db, journal }: MemoryContext, query: EventQuery): Page<EventRecord> {
  if (query.include || query.orderBy === 'date') {
    const pool = query.include
      ? [...new Set(query.include)].map((id) => db.events.get(id)).filter((e): e is EventRecord => e !== undefined)
      : db.eventsByStart.records;
    const matches = pool.filter(eventFilter(db, query));
    matches.sort(
      query.orderBy === 'date'
        ? (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id)
        : (a, b) => (a.startDateUtc < b.startDateUtc ? -1 : a.startDateUtc > b.startDateUtc ? 1 : a.id - b.id),
    );
    return pageOf(matches, query);
  }
  // Inside a transaction, whose writes others do not see yet, matches are neither remembered nor reused.
  const key = matchKey(query);
  const remembered = journal ? undefined : db.eventMatches.find(key, db.changes.calendar);
  if (remembered) return pageOf(remembered, query);
  // Walk in start order from the lowest possible start; an event starting after the last allowed start or
  // end ends the walk (an event starts by its end, unless it ends before it starts: see below).
  const accepts = eventFilter(db, query);
  const index = db.eventsByStart;
  const records = index.records;
  const last = [query.startsBefore, query.endsBefore].filter((v): v is string => v !== undefined).sort()[0];
  const matches: EventRecord[] = [];
  for (let i = query.startsAfter === undefined ? 0 : index.position(query.startsAfter, -Infinity); i < records.length; i++) {
    const event = records[i]!;
    if (last !== undefined && event.startDateUtc > last) break;
    if (accepts(event)) matches.push(event);
  }
  // The events ending before they start that start after the walk's end: they may still end within an end bound
  // that ended it (a start bound that ended it leaves them all out). Each starts after every event walked, so they
  // follow in order.
  if (last !== undefined && last === query.endsBefore && last !== query.startsBefore) {
    const ending = index.endingBeforeStart;
    for (let i = index.endingBeforeStartAfter(last); i < ending.length; i++) if (accepts(ending[i]!)) matches.push(ending[i]!);
  }
  if (!journal) db.eventMatches.keep(key, db.changes.calendar, matches);
  return pageOf(matches, query);
}

const absent = '-';
const text = (value: string | undefined): string => (value === undefined ? absent : `${value.length}:${value}`);
const texts = (value: readonly string[] | undefined): string => (value === undefined ? absent : value.map(text).join(','));
const numbers = (value: readonly number[] | undefined): string => (value === undefined ? absent : value.join(','));
const number = (value: number | undefined): string => (value === undefined ? absent : String(value));
const flag = (value: boolean | undefined): string => (value === undefined ? absent : value ? '1' : '0');

/**
 * How each field of a query is written in the key of its matches: every field but the page's (offset, limit),
 * texts with their length so that no two queries share a key. Typed over every field of EventQuery, so a field
 * added there cannot be left out here.
 */
const MATCH_KEY_FIELDS: { [F in keyof Required<EventQuery>]: ((query: EventQuery) => string) | null } = {
  statuses: (q) => (q.statuses === 'any' ? '*' : texts(q.statuses)),
  visibility: (q) => (q.visibility === undefined ? absent : `${texts(q.visibility.statuses)};${number(q.visibility.authorId)};${texts(q.visibility.ownStatuses)}`),
  startsAfter: (q) => text(q.startsAfter),
  startsBefore: (q) => text(q.startsBefore),
  endsAfter: (q) => text(q.endsAfter),
  endsBefore: (q) => text(q.endsBefore),
  search: (q) => text(q.search),
  categoryIds: (q) => numbers(q.categoryIds),
  tagIds: (q) => numbers(q.tagIds),
  venueIds: (q) => numbers(q.venueIds),
  organizerIds: (q) => numbers(q.organizerIds),
  featured: (q) => flag(q.featured),
  include: (q) => numbers(q.include),
  parentId: (q) => number(q.parentId),
  excludeHidden: (q) => flag(q.excludeHidden),
  geo: (q) => (q.geo === undefined ? absent : q.geo.near === undefined ? 'any' : `${q.geo.near.lat},${q.geo.near.lng},${q.geo.near.radiusKm}`),
  orderBy: (q) => q.orderBy,
  offset: null,
  limit: null,
};
const MATCH_KEY_WRITERS = Object.values(MATCH_KEY_FIELDS).filter((write): write is (query: EventQuery) => string => write !== null);

/**
 * The key under which a query's matches are remembered. Written field by field: JSON.stringify of the query (most
 * of whose fields are absent) cost more than the rest of a remembered list's lookup.
 */
export function matchKey(query: EventQuery): string {
  let key = '';
  for (let i = 0; i < MATCH_KEY_WRITERS.length; i++) key += `${MATCH_KEY_WRITERS[i]!(query)}|`;
  return key;
}

function eventHasGeo(db: MemoryDb, event: EventRecord, near?: { lat: number; lng: number; radiusKm: number }): boolean {
  return event.venueIds.some((id) => {
    const venue = db.venues.get(id);
    if (!venue || venue.geoLat === null || venue.geoLng === null) return false;
    return !near || distanceKm(near.lat, near.lng, venue.geoLat, venue.geoLng) <= near.radiusKm;
  });
}
