import { DateTime } from 'luxon';
import type { ArgValidator } from '../../../args/spec.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { intval, isEmpty, isNumeric } from '../../../http/php.js';
import { EVENT_TYPE, VENUE_TYPE } from '../constants.js';
import { dateOf } from '../format/memoized.js';
import { isText, listToArray } from '../validators.js';
import { canRead } from './access.js';
import type { PostTypeConfig } from './types.js';

/**
 * The instants a date input may name: from 0001-01-02 to 9999-12-30 (UTC), so that in any time zone, and snapped to
 * whole days, it stays within the years 1 to 9999 that both stores keep (PostgreSQL has no year 0; WordPress's
 * MySQL dates end in 9999).
 */
const EARLIEST = DateTime.utc(1, 1, 2).toMillis();
const LATEST = DateTime.utc(9999, 12, 30, 23, 59, 59).toMillis();

/**
 * TEC's is_time: a timestamp, or a string strtotime understands; and (siterest) within the years both stores
 * keep, so an absurd date is a 400 rather than a broken record (see docs/compatibility.md).
 */
export const isTime: ArgValidator = (value, { request }) => {
  if (!isNumeric(value) && typeof value !== 'string') return false;
  const parsed = dateOf(typeof value === 'number' ? value : String(value), 'UTC', request.site.now());
  if (!parsed) return false;
  const at = parsed.toMillis();
  return at >= EARLIEST && at <= LATEST;
};

/** PHP FILTER_VALIDATE_URL: a scheme and a host. */
function isUrl(value: unknown): boolean {
  if (typeof value !== 'string' || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) && (url.hostname !== '' || url.protocol === 'file:');
  } catch {
    return false;
  }
}

export const isUrlOrEmpty: ArgValidator = (value) => isEmpty(value) || isUrl(value);

export const isStringOrEmpty: ArgValidator = (value) => isEmpty(value) || isText(value);

export { isImage, isImageOrEmpty } from './images.js';

/** Whether the caller may read the post `id` names as a post of `type`. */
async function isReadablePostOf(request: ApiRequest, value: unknown, type: PostTypeConfig): Promise<boolean> {
  if (!isNumeric(value)) return false;
  const id = intval(value);
  if (id <= 0) return false;
  const store = request.site.store;
  const post =
    type.type === EVENT_TYPE ? await store.events.get(id) : type.type === VENUE_TYPE ? await store.venues.get(id) : await store.organizers.get(id);
  return post !== null && post.type === type.type && canRead(request, type, post);
}

/**
 * Ids that filter a list (`post_parent`, `event`, `venue`, `organizer`): each must name a post of the type
 * that the caller may read. A post they may not read is treated as one that does not exist, so the filter
 * neither reveals it nor lists what it links to (TEC only checks that the post exists).
 */
export function isReadableIdListOf(type: PostTypeConfig): ArgValidator {
  return async (value, { request }) => {
    const ids = listToArray(value);
    if (!ids.length) return false;
    for (const id of ids) if (!(await isReadablePostOf(request, id, type))) return false;
    return true;
  };
}

export function isReadableIdOf(type: PostTypeConfig): ArgValidator {
  return (value, { request }) => !isEmpty(value) && isReadablePostOf(request, value, type);
}
