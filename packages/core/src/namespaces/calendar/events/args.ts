import type { ArgSpec, ArgValidator } from '../../../args/spec.js';
import { isEmpty, isNumeric, isPlainObject } from '../../../http/php.js';
import { formatWpDate } from '../../../time.js';
import { siteZone } from '../../../settings.js';
import { CATEGORY_TAXONOMY, EVENT_TYPE, TAG_TAXONOMY } from '../constants.js';
import { calendarErrors } from '../errors.js';
import { isValidTimezone } from '../format/index.js';
import { isPostStatus, statusListValidator } from '../posts/status.js';
import { isImage, isReadableIdListOf, isReadableIdOf, isTime, isUrlOrEmpty } from '../posts/validators.js';
import { ORGANIZERS, VENUES } from '../linked/kinds.js';
import { sanitizePerPage } from '../terms/routes.js';
import {
  isEventSlug,
  isIdListOf,
  isPositiveInt,
  isString,
  isTermOf,
  isUserId,
  listToArray,
} from '../validators.js';
import { ORGANIZER_TYPE, VENUE_TYPE } from '../constants.js';
import { EVENTS } from './kind.js';

/** TEC's is_positive_int_list. */
const isPositiveIntList: ArgValidator = (value) => {
  const items = listToArray(value);
  return items.length > 0 && items.every((item) => isNumeric(item) && Number(item) > 0 && Number.isInteger(Number(item)));
};

/** Without Event Tickets, asking for ticketed events is refused (TEC supports_ticketed). */
const supportsTicketed: ArgValidator = (value) => {
  const asked = value === true || (typeof value === 'string' && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase()));
  return asked ? calendarErrors.ticketsNotActive() : true;
};

const isTimezoneOrEmpty: ArgValidator = (value) => isEmpty(value) || (typeof value === 'string' && isValidTimezone(value));

/** A venue given as an id, `{ id }` or an object of venue fields (TEC is_venue_id_or_entry). */
const isVenueIdOrEntry: ArgValidator = async (value, ctx) => {
  if (isEmpty(value)) return true;
  if (isNumeric(value)) return isIdListOf(VENUE_TYPE)(value, ctx);
  if (Array.isArray(value)) return value.length <= 1 && (value.length === 0 || isVenueIdOrEntry(value[0], ctx));
  return isPlainObject(value);
};

/** Organizers as an id, CSV of ids, or a list of ids, `{ id }` objects and objects of organizer fields. */
const isOrganizerIdOrEntry: ArgValidator = async (value, ctx) => {
  if (isEmpty(value)) return true;
  const items = Array.isArray(value) ? value : isPlainObject(value) ? [value] : listToArray(value);
  for (const item of items) {
    if (isPlainObject(item)) continue;
    if (!isNumeric(item) || !(await isIdListOf(ORGANIZER_TYPE)(item, ctx))) return false;
  }
  return true;
};

/** `GET /events`, declared as TEC registers it. */
export const listArgs: Record<string, ArgSpec> = {
  page: { default: 1, description: 'The archive page to return', type: 'integer', validate: isPositiveInt },
  per_page: {
    default: '10',
    defaultFrom: (site) => String(site.settings.posts_per_page || 20),
    description: 'The number of events to return on each page',
    type: 'integer',
    validate: isPositiveInt,
    sanitize: sanitizePerPage,
  },
  start_date: {
    default: '',
    // TEC: "yesterday 23:59" read in UTC (PHP's default zone), then shown in the site's zone.
    defaultFrom: (site) => {
      const yesterday = formatWpDate(site.now() - 86_400_000, 'UTC').slice(0, 10);
      return formatWpDate(Date.parse(`${yesterday}T23:59:00Z`), siteZone(site.settings));
    },
    description: 'Events that start on the specified date',
    validate: isTime,
  },
  end_date: {
    default: '',
    // TEC: now + 24 months, formatted in UTC (PHP's date()).
    defaultFrom: (site) => {
      const now = new Date(site.now());
      now.setUTCMonth(now.getUTCMonth() + 24);
      return formatWpDate(now.getTime(), 'UTC');
    },
    description: 'Events that end on the specified date',
    validate: isTime,
  },
  starts_before: { description: 'Events that start before the specified date', validate: isTime },
  starts_after: { description: 'Events that start after the specified date', validate: isTime },
  ends_before: { description: 'Events that end before the specified date', validate: isTime },
  ends_after: { description: 'Events that end after the specified date', validate: isTime },
  strict_dates: {
    default: 'false',
    description:
      'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.',
    validate: isString,
  },
  search: { description: 'Events should contain the specified string in the title or description', type: 'string', validate: isString },
  categories: {
    description: 'Events should be assigned one of the specified categories slugs or IDs',
    items: { type: 'integer' },
    validate: isTermOf(CATEGORY_TAXONOMY),
  },
  tags: { description: 'Events should be assigned one of the specified tags slugs or IDs', items: { type: 'integer' }, validate: isTermOf(TAG_TAXONOMY) },
  venue: { description: 'Events should be assigned one of the specified venue IDs', items: { type: 'integer' }, validate: isReadableIdListOf(VENUES) },
  organizer: {
    description: 'Events should be assigned one of the specified organizer IDs',
    items: { type: 'integer' },
    validate: isReadableIdListOf(ORGANIZERS),
  },
  featured: { type: 'boolean', description: 'Events should be filtered by their featured status' },
  status: { format: 'string', description: 'The event post status', validate: statusListValidator(EVENTS) },
  geoloc: {
    type: 'boolean',
    description: 'Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data',
  },
  geoloc_lat: {
    format: 'double',
    description: 'Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng',
  },
  geoloc_lng: {
    format: 'double',
    description: 'Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat',
  },
  include: {
    description: 'Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.',
    items: { type: 'integer' },
    validate: isPositiveIntList,
    sanitize: (value) => listToArray(value),
  },
  post_parent: {
    type: 'integer',
    description: 'Events should be filtered by their post_parent being the specified one.',
    validate: isReadableIdOf(EVENTS),
  },
  ticketed: { type: 'boolean', description: 'Filter events with or without tickets.', validate: supportsTicketed },
};

