import type { WpDateTime } from './records.js';

/** Statuses a query accepts: a list, or `'any'` (all but trash and auto-draft, as WordPress). */
export type StatusFilter = readonly string[] | 'any';

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
  search?: string;
  /** Linked to this event. */
  eventId?: number;
  /** true: linked to at least one event whose status is in `eventStatuses`; false: linked to none. */
  hasEvents?: boolean;
  eventStatuses?: readonly string[];
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
