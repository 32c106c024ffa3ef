import type { SiteSettings } from '../../../settings.js';
import type { EventRecord, OrganizerRecord, TermRecord, VenueRecord } from '../../../store/records.js';
import type { SiteStore } from '../../../store/repositories.js';
import { dateDetails } from '../../../time.js';
import { CALENDAR_NAMESPACE } from '../constants.js';
import { eventJsonLd, timezoneAbbr } from '../format/index.js';
import { contentOf, costDetailsOf, costOf, excerptOf, titleOf } from '../format/memoized.js';
import { ORGANIZERS, VENUES } from '../linked/kinds.js';
import { serializeLinked } from '../linked/serialize.js';
import { globalId, permalink } from '../posts/permalinks.js';
import { serializeEmbeddedTerm } from '../terms/serialize.js';
import type { MediaLibrary } from '../../../media/library.js';
import type { AttachmentRecord } from '../../../store/media-records.js';
import { imageObject, imagesOf } from '../posts/images.js';
import { EVENTS } from './kind.js';

/** Records an event's wire shape needs besides the event: its terms, venue and organizers. */
export interface EventRelations {
  terms: Map<number, TermRecord>;
  venues: Map<number, VenueRecord>;
  organizers: Map<number, OrganizerRecord>;
  /** Featured images of the events and of their venues and organizers. */
  images: Map<number, AttachmentRecord>;
}

/** Loads what a page of events links to in three store calls, not three per event. */
export async function loadRelations(store: SiteStore, events: readonly EventRecord[]): Promise<EventRelations> {
  const venueIds = new Set<number>();
  const organizerIds = new Set<number>();
  for (const event of events) {
    for (const id of event.venueIds) venueIds.add(id);
    for (const id of event.organizerIds) organizerIds.add(id);
  }
  const [terms, venues, organizers] = await Promise.all([
    termsOf(store, events),
    venueIds.size ? store.venues.getMany([...venueIds]) : [],
    organizerIds.size ? store.organizers.getMany([...organizerIds]) : [],
  ]);
  return withImages(store, events, terms, new Map(venues.map((v) => [v.id, v])), new Map(organizers.map((o) => [o.id, o])));
}

/**
 * What a page of events links to, its venues and organizers already read: the terms and images are loaded. An
 * event list keyed by how its caller sees those records builds from them, not from a second read that may find
 * them changed (routes.ts).
 */
export async function relationsWith(
  store: SiteStore,
  events: readonly EventRecord[],
  venues: Map<number, VenueRecord>,
  organizers: Map<number, OrganizerRecord>,
): Promise<EventRelations> {
  return withImages(store, events, await termsOf(store, events), venues, organizers);
}

async function termsOf(store: SiteStore, events: readonly EventRecord[]): Promise<TermRecord[]> {
  const termIds = new Set<number>();
  for (const event of events) {
    for (const id of event.categoryIds) termIds.add(id);
    for (const id of event.tagIds) termIds.add(id);
  }
  return termIds.size ? store.terms.getMany([...termIds]) : [];
}

async function withImages(
  store: SiteStore,
  events: readonly EventRecord[],
  terms: readonly TermRecord[],
  venues: Map<number, VenueRecord>,
  organizers: Map<number, OrganizerRecord>,
): Promise<EventRelations> {
  return {
    terms: new Map(terms.map((t) => [t.id, t])),
    venues,
    organizers,
    images: await imagesOf(store, [...events, ...venues.values(), ...organizers.values()]),
  };
}

export interface EventSerializeOptions {
  settings: SiteSettings;
  apiRoot: string;
  /** Single reads (GET by id or slug) carry schema.org data. */
  withJsonLd: boolean;
  /** The caller may not see a password-protected event's content. */
  redact: boolean;
  /** Whether the caller may see a linked venue/organizer's content (password protection). */
  linkedUnlocked: (record: VenueRecord | OrganizerRecord) => boolean;
  /** Builds the `image` objects; without it every `image` is false. */
  media?: MediaLibrary;
}

/** Terms of one taxonomy on an event, ordered by name as WordPress returns them. */
function embeddedTerms(ids: readonly number[], relations: EventRelations, apiRoot: string): Array<Record<string, unknown>> {
  return ids
    .map((id) => relations.terms.get(id))
    .filter((t): t is TermRecord => t !== undefined)
    .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.id - b.id))
    .map((term) => serializeEmbeddedTerm(term, apiRoot));
}

