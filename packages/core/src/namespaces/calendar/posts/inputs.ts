import type { ApiRequest } from '../../../http/api-request.js';
import { intval, isNumeric, toBoolean } from '../../../http/php.js';
import { siteZone } from '../../../settings.js';
import { WP_FORMAT } from '../../../time.js';
import { parseDateInput } from '../format/index.js';
import type { DateInput } from './dates.js';

/** TEC's tribe_is_truthy: true, 1, and the strings "true", "yes", "1", "on". */
export function isTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1;
  if (typeof value === 'string') return ['true', 'yes', '1', 'on'].includes(value.trim().toLowerCase());
  return false;
}

/** Reads an optional flag that may come as a JSON boolean or a string. */
export function flag(request: ApiRequest, name: string): boolean | undefined {
  if (!request.provided(name)) return undefined;
  const value = request.get(name);
  return typeof value === 'boolean' ? value : toBoolean(value);
}


/** The publication dates a request asks for (`date` in the site's zone, `date_utc` in UTC). */
export function requestedDates(request: ApiRequest): DateInput {
  const zone = siteZone(request.site.settings);
  const out: DateInput = {};
  if (request.provided('date')) {
    const parsed = parseDateInput(request.get('date'), zone, request.site.now());
    if (parsed) out.date = parsed.setZone(zone).toFormat(WP_FORMAT);
  }
  if (request.provided('date_utc')) {
    const parsed = parseDateInput(request.get('date_utc'), 'UTC', request.site.now());
    if (parsed) out.dateGmt = parsed.toUTC().toFormat(WP_FORMAT);
  }
  return out;
}

/** `author` when given (validated as an existing user), else the caller. */
export function requestedAuthor(request: ApiRequest): number {
  const author = request.get('author');
  return author !== undefined && isNumeric(author) ? intval(author) : (request.principal?.id ?? 0);
}

export function optionalString(request: ApiRequest, name: string): string | undefined {
  return request.provided(name) ? String(request.get(name) ?? '') : undefined;
}
