import type { Zone } from 'luxon';
import type { ApiRequest } from '../../../http/api-request.js';
import { intval } from '../../../http/php.js';
import { siteZone } from '../../../settings.js';
import type { EventQuery, StatusFilter } from '../../../store/queries.js';
import { CATEGORY_TAXONOMY, CALENDAR_NAMESPACE, TAG_TAXONOMY } from '../constants.js';
import { wallClockToUtc } from '../../../time.js';
import { utcDayOf, wallClockOf } from '../format/memoized.js';
import { isTruthy } from '../posts/inputs.js';
import { addQueryArgs, phpUrlencode, withQueryValues, type QueryValue } from '../posts/rest-url.js';
import { readVisibility } from '../posts/access.js';
import { allowedStatuses } from '../posts/status.js';
import { findTerms, listToArray } from '../validators.js';
import { andThen, type Maybe } from '../../../util/maybe.js';
import { EVENTS } from './kind.js';

/** TEC Pro's default geofence around `geoloc_lat`/`geoloc_lng`, in kilometres. */
const GEOFENCE_KM = 25;

export interface EventListPlan {
  query: EventQuery;
  restUrl: string;
  page: number;
  perPage: number;
}

/** TEC's bounds relative to one date, in the order it reads them. */
const RELATIVE_BOUNDS = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/** The keys of TEC's `rest_url` for a list, in its order (planEventList gives their values). */
const REST_URL_KEYS = [
  'page',
  'per_page',
  'start_date',
  'end_date',
  'search',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'status',
  'post_parent',
  'include',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'ticketed',
] as const;

// planEventList's helpers live here rather than as closures over the request, which it made anew for every list.
const idList = (value: unknown) => listToArray(value).map(Number);
const utcOf = (local: string | undefined, zone: Zone) => (local ? wallClockToUtc(local, zone) : undefined);
const maxOf = (a?: string, b?: string) => (a && b ? (a > b ? a : b) : (a ?? b));
const minOf = (a?: string, b?: string) => (a && b ? (a < b ? a : b) : (a ?? b));

/** PHP FILTER_VALIDATE_BOOLEAN. */
function filterBoolean(value: unknown): boolean {
  return ['1', 'true', 'on', 'yes'].includes(String(value).trim().toLowerCase()) || value === true;
}

/**
 * Turns `GET /events` parameters into a store query and TEC's `rest_url`, following Archive_Event: dates are
 * read as PHP does (strings in UTC, then shown in the site's zone), snapped to whole days unless
 * `strict_dates`, the default window dropped when only `starts_*`/`ends_*` are given, and every date filter
 * ignored for `include`.
 */
