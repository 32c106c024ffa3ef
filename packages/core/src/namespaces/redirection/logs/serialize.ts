import type { Zone } from 'luxon';
import type { RedirectLogRecord } from '../../../store/redirection.js';
import { formatPhpDate } from '../../../text/php-date.js';

export interface LogWireContext {
  dateFormat: string;
  timeFormat: string;
  zone: Zone;
}

/** `redirect_by` as the log shows it: "WordPress", or the slug's words capitalised. */
function redirectByName(slug: string): string {
  if (slug === 'wordpress') return 'WordPress';
  return slug.replace(/[-_]+/g, ' ').replace(/\b\w/g, (ch) => ch.toUpperCase());
}

/** A row of the redirect log (`redirect`) or of the 404 log, keys in Redirection's order. */
export function serializeLog(row: RedirectLogRecord, kind: 'redirect' | '404', ctx: LogWireContext): Record<string, unknown> {
  const data: Record<string, unknown> = {
    id: row.id,
    created: formatPhpDate(ctx.dateFormat, row.created, ctx.zone),
    created_time: formatPhpDate(ctx.timeFormat, row.created, ctx.zone),
    url: row.url,
    agent: row.agent,
    referrer: row.referrer,
    domain: row.domain,
    ip: row.ip,
    http_code: row.httpCode,
    request_method: row.requestMethod,
    request_data: row.requestData ?? '',
  };
  if (kind === 'redirect') {
    data.sent_to = row.sentTo;
    data.redirection_id = row.redirectionId;
    data.redirect_by_slug = row.redirectBy;
    data.redirect_by = redirectByName(row.redirectBy);
  }
  return data;
}
