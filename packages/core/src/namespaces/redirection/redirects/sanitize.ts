import { intval, isPlainObject } from '../../../http/php.js';
import type { NewRedirect, StoredMatchData } from '../../../store/redirection.js';
import { sanitizeTextField } from '../../../text/sanitize.js';
import { ACTION_TYPES, ERROR_CODES, LIMITS, REDIRECT_CODES, type ActionType } from '../constants.js';
import { redirectionErrors } from '../errors.js';
import { CLASS_DEFAULT_FLAGS, flagsWithoutDefaults, parseFlags, type SourceFlags } from '../flags.js';
import { isMatchType, saveActionData } from '../matchers.js';
import { matchUrl, matchUrlWithQuery } from '../url/path.js';
import { sanitizeSourceUrl, stripTags } from '../url/source.js';
import type { ApiError } from '../../../http/api-error.js';

/** Trims every string of the input, recursively (Red_Item_Sanitize::clean_array), on a copy without prototype keys. */
function cleanInput(value: unknown, depth = 0): unknown {
  if (depth > 8) return null;
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.slice(0, 1000).map((v) => cleanInput(v, depth + 1));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = Object.create(null);
    for (const [key, v] of Object.entries(value)) if (key !== '__proto__') out[key] = cleanInput(v, depth + 1);
    return out;
  }
  return value;
}

export interface SanitizeContext {
  siteFlags: SourceFlags;
  /** Host name of the site, to tell absolute sources of this site from those of another. */
  serverName: string;
  /** `auto_target` setting and the clock, for empty sources. */
  autoTarget: string;
  now: number;
  groupExists(id: number): Promise<boolean>;
}

export interface SanitizedRedirect {
  record: Omit<NewRedirect, 'status' | 'hits' | 'lastAccess'> & { hits?: number; lastAccess?: number };
  /** The client sent no position or position 0: the redirect goes last in its group (create only). */
  appendPosition: boolean;
}

const own = (input: Record<string, unknown>, key: string): unknown => (Object.hasOwn(input, key) ? input[key] : undefined);

function actionCode(type: ActionType, code: number): number {
  if (type === 'url' || type === 'random') return REDIRECT_CODES.includes(code) ? code : 301;
  if (type === 'error') return ERROR_CODES.includes(code) ? code : 404;
  return 0;
}

function autoGenerate(ctx: SanitizeContext): string {
  if (!ctx.autoTarget) return '';
  const id = Math.floor(ctx.now / 1000);
  return ctx.autoTarget.replace(/\$dec\$/g, String(id)).replace(/\$hex\$/g, id.toString(16));
}

/** An absolute source on another host becomes a `server` redirect for that host (Red_Item_Sanitize::set_server). */
function serverSource(url: string, input: Record<string, unknown>, ctx: SanitizeContext): { url: string; matchType?: string; actionData?: Record<string, unknown> } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  const host = parsed.hostname;
  if (!host || host === ctx.serverName) return { url };
  const data = own(input, 'action_data');
  const target = isPlainObject(data) && typeof data.url === 'string' ? data.url : undefined;
  return {
    url: parsed.pathname || '/',
    matchType: 'server',
    actionData: target === undefined ? { server: host } : { server: host, url_from: target },
  };
}

/**
 * A redirect from a create or update body, sanitised as Redirection's Red_Item_Sanitize does: an ApiError for
 * its validation errors (matcher, action, source, group, in that order of checks).
 */
