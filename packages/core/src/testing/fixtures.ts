import type { NewEvent, NewOrganizer, NewPost, NewVenue } from '../store/records.js';
import type { EventRepository } from '../store/repositories.js';
import { CATEGORY_TAXONOMY, EVENT_TYPE, ORGANIZER_TYPE, TAG_TAXONOMY, VENUE_TYPE } from '../namespaces/calendar/constants.js';
import { ORGANIZERS, VENUES } from '../namespaces/calendar/linked/kinds.js';

/** Complete records for store tests: pass only what a test is about. */
function post(type: string, overrides: Partial<NewPost>): NewPost {
  return {
    type,
    status: 'publish',
    authorId: 1,
    title: 'Untitled',
    content: '',
    excerpt: '',
    slug: '',
    password: '',
    parentId: 0,
    menuOrder: 0,
    date: '2026-01-01 10:00:00',
    dateGmt: '2026-01-01 10:00:00',
    modified: '2026-01-01 10:00:00',
    modifiedGmt: '2026-01-01 10:00:00',
    trashedFrom: null,
    imageId: 0,
    ...overrides,
  };
}

export function newEvent(overrides: Partial<NewEvent> = {}): NewEvent {
  const start = overrides.startDateUtc ?? overrides.startDate ?? '2027-01-10 10:00:00';
  const end = overrides.endDateUtc ?? overrides.endDate ?? start;
  return {
    ...post(EVENT_TYPE, overrides),
    startDate: start,
    endDate: end,
    startDateUtc: start,
    endDateUtc: end,
    timezone: 'UTC',
    allDay: false,
    cost: [],
    currencySymbol: '',
    currencyCode: '',
    currencyPosition: '',
    website: null,
    showMap: null,
    showMapLink: null,
    hideFromListings: false,
    featured: false,
    venueIds: [],
    organizerIds: [],
    categoryIds: [],
    tagIds: [],
    ...overrides,
    type: EVENT_TYPE,
  };
}

export function newVenue(overrides: Partial<NewVenue> = {}): NewVenue {
  return { ...post(VENUE_TYPE, overrides), ...VENUES.blank(), ...overrides, type: VENUE_TYPE };
}

export function newOrganizer(overrides: Partial<NewOrganizer> = {}): NewOrganizer {
  return { ...post(ORGANIZER_TYPE, overrides), ...ORGANIZERS.blank(), ...overrides, type: ORGANIZER_TYPE };
}

export const taxonomies = { category: CATEGORY_TAXONOMY, tag: TAG_TAXONOMY } as const;

/**
 * Makes `events.list` give the event `eventId` the title `Renamed elsewhere` once `rename()` is called, at the same
 * change version, as after SQL run outside siterest. `afterRead` runs between reading the rows and returning them
 * (a slow read moves the clock on there). `restore()` puts the repository's list back.
 */
export function renamedOutside(events: EventRepository, eventId: number, afterRead?: () => void): { rename(): void; restore(): void } {
  const list = events.list;
  let renamed = false;
  events.list = async (query) => {
    const page = await list.call(events, query);
    afterRead?.();
    return renamed ? { ...page, items: page.items.map((item) => (item.id === eventId ? { ...item, title: 'Renamed elsewhere' } : item)) } : page;
  };
  return {
    rename: () => (renamed = true),
    restore: () => (events.list = list),
  };
}