export function planEventList(request: ApiRequest): Maybe<EventListPlan> {
  const site = request.site;
  const zone = siteZone(site.settings);
  const now = site.now();

  const page = intval(request.get('page')) || 1;
  const perPage = intval(request.get('per_page')) || site.settings.posts_per_page || 10;
  const inclusive = request.has('strict_dates') ? !filterBoolean(request.get('strict_dates')) : true;

  const bounds: Record<'starts_before' | 'starts_after' | 'ends_before' | 'ends_after', string | undefined> = {
    starts_before: undefined,
    starts_after: undefined,
    ends_before: undefined,
    ends_after: undefined,
  };
  let relative = false;
  for (let i = 0; i < RELATIVE_BOUNDS.length; i++) {
    const name = RELATIVE_BOUNDS[i]!;
    if (!request.has(name)) continue;
    relative = true;
    bounds[name] = inclusive ? `${utcDayOf(request.get(name), now)} 23:59:59` : wallClockOf(request.get(name), zone, now);
  }
  let startDate: string | undefined = request.has('start_date') ? wallClockOf(request.get('start_date'), zone, now) : undefined;
  let endDate: string | undefined = request.has('end_date') ? wallClockOf(request.get('end_date'), zone, now) : undefined;
  if (inclusive) {
    if (startDate) startDate = `${utcDayOf(request.get('start_date'), now)} 00:00:00`;
    if (endDate) endDate = `${utcDayOf(request.get('end_date'), now)} 23:59:59`;
  }
  const include = request.has('include') ? listToArray(request.get('include')).map(Number) : undefined;
  if (include) {
    // TEC unsets the dates, then its defaults put the raw default values back (only shown in rest_url).
    startDate = String(request.get('start_date') ?? '');
    endDate = String(request.get('end_date') ?? '');
  }
  if (relative) {
    const query = request.queryParams();
    if (query.start_date === undefined) startDate = undefined;
    if (query.end_date === undefined) endDate = undefined;
  }

  let statuses: StatusFilter;
  let statusForUrl: QueryValue;
  if (request.has('status')) {
    statuses = allowedStatuses(request, EVENTS, request.get('status')) ?? ['publish'];
    statusForUrl = [...statuses];
  } else {
    statuses = request.can(EVENTS.caps.edit_posts) ? 'any' : ['publish'];
    statusForUrl = statuses === 'any' ? 'any' : 'publish';
  }

  const geoloc = isTruthy(request.get('geoloc')) || request.get('geoloc') === true;
  const lat = Number(request.get('geoloc_lat'));
  const lng = Number(request.get('geoloc_lng'));

  // The terms a list names, categories before tags (each lookup waits only where the store makes it).
  const categories = request.has('categories') ? findTerms(request, CATEGORY_TAXONOMY, listToArray(request.get('categories'))) : undefined;
  return andThen(categories, (categoryIds) =>
    andThen(request.has('tags') ? findTerms(request, TAG_TAXONOMY, listToArray(request.get('tags'))) : undefined, (tagIds) => {
      const query: EventQuery = {
        statuses,
        visibility: readVisibility(request.principal, EVENTS.caps, statuses),
        search: request.has('search') ? String(request.get('search')) : undefined,
        categoryIds,
        tagIds,
        venueIds: request.has('venue') ? idList(request.get('venue')) : undefined,
        organizerIds: request.has('organizer') ? idList(request.get('organizer')) : undefined,
        featured: request.has('featured') ? request.get('featured') === true : undefined,
        include,
        parentId: request.has('post_parent') ? intval(request.get('post_parent')) : undefined,
        excludeHidden: true,
        geo: geoloc
          ? Number.isFinite(lat) && Number.isFinite(lng) && request.has('geoloc_lat') && request.has('geoloc_lng')
            ? { near: { lat, lng, radiusKm: GEOFENCE_KM } }
            : {}
          : undefined,
        orderBy: include ? 'date' : 'start',
        offset: (page - 1) * perPage,
        limit: perPage,
      };
      if (!include) {
        query.startsAfter = maxOf(utcOf(startDate, zone), utcOf(bounds.starts_after, zone));
        query.startsBefore = utcOf(bounds.starts_before, zone);
        query.endsAfter = utcOf(bounds.ends_after, zone);
        query.endsBefore = minOf(utcOf(endDate, zone), utcOf(bounds.ends_before, zone));
      }

      let restUrl = withQueryValues(request.restUrl(`${CALENDAR_NAMESPACE}/events/`), REST_URL_KEYS, [
        page,
        perPage,
        startDate,
        endDate,
        // URL-encoded (TEC writes it raw): free text must not break out of the URL, and the paging links encode it too.
        request.has('search') ? phpUrlencode(String(request.get('search'))) : null,
        geoloc ? 1 : null,
        geoloc ? String(request.get('geoloc_lat') ?? '') : null,
        geoloc ? String(request.get('geoloc_lng') ?? '') : null,
        statusForUrl,
        request.has('post_parent') ? intval(request.get('post_parent')) : null,
        include ?? null,
        bounds.starts_before,
        bounds.starts_after,
        bounds.ends_before,
        bounds.ends_after,
        request.has('ticketed') ? request.get('ticketed') === true : null,
      ]);
      const extra: Array<[string, QueryValue]> = [];
      if (request.has('venue')) extra.push(['venue', idList(request.get('venue'))]);
      if (request.has('organizer')) extra.push(['organizer', idList(request.get('organizer'))]);
      if (request.has('featured')) extra.push(['featured', request.get('featured') === true]);
      if (extra.length) restUrl = addQueryArgs(restUrl, extra);
      return { query, restUrl, page, perPage };
    }),
  );
}
