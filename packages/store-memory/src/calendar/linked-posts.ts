import {
  matchesSearch,
  passesVisibility,
  searchTerms,
  statusMatches,
  type LinkedPostQuery,
  type LinkedPostRepository,
  type OrganizerRecord,
  type Page,
  type Patch,
  type PostRecord,
  type VenueRecord,
} from '@siterest/core';
import { lower, many, pageOf, type MemoryContext, type RememberedMatches } from '../db.js';
import type { JournaledMap } from '../journal.js';
import { insertPost, patchPost } from './posts.js';

/** Venues and organizers: posts linked from events through `venueIds` / `organizerIds`. */
function linkedRepository<R extends PostRecord>(
  { db, write, journal }: MemoryContext,
  map: JournaledMap<number, R>,
  link: 'venueIds' | 'organizerIds',
  searchable: (record: R) => string[],
  remembered: RememberedMatches<R>,
): LinkedPostRepository<R, Omit<R, 'id'>> {
  const list = (query: LinkedPostQuery): Page<R> => {
    // Inside a transaction, whose writes others do not see yet, matches are neither remembered nor reused.
    const key = JSON.stringify({ ...query, offset: 0, limit: 0 });
    const kept = journal ? undefined : remembered.find(key, db.changes.calendar);
    if (kept) return pageOf(kept, query);
    const matches = filterLinked(query);
    if (!journal) remembered.keep(key, db.changes.calendar, matches);
    return pageOf(matches, query);
  };
  const filterLinked = (query: LinkedPostQuery): R[] => {
    const terms = query.search ? searchTerms(query.search) : [];
    const include = query.include ? new Set(query.include) : null;
    const linkedEvents = (id: number) =>
      [...db.events.values()].filter(
        (event) =>
          event[link].includes(id) &&
          (query.eventStatuses ? query.eventStatuses.includes(event.status) : statusMatches('any', event.status)) &&
          passesVisibility(query.eventVisibility, event),
      );
    const forEvent = query.eventId !== undefined ? db.events.get(query.eventId) : undefined;
    const matches = [...map.values()].filter((record) => {
      if (!statusMatches(query.statuses, record.status) || !passesVisibility(query.visibility, record)) return false;
      if (include && !include.has(record.id)) return false;
      if (query.eventId !== undefined && !forEvent?.[link].includes(record.id)) return false;
      if (terms.length && !matchesSearch(terms, searchable(record))) return false;
      if (query.hasEvents !== undefined && (linkedEvents(record.id).length > 0) !== query.hasEvents) return false;
      if (query.upcomingAfter !== undefined && !linkedEvents(record.id).some((e) => e.endDateUtc >= query.upcomingAfter!)) {
        return false;
      }
      return true;
    });
    matches.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id));
    return matches;
  };
  return {
    get: async (id: number) => map.get(id) ?? null,
    // Reads that need no waiting answer at once (see Maybe in @siterest/core).
    getMany: (ids: readonly number[]) => many(map, ids),
    findByTitle: async (title: string) =>
      [...map.values()].filter((record) => record.status !== 'trash' && lower(record.title) === lower(title)),
    create: (input: Omit<R, 'id'>) => write((j) => insertPost(db, map, input, j)),
    update: (id: number, patch: Patch<R>) => write((j) => patchPost(map, id, patch, j)),
    list,
  };
}

export function venueRepository(context: MemoryContext) {
  return linkedRepository<VenueRecord>(
    context,
    context.db.venues,
    'venueIds',
    (v) => [v.title, v.content, v.excerpt, v.address, v.city, v.country, v.province, v.state, v.stateProvince, v.zip, v.phone, v.website],
    context.db.venueMatches,
  );
}

export function organizerRepository(context: MemoryContext) {
  return linkedRepository<OrganizerRecord>(
    context,
    context.db.organizers,
    'organizerIds',
    (o) => [o.title, o.content, o.excerpt, o.phone, o.website, o.email],
    context.db.organizerMatches,
  );
}
