import { ApiError } from '../../../http/api-error.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { coreErrors } from '../../../http/errors.js';
import { intval, isEmpty, isNumeric, isPlainObject } from '../../../http/php.js';
import type { SiteStore } from '../../../store/repositories.js';
import { CALENDAR_NAMESPACE } from '../constants.js';
import { calendarErrors } from '../errors.js';
import { validatedSubRequest } from '../posts/sub-request.js';
import { listToArray } from '../validators.js';
import type { AnyLinkedKind } from './kinds.js';
import { createLinked } from './service.js';

/**
 * TEC's Linked_Post_Base::insert: a linked venue or organizer given in an event write, as an id, `{ id }`, or
 * an object of fields that creates one (or reuses a matching one) through the kind's own create route rules.
 */
async function insertOne(request: ApiRequest, store: SiteStore, kind: AnyLinkedKind, value: unknown): Promise<number> {
  if (isPlainObject(value) && !Object.hasOwn(value, 'id')) {
    if (!request.can(kind.caps.edit_posts)) throw coreErrors.forbidden(request.authorizationStatus);
    let sub: ApiRequest;
    try {
      sub = await validatedSubRequest(request, `/${CALENDAR_NAMESPACE}/${kind.plural}`, 'POST', value);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'rest_missing_callback_param') throw kind.errors.couldNotCreate();
      throw error;
    }
    return (await createLinked(sub, store, kind)).record.id;
  }
  const id = isPlainObject(value) ? value.id : value;
  if (!isNumeric(id) || (await store.posts.typeOf(intval(id))) !== kind.type) throw calendarErrors.invalidLinkedPostId();
  return intval(id);
}

/** The venue of an event write: null when the value is empty. */
export async function insertVenue(request: ApiRequest, store: SiteStore, kind: AnyLinkedKind, value: unknown): Promise<number | null> {
  if (isEmpty(value)) return null;
  return insertOne(request, store, kind, Array.isArray(value) ? value[0] : value);
}

/** The organizers of an event write: ids, a CSV of ids, or a list of ids, `{ id }` and field objects. */
export async function insertOrganizers(request: ApiRequest, store: SiteStore, kind: AnyLinkedKind, value: unknown): Promise<number[]> {
  if (isEmpty(value)) return [];
  const items = Array.isArray(value) ? value : isPlainObject(value) ? [value] : listToArray(value);
  const ids: number[] = [];
  for (const item of items) {
    const id = await insertOne(request, store, kind, item);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
