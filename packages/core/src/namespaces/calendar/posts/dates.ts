import type { Zone } from 'luxon';
import { formatWpDate, parseWpDate, WP_FORMAT } from '../../../time.js';
import { ZERO_DATE, type PostRecord } from '../../../store/records.js';

/** Statuses whose publication date floats until they are published (WordPress `date_floating`). */
const FLOATING = new Set(['draft', 'pending', 'auto-draft']);

export interface PostDates {
  date: string;
  dateGmt: string;
  modified: string;
  modifiedGmt: string;
}

export interface DateInput {
  /** Site-local publication date, already normalised to `YYYY-MM-DD HH:MM:SS`. */
  date?: string;
  /** UTC publication date, normalised likewise. */
  dateGmt?: string;
}

function toGmt(local: string, zone: Zone): string {
  return parseWpDate(local, zone)?.toUTC().toFormat(WP_FORMAT) ?? ZERO_DATE;
}

function toLocal(gmt: string, zone: Zone): string {
  return parseWpDate(gmt, 'UTC')?.setZone(zone).toFormat(WP_FORMAT) ?? ZERO_DATE;
}

/** wp_insert_post's publication and modification dates of a new post. */
export function datesForNewPost(input: DateInput, status: string, nowMs: number, zone: Zone): PostDates {
  const date = input.date ?? (input.dateGmt ? toLocal(input.dateGmt, zone) : formatWpDate(nowMs, zone));
  const dateGmt = input.dateGmt ?? (FLOATING.has(status) ? ZERO_DATE : toGmt(date, zone));
  return { date, dateGmt, modified: date, modifiedGmt: dateGmt };
}

/**
 * wp_update_post's dates: modification is now; the publication date changes only when given, or when a
 * floating draft is published (it then takes the current time, as in WordPress).
 */
export function datesForUpdate(current: PostRecord, input: DateInput, status: string, nowMs: number, zone: Zone): PostDates {
  let date = current.date;
  let dateGmt = current.dateGmt;
  if (input.date !== undefined || input.dateGmt !== undefined) {
    date = input.date ?? toLocal(input.dateGmt!, zone);
    dateGmt = input.dateGmt ?? (FLOATING.has(status) ? ZERO_DATE : toGmt(date, zone));
  } else if (dateGmt === ZERO_DATE && !FLOATING.has(status)) {
    date = formatWpDate(nowMs, zone);
    dateGmt = formatWpDate(nowMs, 'UTC');
  }
  return { date, dateGmt, modified: formatWpDate(nowMs, zone), modifiedGmt: formatWpDate(nowMs, 'UTC') };
}

/** WordPress turns `publish` with a future date into `future`, and `future` with a past date into `publish`. */
export function scheduleStatus(status: string, dateGmt: string, nowMs: number): string {
  if (dateGmt === ZERO_DATE || (status !== 'publish' && status !== 'future')) return status;
  const when = parseWpDate(dateGmt, 'UTC')?.toMillis() ?? nowMs;
  if (status === 'publish' && when - nowMs >= 60_000) return 'future';
  if (status === 'future' && when <= nowMs) return 'publish';
  return status;
}
