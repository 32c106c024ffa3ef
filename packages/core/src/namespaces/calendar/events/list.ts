import type { ApiRequest } from '../../../http/api-request.js';
import { intval } from '../../../http/php.js';
import { siteZone } from '../../../settings.js';
import type { EventQuery, StatusFilter } from '../../../store/queries.js';
import { CATEGORY_TAXONOMY, CALENDAR_NAMESPACE, TAG_TAXONOMY } from '../constants.js';
import { wallClockToUtc } from '../../../time.js';
import { utcDayOf, wallClockOf } from '../format/memoized.js';
import { isTruthy } from '../posts/inputs.js';
import { addQueryArgs, phpUrlencode, withQuery, type QueryValue } from '../posts/rest-url.js';
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
  const raw = (name: string) => request.get(name);
  const localize = (name: string) => wallClockOf(raw(name), zone, now);
  const day = (name: string) => utcDayOf(raw(name), now);

  const page = intval(raw('page')) || 1;
  const perPage = intval(raw('per_page')) || site.settings.posts_per_page || 10;
  const inclusive = request.has('strict_dates') ? !filterBoolean(raw('strict_dates')) : true;

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
    bounds[name] = inclusive ? `${day(name)} 23:59:59` : localize(name);
  }
  let startDate: string | undefined = request.has('start_date') ? localize('start_date') : undefined;
  let endDate: string | undefined = request.has('end_date') ? localize('end_date') : undefined;
  if (inclusive) {
    if (startDate) startDate = `${day('start_date')} 00:00:00`;
    if (endDate) endDate = `${day('end_date')} 23:59:59`;
  }
  const include = request.has('include') ? listToArray(raw('include')).map(Number) : undefined;
  if (include) {
    // TEC unsets the dates, then its defaults put the raw default values back (only shown in rest_url).
    startDate = String(raw('start_date') ?? '');
    endDate = String(raw('end_date') ?? '');
  }
  if (relative) {
    const query = request.queryParams();
    if (query.start_date === undefined) startDate = undefined;
    if (query.end_date === undefined) endDate = undefined;
  }

  let statuses: StatusFilter;
  let statusForUrl: QueryValue;
  if (request.has('status')) {
    statuses = allowedStatuses(request, EVENTS, raw('status')) ?? ['publish'];
    statusForUrl = [...statuses];
  } else {
    statuses = request.can(EVENTS.caps.edit_posts) ? 'any' : ['publish'];
    statusForUrl = statuses === 'any' ? 'any' : 'publish';
  }

  const idList = (value: unknown) => listToArray(value).map(Number);
  const geoloc = isTruthy(raw('geoloc')) || raw('geoloc') === true;
  const lat = Number(raw('geoloc_lat'));
  const lng = Number(raw('geoloc_lng'));
  const utc = (local: string | undefined) => (local ? wallClockToUtc(local, zone) : undefined);
  const maxOf = (a?: string, b?: string) => (a && b ? (a > b ? a : b) : (a ?? b));
  const minOf = (a?: string, b?: string) => (a && b ? (a < b ? a : b) : (a ?? b));

  // The terms a list names, categories before tags (each lookup waits only where the store makes it).
  const categories = request.has('categories') ? findTerms(request, CATEGORY_TAXONOMY, listToArray(raw('categories'))) : undefined;
  return andThen(categories, (categoryIds) =>
    andThen(request.has('tags') ? findTerms(request, TAG_TAXONOMY, listToArray(raw('tags'))) : undefined, (tagIds) => {
      const query: EventQuery = {
        statuses,
        visibility: readVisibility(request.principal, EVENTS.caps, statuses),
        search: request.has('search') ? String(raw('search')) : undefined,
        categoryIds,
        tagIds,
        venueIds: request.has('venue') ? idList(raw('venue')) : undefined,
        organizerIds: request.has('organizer') ? idList(raw('organizer')) : undefined,
        featured: request.has('featured') ? raw('featured') === true : undefined,
        include,
        parentId: request.has('post_parent') ? intval(raw('post_parent')) : undefined,
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
        query.startsAfter = maxOf(utc(startDate), utc(bounds.starts_after));
        query.startsBefore = utc(bounds.starts_before);
        query.endsAfter = utc(bounds.ends_after);
        query.endsBefore = minOf(utc(endDate), utc(bounds.ends_before));
      }

      let restUrl = withQuery(request.restUrl(`${CALENDAR_NAMESPACE}/events/`), [
        ['page', page],
        ['per_page', perPage],
        ['start_date', startDate],
        ['end_date', endDate],
        // URL-encoded (TEC writes it raw): free text must not break out of the URL, and the paging links encode it too.
        ['search', request.has('search') ? phpUrlencode(String(raw('search'))) : null],
        ['geoloc', geoloc ? 1 : null],
        ['geoloc_lat', geoloc ? String(raw('geoloc_lat') ?? '') : null],
        ['geoloc_lng', geoloc ? String(raw('geoloc_lng') ?? '') : null],
        ['status', statusForUrl],
        ['post_parent', request.has('post_parent') ? intval(raw('post_parent')) : null],
        ['include', include ?? null],
        ['starts_before', bounds.starts_before],
        ['starts_after', bounds.starts_after],
        ['ends_before', bounds.ends_before],
        ['ends_after', bounds.ends_after],
        ['ticketed', request.has('ticketed') ? raw('ticketed') === true : null],
      ]);
      const extra: Array<[string, QueryValue]> = [];
      if (request.has('venue')) extra.push(['venue', idList(raw('venue'))]);
      if (request.has('organizer')) extra.push(['organizer', idList(raw('organizer'))]);
      if (request.has('featured')) extra.push(['featured', raw('featured') === true]);
      if (extra.length) restUrl = addQueryArgs(restUrl, extra);
      return { query, restUrl, page, perPage };
    }),
  );
}
