import type { RedirectRecord } from '../../../store/redirection.js';
import { effectiveFlags, type SourceFlags } from '../flags.js';
import { readActionData } from '../matchers.js';
import { formatPhpDate } from '../../../text/php-date.js';
import type { Zone } from 'luxon';

export interface RedirectWireContext {
  siteFlags: SourceFlags;
  dateFormat: string;
  zone: Zone;
}

/** `match_data` as the API shows it: all four effective source flags, and options when log_exclude is on. */
function wireMatchData(record: RedirectRecord, siteFlags: SourceFlags): Record<string, unknown> {
  const data: Record<string, unknown> = { source: effectiveFlags(record.matchData?.source, siteFlags, record.regex) };
  if (record.matchData?.options?.log_exclude === true) data.options = { log_exclude: true };
  return data;
}

/** A redirect on the wire (Red_Item::to_json), keys in Redirection's order. */
export function serializeRedirect(record: RedirectRecord, ctx: RedirectWireContext): Record<string, unknown> {
  return {
    id: record.id,
    url: record.url,
    match_url: record.matchUrl,
    match_data: wireMatchData(record, ctx.siteFlags),
    action_code: record.actionCode,
    action_type: record.actionType,
    action_data: readActionData(record.matchType, record.actionData),
    match_type: record.matchType,
    title: record.title ?? '',
    hits: record.hits,
    regex: record.regex,
    group_id: record.groupId,
    position: record.position,
    last_access: record.lastAccess > 0 ? formatPhpDate(ctx.dateFormat, record.lastAccess, ctx.zone) : '-',
    enabled: record.status === 'enabled',
  };
}
