import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isPlainObject } from '../../http/php.js';
import type { MatchType } from './constants.js';
import { compilePattern } from './regex.js';
import { sanitizeTargetUrl } from './url/source.js';

/*
 * Redirection's match types (matches/*.php): what each saves as action data, how it reads back, and the
 * condition it checks on a request. Targets are `url` (url, page), `logged_in`/`logged_out` (login) or
 * `url_from`/`url_notfrom` (all others: the target when the condition holds, and when it does not).
 */

/** What a condition can look at: the request, plus the host app's answers for login, role and custom. */
export interface MatchContext {
  headers: Record<string, string | string[] | undefined>;
  /** The client address after proxy rules (not the logged form). */
  ip: string;
  /** Host name the request was made to, lower-case, without port. */
  host: string;
  loggedIn: boolean;
  hasRole(role: string): boolean;
  custom(filter: string): boolean;
  /** True only when the app answered 404 (the `page` type). */
  notFound: boolean;
}

interface MatcherSpec {
  /** The keys of the saved data in the order the API shows them, with the empty value of each. */
  keys: ReadonlyArray<[string, unknown]>;
  /** The target keys, kept only when the action needs a target. */
  targets: readonly string[];
  save(details: Record<string, unknown>): Record<string, unknown>;
  condition(data: Record<string, unknown>, ctx: MatchContext): boolean;
}

const text = (value: unknown, max = 2000): string => (typeof value === 'string' ? value.trim().slice(0, max) : typeof value === 'number' ? String(value) : '');
const bool = (value: unknown): boolean => value === true || value === 'true' || value === 1 || value === '1';
const FROM_NOTFROM: Array<[string, unknown]> = [
  ['url_from', ''],
  ['url_notfrom', ''],
];
const headerOf = (ctx: MatchContext, name: string): string => {
  const value = ctx.headers[name.toLowerCase()];
  return (Array.isArray(value) ? value.join(', ') : value) ?? '';
};

/** Equal, or (when `regex`) a case-insensitive regex match; a pattern that does not compile never matches. */
function matchesValue(value: string, expected: string, regex: boolean): boolean {
  if (!regex) return value === expected;
  return compilePattern(expected, true)?.test(value) ?? false;
}

