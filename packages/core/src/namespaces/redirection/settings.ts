import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { intval, isPlainObject, withoutTrailingSlashes } from '../../http/php.js';
import { sanitizeTextField } from '../../text/sanitize.js';
import { DATABASE_VERSION, PLUGIN_VERSION } from './constants.js';
import type { SourceFlags } from './flags.js';
import { sanitizeSourceUrl } from './url/source.js';

/** Redirection's settings (`redirection_options`), every key in the order the plugin emits them. */
export interface RedirectionSettings {
  support: boolean;
  token: string;
  monitor_post: number;
  monitor_types: string[];
  associated_redirect: string;
  auto_target: string;
  expire_redirect: number;
  expire_404: number;
  log_external: boolean;
  log_header: boolean;
  track_hits: boolean;
  modules: Record<string, unknown> | unknown[];
  newsletter: boolean;
  redirect_cache: number;
  ip_logging: number;
  ip_headers: string[];
  ip_proxy: string[];
  last_group_id: number;
  rest_api: number;
  https: boolean;
  headers: Array<Record<string, unknown>>;
  database: string;
  relocate: string;
  preferred_domain: string;
  aliases: string[];
  permalinks: string[];
  cache_key: number;
  plugin_update: string;
  update_notice: number | string;
  flag_query: SourceFlags['flag_query'];
  flag_case: boolean;
  flag_trailing: boolean;
  flag_regex: boolean;
}

export const IP_HEADERS = [
  'HTTP_CF_CONNECTING_IP',
  'HTTP_CLIENT_IP',
  'HTTP_X_FORWARDED_FOR',
  'HTTP_X_FORWARDED',
  'HTTP_X_CLUSTER_CLIENT_IP',
  'HTTP_FORWARDED_FOR',
  'HTTP_FORWARDED',
  'HTTP_VIA',
  'REMOTE_ADDR',
];

function defaultSettings(): RedirectionSettings {
  return {
    support: false,
    token: randomToken(),
    monitor_post: 0,
    monitor_types: [],
    associated_redirect: '',
    auto_target: '',
    expire_redirect: 7,
    expire_404: 7,
    log_external: false,
    log_header: false,
    track_hits: true,
    modules: [],
    newsletter: false,
    redirect_cache: 1,
    ip_logging: 0,
    ip_headers: [],
    ip_proxy: [],
    last_group_id: 0,
    rest_api: 0,
    https: false,
    headers: [],
    database: '',
    relocate: '',
    preferred_domain: '',
    aliases: [],
    permalinks: [],
    cache_key: 0,
    plugin_update: 'prompt',
    update_notice: 0,
    flag_query: 'exact',
    flag_case: false,
    flag_trailing: false,
    flag_regex: false,
  };
}

/** What a fresh installation saves: the first group as the default, case and trailing slash ignored. */
export function installedSettings(firstGroupId: number): RedirectionSettings {
  return { ...defaultSettings(), last_group_id: firstGroupId, database: DATABASE_VERSION, flag_case: true, flag_trailing: true };
}

function randomToken(): string {
  return randomBytes(16).toString('hex');
}

/** Saved settings over the defaults, only known keys, in the plugin's order; `rest_api` read as Redirection reads it. */
export function readSettings(saved: Record<string, unknown> | null): RedirectionSettings {
  const out = defaultSettings() as unknown as Record<string, unknown>;
  if (saved) for (const key of Object.keys(out)) if (Object.hasOwn(saved, key)) out[key] = saved[key];
  const settings = out as unknown as RedirectionSettings;
  if (![0, 1, 3].includes(settings.rest_api)) settings.rest_api = 0;
  return settings;
}