export async function sanitizeRedirect(body: Record<string, unknown>, ctx: SanitizeContext): Promise<SanitizedRedirect | ApiError> {
  const input = cleanInput(body) as Record<string, unknown>;
  let regex = intval(own(input, 'regex')) === 1 || own(input, 'regex') === true;
  const matchDataIn = own(input, 'match_data');
  let flags: SourceFlags = { ...CLASS_DEFAULT_FLAGS, flag_regex: regex };
  let matchData: StoredMatchData = { source: { flag_regex: regex } };
  if (isPlainObject(matchDataIn) && own(matchDataIn, 'source') !== undefined) {
    flags = parseFlags(own(matchDataIn, 'source'), ctx.siteFlags);
    matchData = { source: flagsWithoutDefaults(flags, ctx.siteFlags) };
    regex = flags.flag_regex;
  } else {
    // Without match_data.source only the regex flag is stored, as upstream does; a false one equal to the default is dropped.
    matchData = regex !== ctx.siteFlags.flag_regex ? { source: { flag_regex: regex } } : {};
  }
  if (isPlainObject(matchDataIn)) {
    const options = own(matchDataIn, 'options');
    if (isPlainObject(options) && options.log_exclude === true) matchData.options = { log_exclude: true };
  }
  const storedMatchData = matchData.source && Object.keys(matchData.source).length === 0 ? (delete matchData.source, matchData) : matchData;

  const rawUrl = own(input, 'url');
  let url = typeof rawUrl === 'string' && rawUrl !== '' ? rawUrl : typeof rawUrl === 'number' ? String(rawUrl) : autoGenerate(ctx);
  url = url.slice(0, LIMITS.url);
  let matchType = own(input, 'match_type');
  let actionDataIn = own(input, 'action_data');
  if (url.includes('http:') || url.includes('https:')) {
    const server = serverSource(url, input, ctx);
    url = server.url;
    if (server.matchType) {
      matchType = server.matchType;
      actionDataIn = server.actionData;
    }
  }
  const source = sanitizeSourceUrl(url, regex);

  const matchTypeName = typeof matchType === 'string' ? sanitizeTextField(matchType).toLowerCase() : '';
  if (!isMatchType(matchTypeName)) return redirectionErrors.invalidMatcher();
  const actionTypeIn = own(input, 'action_type');
  const actionType = typeof actionTypeIn === 'string' ? sanitizeTextField(actionTypeIn).toLowerCase() : '';
  if (!(ACTION_TYPES as readonly string[]).includes(actionType)) return redirectionErrors.invalidAction();
  if (source === '') return redirectionErrors.invalidSource();
  const groupId = intval(own(input, 'group_id'));
  if (!(await ctx.groupExists(groupId))) return redirectionErrors.invalidGroup();

  const titleIn = own(input, 'title');
  let title: string | null = typeof titleIn === 'string' || typeof titleIn === 'number' ? String(titleIn) : null;
  if (title) {
    title = stripTags(sanitizeTextField(title).slice(0, LIMITS.title)).trim();
    if (title === '') title = null;
  } else {
    title = null;
  }
  const positionIn = own(input, 'position');
  const position = positionIn === undefined || positionIn === null ? 0 : Math.max(0, Math.min(2_147_483_647, intval(positionIn)));
  const needsTarget = actionType === 'url' || actionType === 'pass';
  const actionData = isPlainObject(actionDataIn) || Array.isArray(actionDataIn) ? saveActionData(matchTypeName, Array.isArray(actionDataIn) ? {} : actionDataIn, !needsTarget) : null;

  const record: SanitizedRedirect['record'] = {
    url: source,
    matchUrl: regex ? 'regex' : flags.flag_query === 'exactorder' ? matchUrlWithQuery(source) : matchUrl(source),
    matchData: Object.keys(storedMatchData).length ? storedMatchData : null,
    regex,
    position,
    groupId,
    actionType,
    actionCode: actionCode(actionType as ActionType, intval(own(input, 'action_code'))),
    actionData,
    matchType: matchTypeName,
    title,
  };
  const hits = own(input, 'hits');
  if (hits !== undefined && hits !== null) record.hits = Math.max(0, intval(hits));
  const lastAccess = own(input, 'last_access');
  if (typeof lastAccess === 'string') {
    const parsed = Date.parse(sanitizeTextField(lastAccess));
    record.lastAccess = Number.isFinite(parsed) && parsed > 0 ? parsed : 0;
  }
  return { record, appendPosition: positionIn === undefined || positionIn === null || positionIn === 0 };
}