/** The fields of an event write (create requires title and dates; updates none of them). */
export const createArgs: Record<string, ArgSpec> = {
  author: { type: 'integer', description: 'The event author ID', validate: isUserId },
  date: { type: 'string', description: 'The event publication date', validate: isTime },
  date_utc: { type: 'string', description: 'The event publication date (UTC time zone)', validate: isTime },
  title: { type: 'string', description: 'The event title', required: true, validate: isString },
  description: { type: 'string', description: 'The event description', validate: isString },
  slug: { type: 'string', description: 'The event slug', validate: isString },
  excerpt: { type: 'string', description: 'The event excerpt', validate: isString },
  status: { type: 'string', description: 'The event post status', validate: isPostStatus },
  timezone: { type: 'string', description: 'The event time zone', validate: isTimezoneOrEmpty },
  all_day: { default: false, type: 'boolean', description: 'Whether the event lasts the whole day or not' },
  start_date: { type: 'string', description: 'The event start date and time', required: true, validate: isTime },
  end_date: { type: 'string', description: 'The event end date and time', required: true, validate: isTime },
  image: { type: 'string', description: 'The event featured image ID or URL', validate: isImage },
  cost: { description: 'The event cost' },
  website: { default: null, description: 'The event website URL', validate: isUrlOrEmpty },
  show_map: { type: 'boolean', description: 'Whether the event should show a map or not' },
  show_map_link: { type: 'boolean', description: 'Whether the event should show a map link or not' },
  hide_from_listings: { type: 'boolean', description: 'Whether events should be hidden in the calendar view or not' },
  sticky: { type: 'boolean', description: 'Whether the event should be sticky in the calendar view or not' },
  featured: { type: 'boolean', description: 'Whether the event should be featured on the site or not' },
  categories: { default: null, items: { type: 'integer' }, description: 'The event category ID or name' },
  tags: { default: null, items: { type: 'integer' }, description: 'The event tag ID or name' },
  venue: { default: null, items: { type: 'integer' }, description: 'The event venue IDs or data', validate: isVenueIdOrEntry },
  organizer: { default: null, items: { type: 'integer' }, description: 'The event organizer IDs or data', validate: isOrganizerIdOrEntry },
};

export const idArg: ArgSpec = { in: 'path', type: 'integer', description: 'the event post ID', required: true };
export const passwordArg: ArgSpec = { in: 'query', type: 'string', description: 'The event password' };
export const slugArg: ArgSpec = { in: 'path', type: 'string', description: 'the event post name', required: true, validate: isEventSlug };

export function unrequired(args: Record<string, ArgSpec>): Record<string, ArgSpec> {
  return Object.fromEntries(Object.entries(args).map(([name, spec]) => [name, { ...spec, required: false }]));
}

/** The by-slug update takes the slug as an ordinary, optional field first (as upstream registers it). */
export const updateBySlugArgs: Record<string, ArgSpec> = (() => {
  const { slug, ...rest } = unrequired(createArgs);
  return { slug: { ...slug!, validate: isString }, ...Object.fromEntries(Object.entries(rest)) };
})();

export { EVENT_TYPE };
