import type { ArgValidator } from '../../../args/spec.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { isEmpty } from '../../../http/php.js';
import { EVENT_CAPS } from '../constants.js';
import type { PostTypeConfig } from './types.js';
import { listToArray } from '../validators.js';

/** Every post status WordPress registers (get_post_stati). */
const REGISTERED_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
];

export const isPostStatus: ArgValidator = (value) =>
  !isEmpty(value) && typeof value === 'string' && REGISTERED_STATUSES.includes(value);

/**
 * TEC's filter_post_status_list: anonymous callers may only ask for `publish`; editors of the type for any
 * registered statuses. Returns the statuses, or null when the request is not allowed.
 */
export function allowedStatuses(request: ApiRequest, type: PostTypeConfig, value: unknown): string[] | null {
  const statuses = listToArray(value).map(String);
  if (!request.can(type.caps.edit_posts)) return statuses.length === 1 && statuses[0] === 'publish' ? statuses : null;
  return statuses.every((s) => REGISTERED_STATUSES.includes(s)) ? statuses : null;
}

export function statusListValidator(type: PostTypeConfig): ArgValidator {
  return (value, { request }) => allowedStatuses(request, type, value) !== null;
}

/**
 * TEC's scale_back_post_status: who may publish gets the requested status (publish by default); others get
 * pending instead of publish/future, draft by default. Venues and organizers ask the events' cap, as upstream.
 */
export function scaleBackStatus(request: ApiRequest, requested: string | undefined): string {
  if (request.can(EVENT_CAPS.publish_posts)) return requested || 'publish';
  if (requested === 'publish' || requested === 'future') return 'pending';
  return requested || 'draft';
}