export function siteFlags(settings: RedirectionSettings): SourceFlags {
  return { flag_query: settings.flag_query, flag_case: settings.flag_case, flag_trailing: settings.flag_trailing, flag_regex: settings.flag_regex };
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
const stringList = (value: unknown, max: number) => (Array.isArray(value) ? value : []).filter((v): v is string => typeof v === 'string').slice(0, max);

function dashCase(text: string): string {
  return text
    .replace(/[^A-Za-z0-9]+/g, '-')
    .split('-')
    .map((word) => (word ? word[0]!.toUpperCase() + word.slice(1).toLowerCase() : word))
    .join('-');
}

function hostOnly(value: string): string {
  const text = value.replace(/\s+/g, '');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  try {
    return new URL(withScheme).hostname;
  } catch {
    return '';
  }
}

function normalizeRelocate(value: string): string {
  const text = value.trim();
  if (!text) return '';
  const withScheme = /^https?:\/\//i.test(text) ? text : `http://${text}`;
  try {
    const url = new URL(withScheme);
    const path = url.pathname === '/' ? '' : withoutTrailingSlashes(url.pathname);
    return `${url.protocol}//${url.host}${path}`;
  } catch {
    return '';
  }
}

export interface SettingsContext {
  /** Ids of existing groups, lowest first. */
  groupIds: number[];
  postTypes: string[];
  now: number;
}

/**
 * A POST of the settings route: only the keys sent change, each coerced as Redirection coerces it; unknown keys
 * are ignored. Posting any flag rebuilds the four flags from the class defaults plus those posted (upstream).
 */
export function updateSettings(current: RedirectionSettings, body: Record<string, unknown>, ctx: SettingsContext): RedirectionSettings {
  const next: RedirectionSettings = structuredClone(current);
  const has = (key: string) => Object.hasOwn(body, key) && body[key] !== undefined && body[key] !== null;
  const firstGroup = ctx.groupIds[0] ?? 0;
  for (const key of ['support', 'log_external', 'log_header', 'track_hits', 'newsletter', 'https'] as const) {
    if (has(key)) next[key] = Boolean(body[key]) && body[key] !== 'false' && body[key] !== '0';
  }
  if (has('token')) {
    const token = typeof body.token === 'string' ? sanitizeTextField(body.token).slice(0, 64) : '';
    next.token = token.trim() ? token : randomToken();
  }
  if (has('monitor_types')) next.monitor_types = stringList(body.monitor_types, 50).filter((t) => ctx.postTypes.includes(t) || t === 'trash');
  if (has('monitor_post')) {
    const id = Math.max(0, intval(body.monitor_post));
    next.monitor_post = id !== 0 && !ctx.groupIds.includes(id) ? firstGroup : id;
  }
  if (has('associated_redirect')) next.associated_redirect = typeof body.associated_redirect === 'string' ? sanitizeSourceUrl(body.associated_redirect.slice(0, 200), false) : '';
  if (next.monitor_types.length === 0) {
    next.monitor_post = 0;
    next.associated_redirect = '';
  }
  if (has('auto_target')) next.auto_target = typeof body.auto_target === 'string' ? sanitizeTextField(body.auto_target).slice(0, 200) : '';
  for (const key of ['expire_redirect', 'expire_404'] as const) {
    if (has(key)) next[key] = clamp(intval(body[key]), -1, 60);
  }
  if (has('redirect_cache')) {
    const hours = intval(body.redirect_cache);
    next.redirect_cache = [-1, 0, 1, 24, 168].includes(hours) ? hours : 1;
  }
  if (has('ip_logging')) next.ip_logging = clamp(intval(body.ip_logging), 0, 2);
  if (has('ip_headers')) next.ip_headers = [...new Set(stringList(body.ip_headers, IP_HEADERS.length * 2).filter((h) => IP_HEADERS.includes(h)))];
  if (has('ip_proxy')) next.ip_proxy = stringList(body.ip_proxy, 100).map((ip) => ip.trim()).filter((ip) => isIP(ip) !== 0);
  if (has('last_group_id')) {
    const id = intval(body.last_group_id);
    next.last_group_id = ctx.groupIds.includes(id) ? id : firstGroup;
  }
  if (has('rest_api')) {
    const api = intval(body.rest_api);
    if (api >= 0 && api <= 4) next.rest_api = api;
  }
  if (has('headers')) {
    next.headers = (Array.isArray(body.headers) ? body.headers : [])
      .slice(0, 50)
      .filter(isPlainObject)
      .filter((h) => typeof h.headerName === 'string' && h.headerName.trim() !== '' && typeof h.type === 'string' && h.type.trim() !== '')
      .map((h) => ({
        type: dashCase(String(h.type)).slice(0, 100),
        headerName: dashCase(String(h.headerName)).slice(0, 100),
        headerValue: typeof h.headerValue === 'string' ? h.headerValue.replace(/[\r\n]/g, '').slice(0, 1000) : '',
        location: h.location === 'redirect' ? 'redirect' : 'site',
        headerSettings: isPlainObject(h.headerSettings) ? h.headerSettings : {},
      }));
  }
  if (has('database') && typeof body.database === 'string') next.database = sanitizeTextField(body.database).slice(0, 20);
  if (has('relocate')) next.relocate = typeof body.relocate === 'string' ? normalizeRelocate(body.relocate) : '';
  if (has('preferred_domain') && ['', 'www', 'nowww'].includes(String(body.preferred_domain))) next.preferred_domain = String(body.preferred_domain);
  if (has('aliases')) next.aliases = stringList(body.aliases, 1000).map(hostOnly).filter(Boolean).slice(0, 20);
  if (next.relocate) {
    next.preferred_domain = '';
    next.aliases = [];
    next.https = false;
  }
  if (has('permalinks')) next.permalinks = stringList(body.permalinks, 1000).map((p) => p.trim().slice(0, 200)).filter(Boolean).slice(0, 10);
  if (has('cache_key')) next.cache_key = body.cache_key === true ? Math.floor(ctx.now / 1000) : body.cache_key === false ? 0 : Math.max(0, intval(body.cache_key));
  if (has('plugin_update') && ['prompt', 'admin'].includes(String(body.plugin_update))) next.plugin_update = String(body.plugin_update);
  if (has('update_notice')) next.update_notice = PLUGIN_VERSION.split('.').slice(0, 2).join('.');
  if (['flag_query', 'flag_case', 'flag_trailing', 'flag_regex'].some(has)) {
    const query = body.flag_query;
    next.flag_query = typeof query === 'string' && ['exact', 'exactorder', 'ignore', 'pass'].includes(query) ? (query as SourceFlags['flag_query']) : 'exact';
    next.flag_case = body.flag_case === true;
    next.flag_trailing = body.flag_trailing === true;
    next.flag_regex = body.flag_regex === true;
    if (next.flag_regex) next.flag_query = 'exact';
  }
  return next;
}
