import type { WpDateTime } from './records.js';

/** Statuses a query accepts: a list, or `'any'` (all but trash and auto-draft, as WordPress). */
export type StatusFilter = readonly string[] | 'any';

/**
 * The read rule of a list, as a clause of the store query: WordPress's `read_post` applied to every item, so
 * that a list, its total, its pages and a HEAD answer count only what the caller may read. A record passes
 * when its status is one of `statuses` (readable whoever wrote it), or when `authorId` wrote it and its status
 * is one of `ownStatuses`. It narrows the query's status filter and never widens it.
 *
 * The calendar services compute it from the caller's capabilities (see `readVisibility`), already narrowed to
 * the statuses the list asks for, and leave it out when the caller may read everything those statuses hold,
 * so anonymous and editor queries stay as they were. It is a plain part of the query: whatever keys on the
 * query (answer caches, the memory store's match cache) keys on it too.
 */
export interface ReadVisibility {
  /** Statuses readable whoever wrote the record. May be empty. */
  statuses: readonly string[];
  /** The caller's user id: records they wrote are also readable in `ownStatuses`. */
  authorId?: number;
  ownStatuses?: readonly string[];
}

export interface Paging {
  offset: number;
  limit: number;
}

/**
 * An event list query. All instants are UTC wall clock strings; bounds are inclusive. The service turns the
 * API's parameters (site time zone, defaults, permissions) into this.
 */
export interface EventQuery extends Paging {
  statuses: StatusFilter;
  /** Only events the caller may read (absent: all that `statuses` selects). */
  visibility?: ReadVisibility;
  startsAfter?: WpDateTime;
  startsBefore?: WpDateTime;
  endsAfter?: WpDateTime;
  endsBefore?: WpDateTime;
  /** Case-insensitive match in title, content or excerpt. */
  search?: string;
  /** Any of these (OR); the four lists combine with AND. */
  categoryIds?: readonly number[];
  tagIds?: readonly number[];
  venueIds?: readonly number[];
  organizerIds?: readonly number[];
  featured?: boolean;
  include?: readonly number[];
  parentId?: number;
  /** Leave out events flagged hide_from_listings. */
  excludeHidden?: boolean;
  /** Only events whose venue has coordinates, optionally within a radius. */
  geo?: { near?: { lat: number; lng: number; radiusKm: number } };
  /** `start`: start ascending then id; `date`: publication date ascending then id. */
  orderBy: 'start' | 'date';
}

/** A venue or organizer list query. */
export interface LinkedPostQuery extends Paging {
  statuses: StatusFilter;
  /** Only records the caller may read (absent: all that `statuses` selects). */
  visibility?: ReadVisibility;
  search?: string;
  /** Linked to this event. */
  eventId?: number;
  /** true: linked to at least one event whose status is in `eventStatuses`; false: linked to none. */
  hasEvents?: boolean;
  eventStatuses?: readonly string[];
  /** Of those events, only the ones the caller may read count (absent: all of them). */
  eventVisibility?: ReadVisibility;
  /** Only those linked to an event (status in `eventStatuses`) ending at or after this UTC instant. */
  upcomingAfter?: WpDateTime;
  include?: readonly number[];
}

export type TermOrderBy = 'name' | 'id' | 'slug' | 'count' | 'description' | 'term_group' | 'parent' | 'include' | 'none';

export interface TermQuery extends Paging {
  taxonomy: string;
  search?: string;
  include?: readonly number[];
  exclude?: readonly number[];
  slugs?: readonly string[];
  parentId?: number;
  /** Terms assigned to this object. */
  objectId?: number;
  /** Leave out terms no published object uses… */
  hideEmpty?: boolean;
  /** …unless (hierarchical taxonomies) one of their descendants is used. */
  hierarchical?: boolean;
  orderBy: TermOrderBy;
  order: 'asc' | 'desc';
}
