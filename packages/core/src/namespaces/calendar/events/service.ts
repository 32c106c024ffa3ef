import { coreErrors } from '../../../http/errors.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { siteZone } from '../../../settings.js';
import type { EventFields, EventRecord, NewEvent } from '../../../store/records.js';
import { urlWithAllowedProtocol } from '../../../text/kses-protocols.js';
import { ksesShort } from '../../../text/sanitize.js';
import { allDayBounds, isValidTimezone, parseCostInput, parseDateInput, siteTimezoneName, zoneOf } from '../format/index.js';
import { wallClockToUtc, WP_FORMAT } from '../../../time.js';
import { ORGANIZERS, VENUES } from '../linked/kinds.js';
import { insertOrganizers, insertVenue } from '../linked/inline.js';
import { filteredContent } from '../linked/service.js';
import { datesForNewPost, datesForUpdate, scheduleStatus } from '../posts/dates.js';
import { requestedImage } from '../posts/images.js';
import { flag, optionalString, requestedAuthor, requestedDates } from '../posts/inputs.js';
import { postSlug, trashedSlug, untrashedSlug } from '../posts/slugs.js';
import { scaleBackStatus } from '../posts/status.js';
import { CATEGORIES, TAGS } from '../terms/taxonomies.js';
import { EVENT_TYPE } from './args.js';
import { termIdsForEvent } from './terms.js';


interface EventSchedule {
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
  timezone: string;
  allDay: boolean;
}

/**
 * Start, end, zone and all-day of an event write. Dates without an offset are wall clock time in the event's
 * zone (or the site's); dates with an offset or timestamps are converted into it. All-day events span whole
 * days; an end before the start becomes the start (TEC does not refuse it).
 */
function schedule(request: ApiRequest, current: EventRecord | null): EventSchedule {
  const settings = request.site.settings;
  const given = optionalString(request, 'timezone');
  const timezone = given !== undefined ? given || siteTimezoneName(settings) : (current?.timezone || siteTimezoneName(settings));
  const zone = zoneOf(isValidTimezone(timezone) ? timezone : 'UTC');
  const now = request.site.now();
  const read = (name: 'start_date' | 'end_date', fallback: string | undefined): string => {
    if (!request.provided(name)) return fallback!;
    const parsed = parseDateInput(request.get(name), zone, now);
    // The arg validator accepted it, so it parses; fall back defensively.
    return parsed ? parsed.setZone(zone).toFormat(WP_FORMAT) : fallback ?? '';
  };
  let start = read('start_date', current?.startDate);
  let end = read('end_date', current?.endDate);
  const allDay = request.provided('all_day') ? request.get('all_day') === true : (current?.allDay ?? false);
  if (allDay) ({ start, end } = allDayBounds(start, end));
  if (end < start) end = start;
  return {
    startDate: start,
    endDate: end,
    startDateUtc: wallClockToUtc(start, zoneOf(isValidTimezone(timezone) ? timezone : 'UTC')),
    endDateUtc: wallClockToUtc(end, zoneOf(isValidTimezone(timezone) ? timezone : 'UTC')),
    timezone,
    allDay,
  };
}