/** An event as TEC's repository puts it on the wire, key order included. */
export function serializeEvent(event: EventRecord, relations: EventRelations, options: EventSerializeOptions): Record<string, unknown> {
  const { settings, apiRoot, redact } = options;
  const url = permalink(event, EVENTS, settings);
  const globalIdOfEvent = globalId(event.id, settings);
  const venues = event.venueIds.map((id) => relations.venues.get(id)).filter((v): v is VenueRecord => v !== undefined);
  const organizers = event.organizerIds
    .map((id) => relations.organizers.get(id))
    .filter((o): o is OrganizerRecord => o !== undefined);
  const imageOf = (imageId: number) => (options.media ? imageObject(options.media, relations.images, imageId) : false);
  const linked = (kind: typeof VENUES | typeof ORGANIZERS, record: VenueRecord | OrganizerRecord) =>
    serializeLinked(kind, record, { settings, withJsonLd: options.withJsonLd, redact: !options.linkedUnlocked(record), image: imageOf(record.imageId) });
  const image = redact ? false : imageOf(event.imageId);
  const meta = { currencySymbol: event.currencySymbol, currencyPosition: event.currencyPosition, currencyCode: event.currencyCode };
  const costs = event.cost;
  // One literal with every key (no spread): this runs for every event of a list (see linked/serialize.ts).
  const data: Record<string, unknown> = {
    id: event.id,
    global_id: globalIdOfEvent,
    global_id_lineage: [globalIdOfEvent],
    author: String(event.authorId),
    status: event.status,
    date: event.date,
    date_utc: event.dateGmt,
    modified: event.modified,
    modified_utc: event.modifiedGmt,
    url,
    rest_url: `${apiRoot}${CALENDAR_NAMESPACE}/events/${event.id}`,
    title: titleOf(event.title),
    description: redact ? '' : contentOf(event.content),
    excerpt: redact ? '' : excerptOf(event.excerpt),
    slug: event.slug,
    image,
    all_day: redact ? null : event.allDay,
    start_date: event.startDate,
    start_date_details: dateDetails(event.startDate),
    end_date: event.endDate,
    end_date_details: dateDetails(event.endDate),
    utc_start_date: event.startDateUtc,
    utc_start_date_details: dateDetails(event.startDateUtc),
    utc_end_date: event.endDateUtc,
    utc_end_date_details: dateDetails(event.endDateUtc),
    timezone: event.timezone,
    timezone_abbr: event.timezone ? timezoneAbbr(event.timezone, event.startDate, settings) : '',
    cost: redact ? '' : costOf(costs, meta, settings),
    cost_details: redact
      ? { currency_symbol: '', currency_position: '', currency_code: '', values: [] }
      : costDetailsOf(costs, meta),
    website: redact ? '' : event.website ?? url,
    show_map: redact ? null : event.showMap ?? true,
    show_map_link: redact ? null : event.showMapLink ?? true,
    hide_from_listings: redact ? null : event.hideFromListings,
    sticky: redact ? null : event.menuOrder === -1,
    featured: redact ? null : event.featured,
    categories: redact ? [] : embeddedTerms(event.categoryIds, relations, apiRoot),
    tags: redact ? [] : embeddedTerms(event.tagIds, relations, apiRoot),
    venue: redact || !venues.length ? [] : linked(VENUES, venues[0]!),
    organizer: redact ? [] : organizers.map((o) => linked(ORGANIZERS, o)),
    custom_fields: [],
  };
  if (options.withJsonLd) {
    const urlOf = (imageId: number) => {
      const found = imageOf(imageId);
      return found ? String(found.url) : null;
    };
    data.json_ld = eventJsonLd({
      event,
      permalink: url,
      settings,
      imageUrl: urlOf(event.imageId),
      // TEC's JSON-LD leaves out every post whose password is required (always, over REST: no cookie).
      venue: venues[0] ? (venues[0].password ? 'hidden' : { venue: venues[0], imageUrl: urlOf(venues[0].imageId) }) : null,
      organizer: organizers[0] ? (organizers[0].password ? 'hidden' : { organizer: organizers[0], imageUrl: urlOf(organizers[0].imageId) }) : null,
    });
  }
  return data;
}