function cookieValue(ctx: MatchContext, name: string): string | null {
  for (const part of headerOf(ctx, 'cookie').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return null;
}

function normalizeIp(value: string): string | null {
  const trimmed = value.trim();
  if (isIP(trimmed) === 0) return null;
  return ipaddr.process(trimmed).toString();
}

const SPECS: Record<MatchType, MatcherSpec> = {
  url: {
    keys: [['url', '']],
    targets: ['url'],
    save: (d) => ({ url: sanitizeTargetUrl(d.url) || '/' }),
    condition: () => true,
  },
  login: {
    keys: [
      ['logged_in', ''],
      ['logged_out', ''],
    ],
    targets: ['logged_in', 'logged_out'],
    save: (d) => ({ logged_in: sanitizeTargetUrl(d.logged_in), logged_out: sanitizeTargetUrl(d.logged_out) }),
    condition: (_data, ctx) => ctx.loggedIn,
  },
  referrer: {
    keys: [['regex', false], ['referrer', ''], ...FROM_NOTFROM],
    targets: ['url_from', 'url_notfrom'],
    save: (d) => ({ regex: bool(d.regex), referrer: sanitizeTargetUrl(d.referrer) }),
    condition: (data, ctx) => matchesValue(headerOf(ctx, 'referer'), String(data.referrer ?? ''), data.regex === true),
  },
  agent: {
    keys: [['regex', false], ['agent', ''], ...FROM_NOTFROM],
    targets: ['url_from', 'url_notfrom'],
    save: (d) => ({ regex: bool(d.regex), agent: text(d.agent, 500) }),
    condition: (data, ctx) => matchesValue(headerOf(ctx, 'user-agent'), String(data.agent ?? ''), data.regex === true),
  },
  cookie: {
    keys: [['regex', false], ['name', ''], ['value', ''], ...FROM_NOTFROM],
    targets: ['url_from', 'url_notfrom'],
    save: (d) => ({ regex: bool(d.regex), name: text(d.name, 200), value: text(d.value, 500) }),
    condition: (data, ctx) => {
      const value = cookieValue(ctx, String(data.name ?? ''));
      return value !== null && matchesValue(value, String(data.value ?? ''), data.regex === true);
    },
  },
  header: {
    keys: [['regex', false], ['name', ''], ['value', ''], ...FROM_NOTFROM],
    targets: ['url_from', 'url_notfrom'],
    save: (d) => ({ regex: bool(d.regex), name: text(d.name, 200).replace(/[^A-Za-z0-9\-_:]/g, '').replace(/^:+|:+$/g, ''), value: text(d.value, 500) }),
    condition: (data, ctx) => {
      const name = String(data.name ?? '');
      return name !== '' && ctx.headers[name.toLowerCase()] !== undefined && matchesValue(headerOf(ctx, name), String(data.value ?? ''), data.regex === true);
    },
  },
  custom: {
    keys: [['filter', ''], ...FROM_NOTFROM],
    targets: ['url_from', 'url_notfrom'],
    save: (d) => ({ filter: text(d.filter, 200).replace(/[^A-Za-z0-9\-_]/g, '') }),
    condition: (data, ctx) => ctx.custom(String(data.filter ?? '')),
  },
  role: {
    keys: [['role', ''], ...FROM_NOTFROM],
    targets: ['url_from', 'url_notfrom'],
    save: (d) => ({ role: text(d.role, 200) }),
    condition: (data, ctx) => ctx.hasRole(String(data.role ?? '')),
  },
  server: {
    keys: [['server', ''], ...FROM_NOTFROM],
    targets: ['url_from', 'url_notfrom'],
    save: (d) => ({ server: normalizeServer(text(d.server, 500)) }),
    condition: (data, ctx) => {
      const server = String(data.server ?? '');
      if (!server) return false;
      try {
        return new URL(server).hostname.toLowerCase() === ctx.host;
      } catch {
        return false;
      }
    },
  },
  ip: {
    keys: [['ip', []], ...FROM_NOTFROM],
    targets: ['url_from', 'url_notfrom'],
    save: (d) => {
      const list = Array.isArray(d.ip) ? d.ip : typeof d.ip === 'string' ? d.ip.split(/[\s,]+/) : [];
      const ips = list
        .slice(0, 1000)
        .map((ip) => (typeof ip === 'string' ? normalizeIp(ip) : null))
        .filter((ip): ip is string => ip !== null);
      return { ip: [...new Set(ips)] };
    },
    condition: (data, ctx) => {
      const client = normalizeIp(ctx.ip);
      return client !== null && Array.isArray(data.ip) && data.ip.includes(client);
    },
  },
  page: {
    keys: [
      ['page', '404'],
      ['url', ''],
    ],
    targets: ['url'],
    save: (d) => ({ page: '404', url: sanitizeTargetUrl(d.url) }),
    condition: (_data, ctx) => ctx.notFound,
  },
  language: {
    keys: [['language', ''], ...FROM_NOTFROM],
    targets: ['url_from', 'url_notfrom'],
    save: (d) => ({ language: text(d.language, 500).replace(/\s+/g, '') }),
    condition: (data, ctx) => {
      const wanted = String(data.language ?? '').split(',').filter(Boolean);
      const accepted = headerOf(ctx, 'accept-language')
        .split(',')
        .map((part) => part.split(';')[0]!.trim());
      return wanted.some((code) => accepted.includes(code));
    },
  },
};

/** `scheme://host` of a server value (http added when missing); "" when it is not a URL. */
function normalizeServer(value: string): string {
  if (!value) return '';
  const withScheme = /^https?:\/\//i.test(value) ? value : `http://${value}`;
  try {
    const url = new URL(withScheme);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '';
  }
}

export function isMatchType(value: unknown): value is MatchType {
  return typeof value === 'string' && Object.hasOwn(SPECS, value);
}

/**
 * The action data a matcher saves from client input (Red_Match::save). With `noTarget` (error, nothing and random
 * actions) the target keys are dropped: `url` and `login` then save nothing.
 */
export function saveActionData(type: MatchType, details: unknown, noTarget: boolean): Record<string, unknown> | null {
  const spec = SPECS[type];
  const input = isPlainObject(details) ? details : {};
  const own = (key: string) => (Object.hasOwn(input, key) ? input[key] : undefined);
  const safe: Record<string, unknown> = {};
  for (const [key] of spec.keys) safe[key] = own(key);
  if (noTarget && (type === 'url' || type === 'login')) return null;
  const data = spec.save(safe);
  if (!noTarget && !spec.targets.every((t) => t in data)) {
    for (const target of spec.targets) data[target] = sanitizeTargetUrl(own(target));
  }
  return data;
}

/** The action data as the API shows it (Red_Match::get_data): every key in order, missing ones empty. */
export function readActionData(type: string, data: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!isMatchType(type)) return null;
  if (type === 'url' && (data === null || typeof data.url !== 'string')) return null;
  const out: Record<string, unknown> = {};
  for (const [key, empty] of SPECS[type].keys) {
    const value = data && Object.hasOwn(data, key) ? data[key] : undefined;
    out[key] = value === undefined || value === null ? (Array.isArray(empty) ? [] : empty) : value;
  }
  return out;
}

/** Whether the match type's condition holds for the request. */
export function conditionHolds(type: string, data: Record<string, unknown> | null, ctx: MatchContext): boolean {
  return isMatchType(type) ? SPECS[type].condition(data ?? {}, ctx) : false;
}

/** The target chosen by the condition: the matched target when it held, else the not-matched one; "" for none. */
export function chosenTarget(type: string, data: Record<string, unknown> | null, matched: boolean): string {
  const d = data ?? {};
  const pick = (key: string) => (typeof d[key] === 'string' ? (d[key] as string) : '');
  if (type === 'url' || type === 'page') return pick('url');
  if (type === 'login') return matched ? pick('logged_in') : pick('logged_out');
  return matched ? pick('url_from') : pick('url_notfrom');
}