/** PHP FILTER_SANITIZE_URL: only characters a URL may contain; and, as esc_url_raw, only an allowed scheme. */
function sanitizeUrl(value: string): string {
  return urlWithAllowedProtocol(value.replace(/[^A-Za-z0-9$\-_.+!*'(),{}|\\^~[\]`<>#%";/?:@&=]/g, ''));
}

function costFields(request: ApiRequest): Pick<EventFields, 'cost' | 'currencySymbol' | 'currencyCode' | 'currencyPosition'> | undefined {
  if (!request.provided('cost')) return undefined;
  const parsed = parseCostInput(request.get('cost'));
  if (!parsed) throw coreErrors.invalidParams({ cost: 'Invalid parameter.' }, {});
  return {
    cost: parsed.rows,
    currencySymbol: parsed.currencySymbol,
    currencyCode: parsed.currencyCode,
    currencyPosition: parsed.currencyPosition,
  };
}

function titleFor(request: ApiRequest, raw: string): string {
  const title = raw.trim();
  return request.can('unfiltered_html') ? title : ksesShort(title);
}

/** Creates an event with its inline venue, organizers and new terms, all or nothing. */
export async function createEvent(request: ApiRequest): Promise<EventRecord> {
  const site = request.site;
  // A URL image is fetched and processed before the transaction, so no lock is held meanwhile.
  const imageId = await requestedImage(request);
  return site.store.transaction(async (store) => {
    const title = titleFor(request, String(request.get('title')));
    const status = scaleBackStatus(request, optionalString(request, 'status'));
    const dates = datesForNewPost(requestedDates(request), status, site.now(), siteZone(site.settings));
    const categoryIds = request.has('categories') ? await termIdsForEvent(request, store, CATEGORIES, request.get('categories')) : [];
    const tagIds = request.has('tags') ? await termIdsForEvent(request, store, TAGS, request.get('tags')) : [];
    const venueId = request.has('venue') ? await insertVenue(request, store, VENUES, request.get('venue')) : null;
    const organizerIds = request.has('organizer') ? await insertOrganizers(request, store, ORGANIZERS, request.get('organizer')) : [];
    const website = optionalString(request, 'website');
    const event: NewEvent = {
      type: EVENT_TYPE,
      status: scheduleStatus(status, dates.dateGmt, site.now()),
      authorId: requestedAuthor(request),
      title,
      content: filteredContent(request, optionalString(request, 'description') ?? ''),
      excerpt: filteredContent(request, optionalString(request, 'excerpt') ?? ''),
      slug: await postSlug(store, EVENT_TYPE, optionalString(request, 'slug'), title, status),
      password: '',
      parentId: 0,
      menuOrder: flag(request, 'sticky') ? -1 : 0,
      ...dates,
      trashedFrom: null,
      imageId: imageId ?? 0,
      ...schedule(request, null),
      cost: [],
      currencySymbol: '',
      currencyCode: '',
      currencyPosition: '',
      ...costFields(request),
      website: website ? sanitizeUrl(website) : null,
      showMap: flag(request, 'show_map') ?? false,
      showMapLink: flag(request, 'show_map_link') ?? false,
      hideFromListings: flag(request, 'hide_from_listings') ?? false,
      featured: flag(request, 'featured') ?? false,
      venueIds: venueId === null ? [] : [venueId],
      organizerIds,
      categoryIds,
      tagIds,
    };
    return store.events.create(event);
  });
}

/**
 * Updates what the request names and nothing else (upstream resets omitted flags, website, organizers and the
 * publication date; see docs/compatibility.md).
 */
export async function updateEvent(request: ApiRequest, current: EventRecord): Promise<EventRecord> {
  const site = request.site;
  const imageId = await requestedImage(request);
  return site.store.transaction(async (store) => {
    const patch: Partial<EventRecord> = {};
    if (imageId !== undefined) patch.imageId = imageId;
    if (request.provided('title')) patch.title = titleFor(request, String(request.get('title')));
    if (request.provided('description')) patch.content = filteredContent(request, String(request.get('description')));
    if (request.provided('excerpt')) patch.excerpt = filteredContent(request, String(request.get('excerpt')));
    if (request.provided('author')) patch.authorId = requestedAuthor(request);
    const status = request.provided('status') ? scaleBackStatus(request, optionalString(request, 'status')) : current.status;
    const dates = datesForUpdate(current, requestedDates(request), status, site.now(), siteZone(site.settings));
    Object.assign(patch, dates);
    patch.status = scheduleStatus(status, dates.dateGmt, site.now());
    const title = patch.title ?? current.title;
    const restored = await untrashedSlug(store, EVENT_TYPE, current, patch.status);
    if (restored !== undefined) patch.slug = restored;
    else if (request.provided('slug')) patch.slug = await postSlug(store, EVENT_TYPE, optionalString(request, 'slug'), title, patch.status, current.id);
    else if (!current.slug) patch.slug = await postSlug(store, EVENT_TYPE, undefined, title, patch.status, current.id);
    if (['start_date', 'end_date', 'timezone', 'all_day'].some((name) => request.provided(name))) Object.assign(patch, schedule(request, current));
    Object.assign(patch, costFields(request) ?? {});
    if (request.provided('website')) {
      const website = String(request.get('website') ?? '');
      patch.website = website ? sanitizeUrl(website) : '';
    }
    const flags: Array<[string, 'showMap' | 'showMapLink' | 'hideFromListings' | 'featured']> = [
      ['show_map', 'showMap'],
      ['show_map_link', 'showMapLink'],
      ['hide_from_listings', 'hideFromListings'],
      ['featured', 'featured'],
    ];
    for (const [param, field] of flags) {
      const value = flag(request, param);
      if (value !== undefined) patch[field] = value;
    }
    const sticky = flag(request, 'sticky');
    if (sticky !== undefined) patch.menuOrder = sticky ? -1 : 0;
    if (request.provided('categories')) patch.categoryIds = await termIdsForEvent(request, store, CATEGORIES, request.get('categories'));
    if (request.provided('tags')) patch.tagIds = await termIdsForEvent(request, store, TAGS, request.get('tags'));
    if (request.provided('venue')) {
      const venueId = await insertVenue(request, store, VENUES, request.get('venue'));
      patch.venueIds = venueId === null ? [] : [venueId];
    }
    if (request.provided('organizer')) patch.organizerIds = await insertOrganizers(request, store, ORGANIZERS, request.get('organizer'));
    return store.events.update(current.id, patch);
  });
}

/** wp_trash_post: never a hard delete. */
export async function trashEvent(request: ApiRequest, current: EventRecord): Promise<EventRecord> {
  const dates = datesForUpdate(current, {}, 'trash', request.site.now(), siteZone(request.site.settings));
  return request.site.store.events.update(current.id, {
    status: 'trash',
    trashedFrom: current.status,
    slug: trashedSlug(current.slug),
    modified: dates.modified,
    modifiedGmt: dates.modifiedGmt,
  });
}

