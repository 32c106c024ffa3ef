import type { ArgValidator } from '../../../args/spec.js';
import { isEmpty, isNumeric } from '../../../http/php.js';
import { dateOf } from '../format/memoized.js';

/** TEC's is_time: a timestamp, or a string strtotime understands. */
export const isTime: ArgValidator = (value, { request }) =>
  isNumeric(value) || (typeof value === 'string' && dateOf(value, 'UTC', request.site.now()) !== null);

/** PHP FILTER_VALIDATE_URL: a scheme and a host. */
export function isUrl(value: unknown): boolean {
  if (typeof value !== 'string' || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) && (url.hostname !== '' || url.protocol === 'file:');
  } catch {
    return false;
  }
}

export const isUrlOrEmpty: ArgValidator = (value) => isEmpty(value) || isUrl(value);

export const isStringOrEmpty: ArgValidator = (value) => isEmpty(value) || typeof value === 'string';

export { isImage, isImageOrEmpty } from './images.js';
